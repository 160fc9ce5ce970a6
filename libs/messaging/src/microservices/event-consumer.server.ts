import { ContractViolationError } from '@app/contracts';
import { InjectionToken } from '@nestjs/common';
import { BaseRpcContext, CustomTransportStrategy, MessageHandler, Server } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { ConsumedMessage, ConsumerDefinition, ConsumerHandler, MessageConsumer, PoisonMessageError } from '../consumer/consumer-definition';
import { InboxEntry } from '../consumer/inbox';

/**
 * The extras of an `@EventPattern(subject, { consumer })`: the injection token of the
 * {@link ConsumerDefinition} (durable name, dead letters, redelivery, batch size) the handler
 * consumes the subject with. The definition's `subject` is what is consumed: normally the
 * pattern's, but a test may move it to a subject of its own on a shared NATS server.
 */
export interface EventPatternExtras {
  consumer: InjectionToken;
}

const BATCH_SUFFIX = '#batch';

/**
 * The pattern of a handler's batch form: `@EventPattern(batchOf(SUBJECT), { consumer })` takes
 * the messages of the same consumer as `@EventPattern(SUBJECT, { consumer })`, several at once.
 * (A pattern of its own: Nest runs every handler of one event pattern for each message.)
 */
export function batchOf(subject: string): string {
  return `${subject}${BATCH_SUFFIX}`;
}

const CONSUMER_SEPARATOR = '@';

/**
 * The pattern of a handler of `subject` that must not share its pattern with another handler of
 * the same subject in one application: each context keeps a durable consumer of its own, and
 * `standalone` runs every context in one application, where two handlers of one pattern would
 * each get every message of both consumers (`@EventPattern(consumedAs(SUBJECT, 'orders'), …)`).
 * Combine with {@link batchOf} as `batchOf(consumedAs(…))`.
 */
export function consumedAs(subject: string, name: string): string {
  return `${subject}${CONSUMER_SEPARATOR}${name}`;
}

/** What an `@EventPattern` handler gets as `@Ctx()`: the message's envelope and the consumer taking it. */
export class EventContext extends BaseRpcContext<[ConsumedMessage, string]> {
  getMessage(): ConsumedMessage {
    return this.args[0];
  }

  /** The durable consumer's name. */
  getConsumer(): string {
    return this.args[1];
  }

  /** The inbox entry that records this message as processed by this consumer. */
  receipt(): InboxEntry {
    const message = this.getMessage();
    return { consumer: this.getConsumer(), messageId: message.msgId, subject: message.subject };
  }
}

/** What the batch form of a handler gets as `@Ctx()`: the consumer taking the batch. */
export class EventBatchContext extends BaseRpcContext<[string]> {
  getConsumer(): string {
    return this.args[0];
  }

  /** The inbox entry of one of the batch's messages. */
  receiptOf(message: ConsumedMessage): InboxEntry {
    return { consumer: this.getConsumer(), messageId: message.msgId, subject: message.subject };
  }
}

/** Makes the running consumer of a definition on the process's transport (JetStream or in process). */
export type ConsumerFactory = (definition: ConsumerDefinition, handler: ConsumerHandler) => MessageConsumer;

interface Binding {
  subject: string;
  single?: MessageHandler;
  batch?: MessageHandler;
}

/**
 * The durable-event transport strategy: each `@EventPattern(subject, { consumer })` handler of the
 * application becomes one durable consumer ({@link ConsumerDefinition}) on the process's
 * transport: a JetStream pull consumer, or a subscription of the in-process transport in
 * `standalone`. The consumers keep every guarantee of the reliability model: the message is
 * acknowledged only when the handler has resolved (after its transaction committed), redelivered
 * with back-off when it throws, dead-lettered after `maxDeliveries` or at once when it is poison
 * (a payload that breaks its contract, a {@link PoisonMessageError}); a batch form
 * (`@EventPattern(batchOf(subject), …)`) takes what has arrived, up to `batchSize`, all or
 * nothing, and the single handler decides each message of a batch that failed.
 *
 * One consumer per subject in an application: Nest runs every handler of an event pattern for
 * each message, so two consumers of one subject would each run both handlers (refused at start).
 */
export class EventConsumerServer extends Server implements CustomTransportStrategy {
  private consumers: MessageConsumer[] = [];
  private starting: Promise<void> | undefined;

  constructor(
    private readonly createConsumer: ConsumerFactory,
    private readonly definitionOf: (token: InjectionToken) => ConsumerDefinition,
  ) {
    super();
  }

  listen(callback: (error?: unknown) => void): void {
    this.start().then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  /** Starts one consumer per definition named by the handlers (idempotent). */
  start(): Promise<void> {
    this.starting ??= this.startConsumers().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  /** Stops the consumers; each lets the messages in hand finish (idempotent). Waits for a start under way first. */
  async close(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const consumers = this.consumers;
    this.consumers = [];
    this.starting = undefined;
    await Promise.all(consumers.map((consumer) => consumer.stop()));
  }

  on(): void {
    // No events of its own: the consumers log their failures and dead letters.
  }

  unwrap<T>(): T {
    return this.consumers as T;
  }

  private bindings(): Map<InjectionToken, Binding> {
    const bindings = new Map<InjectionToken, Binding>();
    for (const [pattern, handler] of this.messageHandlers) {
      if (!handler.isEventHandler) continue;
      if (handler.next) throw new Error(`@EventPattern('${pattern}') has more than one handler: one consumer per subject in an application`);
      const extras = handler.extras as Partial<EventPatternExtras> | undefined;
      if (!extras?.consumer) throw new Error(`@EventPattern('${pattern}') names no consumer definition ({ consumer: TOKEN })`);
      const isBatch = pattern.endsWith(BATCH_SUFFIX);
      const subject = (isBatch ? pattern.slice(0, -BATCH_SUFFIX.length) : pattern).split(CONSUMER_SEPARATOR, 1)[0];
      const binding = bindings.get(extras.consumer) ?? { subject };
      if (binding.subject !== subject) throw new Error(`consumer ${String(extras.consumer)} is named by handlers of two subjects (${binding.subject}, ${subject})`);
      binding[isBatch ? 'batch' : 'single'] = handler;
      bindings.set(extras.consumer, binding);
    }
    return bindings;
  }

  private async startConsumers(): Promise<void> {
    const started: MessageConsumer[] = [];
    try {
      for (const [token, binding] of this.bindings()) {
        const definition = this.definitionOf(token);
        if (definition.subject !== binding.subject) {
          // The definition decides what is consumed: a test (or a namespaced deployment) moves the stream's subject.
          this.logger.log(`consumer ${definition.name} takes ${definition.subject} for @EventPattern('${binding.subject}')`);
        }
        const single = binding.single;
        if (!single) throw new Error(`consumer ${definition.name} has only a batch handler: the single form decides messages a batch could not`);
        const batch = binding.batch;
        const handler: ConsumerHandler = {
          handle: (message) => this.invokeSingle(single, message, definition.name),
          handleBatch: batch ? (messages) => this.invoke(batch, messages, new EventBatchContext([definition.name])) : undefined,
        };
        const consumer = this.createConsumer(definition, handler);
        await consumer.start();
        started.push(consumer);
      }
    } catch (error) {
      await Promise.all(started.map((consumer) => consumer.stop()));
      throw error;
    }
    this.consumers = started;
  }

  private async invokeSingle(handler: MessageHandler, message: ConsumedMessage, consumer: string): Promise<void> {
    try {
      await this.invoke(handler, message.payload, new EventContext([message, consumer]));
    } catch (error) {
      // A payload that breaks its contract is as bad on every delivery.
      if (error instanceof ContractViolationError) throw new PoisonMessageError(error.message);
      throw error;
    }
  }

  private async invoke(handler: MessageHandler, data: unknown, context: BaseRpcContext): Promise<void> {
    await lastValueFrom(this.transformToObservable(await handler(data, context)), { defaultValue: undefined });
  }
}
