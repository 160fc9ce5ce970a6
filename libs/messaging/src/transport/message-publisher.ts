/** NATS-style message headers: string to string. */
export type MessageHeaders = Record<string, string>;

/** What every publish carries besides subject and payload. */
export interface PublishOptions {
  /** Unique id of the message (the outbox row id): the broker de-duplicates on it. */
  msgId: string;
  headers?: MessageHeaders;
}

/**
 * Hands a message to the broker. Resolves once the broker has accepted (stored) it, not when a
 * consumer has handled it; rejects when it was not accepted, so the outbox tries again. Publishing
 * the same `msgId` twice must be harmless.
 */
export interface MessagePublisher {
  publish(subject: string, payload: object, options: PublishOptions): Promise<void>;
}

/** Nest injection token of the process's {@link MessagePublisher}. */
export const MESSAGE_PUBLISHER = Symbol('MESSAGE_PUBLISHER');
