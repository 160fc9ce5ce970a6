import { MessageHeaders } from '../transport/message-publisher';

/** A message as a consumer's handler receives it, whatever the transport. */
export interface ConsumedMessage {
  subject: string;
  /** The JSON payload, parsed (not yet validated: decode it against its contract). */
  payload: unknown;
  /** The publisher's id (`Nats-Msg-Id`, the outbox row id): the key of the inbox. */
  msgId: string;
  headers: MessageHeaders;
  /** 1 on first delivery, then 2, 3, … */
  deliveryCount: number;
}

/** Handles one message; resolving acknowledges it, throwing asks for redelivery (or a dead letter). */
export interface ConsumerHandler {
  handle(message: ConsumedMessage): Promise<void>;
  /**
   * Optional: handles several messages at once, all or nothing. Resolving acknowledges them all;
   * throwing must leave nothing written, and the consumer then hands each message to `handle`,
   * which decides its retry or dead letter alone. Used when the definition sets `batchSize`.
   */
  handleBatch?(messages: ConsumedMessage[]): Promise<void>;
}

/**
 * Thrown by a handler for a message that no redelivery can fix (it breaks its contract, or
 * names state that can never accept it): the consumer dead-letters it at once.
 */
export class PoisonMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoisonMessageError';
  }
}

/** How one durable consumer consumes one subject, on either transport. */
export interface ConsumerDefinition {
  /** Durable consumer name (`[A-Za-z0-9_-]`); also names the consumer in the inbox, logs and dead letters. */
  name: string;
  /** The subject consumed (exact). */
  subject: string;
  /** Where messages that will never be handled are published, with the reason in headers. */
  deadLetterSubject: string;
  /**
   * Deliveries of a failing message before it is dead-lettered. Default 5. In-process, keep it at
   * most the transport's own `maxDeliveries` (default 5), which otherwise only logs the loss.
   */
  maxDeliveries?: number;
  /**
   * Messages handed to the handler's `handleBatch` at once (when it has one): what has arrived,
   * up to this many, without waiting for more. Default 1 (one message at a time).
   */
  batchSize?: number;
  /** Delay before redelivery after n failures (JetStream nak delay). Default 500 ms × 2^(n-1), at most 30 s. */
  redeliveryDelayMs?: (failures: number) => number;
  /** Needed when the application runs on JetStream. */
  jetStream?: {
    /** The stream that captures `subject` (ensured by the publishing side; the consumer adds its subject when missing, or creates the stream, so it may start first). */
    stream: string;
    /** The stream that keeps dead letters; created (file storage) or extended to capture `deadLetterSubject`. */
    deadLetterStream: string;
    /** Messages one replica handles at once (batches, when `batchSize` > 1). Default 8. */
    concurrency?: number;
    /** How long the server waits for an ack before redelivering. Default 30 s. */
    ackWaitMs?: number;
    /** How long dead letters are kept. Default 30 days. */
    deadLetterMaxAgeMs?: number;
  };
}

export const DEFAULT_MAX_DELIVERIES = 5;

/** The stream that keeps every dead letter of the platform (`dlq.<subject>`), whichever context's consumer gave up. */
export const DEAD_LETTER_STREAM = 'SOFTPOS_DEAD_LETTERS';

/**
 * The dead-letter subject of `subject`. Prefixed rather than suffixed, so that no event stream's
 * wildcard (`gateway.>`) can ever capture them and one dead-letter stream can hold all (`dlq.>`);
 * the `Dead-Letter-Consumer` header tells whose it is when two contexts consume one subject.
 */
export function deadLetterSubjectOf(subject: string): string {
  return `dlq.${subject}`;
}

/** Default back-off of redeliveries: 500 ms, 1 s, 2 s, … at most 30 s. */
export function defaultRedeliveryDelayMs(failures: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, failures - 1));
}

/** Headers a dead letter carries besides the original message's own. */
export const DEAD_LETTER_HEADERS = {
  reason: 'Dead-Letter-Reason',
  consumer: 'Dead-Letter-Consumer',
  subject: 'Dead-Letter-Subject',
  messageId: 'Dead-Letter-Message-Id',
  deliveries: 'Dead-Letter-Deliveries',
} as const;

/** What to do with a message whose handler failed. */
export type FailureAction = { kind: 'retry'; delayMs: number } | { kind: 'dead-letter'; reason: string };

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A poison message is dead-lettered at once; any other failure is retried with back-off until
 * its last allowed delivery, then dead-lettered.
 */
export function failureAction(
  error: unknown,
  deliveryCount: number,
  definition: Pick<ConsumerDefinition, 'maxDeliveries' | 'redeliveryDelayMs'>,
): FailureAction {
  if (error instanceof PoisonMessageError) return { kind: 'dead-letter', reason: error.message };
  const maxDeliveries = definition.maxDeliveries ?? DEFAULT_MAX_DELIVERIES;
  if (deliveryCount >= maxDeliveries) return { kind: 'dead-letter', reason: `gave up after ${deliveryCount} deliveries: ${describeError(error)}` };
  return { kind: 'retry', delayMs: (definition.redeliveryDelayMs ?? defaultRedeliveryDelayMs)(deliveryCount) };
}

/** Header values are single lines of bounded length. */
function headerValue(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').slice(0, 1024);
}

/** The headers of the dead letter of `message`: its own, plus why and where it died. */
export function deadLetterHeaders(message: ConsumedMessage, consumer: string, reason: string): MessageHeaders {
  return {
    ...message.headers,
    [DEAD_LETTER_HEADERS.reason]: headerValue(reason),
    [DEAD_LETTER_HEADERS.consumer]: consumer,
    [DEAD_LETTER_HEADERS.subject]: message.subject,
    [DEAD_LETTER_HEADERS.messageId]: headerValue(message.msgId),
    [DEAD_LETTER_HEADERS.deliveries]: String(message.deliveryCount),
  };
}

/** The dead letter's own message id: one per consumer and original message, so a retried dead-lettering is stored once. */
export function deadLetterMessageId(consumer: string, msgId: string): string {
  return `dlq:${consumer}:${msgId}`;
}

/** A running consumer: `start` subscribes (idempotent), `stop` lets the messages in hand finish. */
export interface MessageConsumer {
  start(): Promise<void>;
  stop(): Promise<void>;
}
