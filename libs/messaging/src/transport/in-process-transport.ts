import { Logger, LoggerService } from '@nestjs/common';
import { MessageHeaders, MessagePublisher, PublishOptions } from './message-publisher';

/** A message as an in-process subscriber receives it. */
export interface InProcessMessage {
  subject: string;
  /** The payload after a JSON round trip, exactly as it would arrive over NATS (dates become strings). */
  payload: unknown;
  msgId: string;
  headers: MessageHeaders;
  /** 1 on first delivery, then 2, 3, … (JetStream's `info.deliveryCount`). */
  deliveryCount: number;
}

/** Handles one message; throwing (or rejecting) asks for redelivery, like a JetStream nak. */
export type InProcessHandler = (message: InProcessMessage) => Promise<void> | void;

/** Called with a message that failed `maxDeliveries` times and will not be delivered again. */
export type DeadLetterHandler = (message: InProcessMessage, error: unknown, consumer: string) => Promise<void> | void;

export interface InProcessTransportOptions {
  /** Deliveries per message and subscriber before it is dead-lettered (JetStream `max_deliver`). Default 5. */
  maxDeliveries?: number;
  /** Delay before redelivery number n+1 after n failures. Default 500 ms × 2^(n-1), at most 30 s. */
  redeliveryDelayMs?: (failures: number) => number;
  /** Window in which a repeated msgId is dropped (JetStream `duplicate_window`). Default 2 minutes. */
  duplicateWindowMs?: number;
  /** Default: log the message at error level. */
  onDeadLetter?: DeadLetterHandler;
  logger?: LoggerService;
}

/** Handles several messages at once, all or nothing; throwing makes the transport deliver each alone. */
export type InProcessBatchHandler = (messages: InProcessMessage[]) => Promise<void>;

export interface SubscribeOptions {
  /** Hands queued messages (up to `size`) to `handler` in one call when more than one is waiting. */
  batch?: { size: number; handler: InProcessBatchHandler };
}

interface Subscription {
  subject: string;
  consumer: string;
  handler: InProcessHandler;
  batch: SubscribeOptions['batch'];
  queue: InProcessMessage[];
  busy: boolean;
  inFlight: Promise<void> | undefined;
}

/**
 * The message transport of the single-process `standalone` mode, with JetStream's delivery
 * semantics so handlers behave the same in both modes: delivery is asynchronous (publish
 * returns once accepted), at-least-once (a handler that throws gets the message again later, at
 * most `maxDeliveries` times, then it is dead-lettered), a repeated msgId within the duplicate
 * window is dropped, and each subscriber gets its messages one at a time in publish order.
 *
 * Messages live in memory only: what was accepted but not yet handled when the process dies is
 * lost (the outbox row is already marked published). `close()` drains before shutdown.
 */
export class InProcessTransport implements MessagePublisher {
  private readonly subscriptions = new Set<Subscription>();
  private readonly seen = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly idleWaiters: Array<() => void> = [];
  private readonly maxDeliveries: number;
  private readonly redeliveryDelayMs: (failures: number) => number;
  private readonly duplicateWindowMs: number;
  private readonly onDeadLetter: DeadLetterHandler;
  private readonly logger: LoggerService;
  /** Messages accepted and not yet acknowledged or dead-lettered, over all subscribers. */
  private pending = 0;
  private closed = false;

  constructor(options: InProcessTransportOptions = {}) {
    this.maxDeliveries = options.maxDeliveries ?? 5;
    this.redeliveryDelayMs = options.redeliveryDelayMs ?? ((failures) => Math.min(30_000, 500 * 2 ** (failures - 1)));
    this.duplicateWindowMs = options.duplicateWindowMs ?? 120_000;
    this.logger = options.logger ?? new Logger('InProcessTransport');
    this.onDeadLetter =
      options.onDeadLetter ??
      ((message, error, consumer) =>
        this.logger.error(
          `dead letter: ${consumer} gave up on ${message.subject} ${message.msgId} after ${message.deliveryCount} deliveries: ${describe(error)}`,
        ));
  }

  /**
   * Delivers every message later published on `subject` (exact match) to `handler`. `consumer`
   * names the subscriber in logs and dead letters, like a durable consumer name. Answers a
   * function that unsubscribes.
   */
  subscribe(subject: string, handler: InProcessHandler, consumer = subject, options: SubscribeOptions = {}): () => void {
    const subscription: Subscription = { subject, consumer, handler, batch: options.batch, queue: [], busy: false, inFlight: undefined };
    this.subscriptions.add(subscription);
    return () => {
      this.subscriptions.delete(subscription);
      this.settle(subscription.queue.length);
      subscription.queue.length = 0;
    };
  }

  async publish(subject: string, payload: object, options: PublishOptions): Promise<void> {
    if (this.closed) throw new Error('InProcessTransport is closed');
    if (this.isDuplicate(options.msgId)) return;
    // Serialise once, as the wire would: subscribers never share or mutate the publisher's object.
    const wire = JSON.stringify(payload);
    for (const subscription of this.subscriptions) {
      if (subscription.subject !== subject) continue;
      const message: InProcessMessage = {
        subject,
        payload: JSON.parse(wire) as unknown,
        msgId: options.msgId,
        headers: { ...options.headers },
        deliveryCount: 0,
      };
      this.pending += 1;
      subscription.queue.push(message);
      this.schedule(subscription);
    }
  }

  /** Resolves when every accepted message has been handled or dead-lettered (tests, shutdown). */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops accepting messages, waits up to `drainTimeoutMs` for the accepted ones to be handled,
   * then drops the rest (logged) and waits for handlers still running.
   */
  async close(drainTimeoutMs = 5000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, drainTimeoutMs)))]);
    clearTimeout(timer);
    for (const pendingTimer of this.timers) clearTimeout(pendingTimer);
    this.timers.clear();
    if (this.pending > 0) this.logger.warn(`closing with ${this.pending} undelivered message(s)`);
    const running = [...this.subscriptions].map((subscription) => subscription.inFlight).filter((flight): flight is Promise<void> => flight !== undefined);
    for (const subscription of this.subscriptions) subscription.queue.length = 0;
    this.subscriptions.clear();
    await Promise.all(running);
    this.settle(this.pending);
  }

  private isDuplicate(msgId: string): boolean {
    const now = Date.now();
    for (const [id, expiresAt] of this.seen) {
      // Map iteration is insertion order, so the first live entry ends the sweep.
      if (expiresAt > now) break;
      this.seen.delete(id);
    }
    if (this.seen.has(msgId)) return true;
    this.seen.set(msgId, now + this.duplicateWindowMs);
    return false;
  }

  private schedule(subscription: Subscription): void {
    // Deliver on a later turn of the event loop: the publisher (the relay, inside its transaction) never runs handlers.
    if (!subscription.busy) setImmediate(() => void this.drain(subscription));
  }

  private async drain(subscription: Subscription): Promise<void> {
    if (subscription.busy) return;
    subscription.busy = true;
    try {
      let message: InProcessMessage | undefined;
      while (this.subscriptions.has(subscription) && subscription.queue.length > 0) {
        const { batch } = subscription;
        if (batch && batch.size > 1 && subscription.queue.length > 1) {
          subscription.inFlight = this.deliverBatch(subscription, batch.handler, subscription.queue.splice(0, batch.size));
        } else {
          message = subscription.queue.shift() as InProcessMessage;
          subscription.inFlight = this.deliver(subscription, message);
        }
        await subscription.inFlight;
      }
    } finally {
      subscription.busy = false;
      subscription.inFlight = undefined;
    }
  }

  /** A batch attempt does not count as a delivery: when it fails, each message gets its own, as JetStream's consumer does. */
  private async deliverBatch(subscription: Subscription, handler: InProcessBatchHandler, messages: InProcessMessage[]): Promise<void> {
    try {
      await handler(messages.map((message) => ({ ...message, deliveryCount: message.deliveryCount + 1 })));
      this.settle(messages.length);
    } catch {
      for (const message of messages) await this.deliver(subscription, message);
    }
  }

  private async deliver(subscription: Subscription, message: InProcessMessage): Promise<void> {
    message.deliveryCount += 1;
    try {
      await subscription.handler({ ...message });
      this.settle(1);
    } catch (error) {
      if (message.deliveryCount >= this.maxDeliveries) {
        try {
          await this.onDeadLetter({ ...message }, error, subscription.consumer);
        } catch (deadLetterError) {
          this.logger.error(`dead-letter handler failed for ${message.msgId}: ${describe(deadLetterError)}`);
        }
        this.settle(1);
        return;
      }
      // Redeliver later without holding up the subscriber's other messages, like a JetStream nak with delay.
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (!this.subscriptions.has(subscription)) return this.settle(1);
        subscription.queue.push(message);
        this.schedule(subscription);
      }, this.redeliveryDelayMs(message.deliveryCount));
      this.timers.add(timer);
    }
  }

  private settle(count: number): void {
    this.pending = Math.max(0, this.pending - count);
    if (this.pending === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
