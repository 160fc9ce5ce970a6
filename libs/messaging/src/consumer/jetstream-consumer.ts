import { Logger, LoggerService } from '@nestjs/common';
import {
  AckPolicy,
  ConsumerConfig,
  ConsumerInfo,
  ConsumerMessages,
  DeliverPolicy,
  headers as natsHeaders,
  JetStreamManager,
  JsMsg,
  NatsConnection,
  NatsError,
  nanos,
} from 'nats';
import { ensureStream } from '../transport/jetstream-publisher';
import { MessageHeaders } from '../transport/message-publisher';
import {
  ConsumedMessage,
  ConsumerDefinition,
  ConsumerHandler,
  DEFAULT_MAX_DELIVERIES,
  deadLetterHeaders,
  deadLetterMessageId,
  describeError,
  failureAction,
  MessageConsumer,
} from './consumer-definition';

/** JetStream's "consumer not found" API error. */
const CONSUMER_NOT_FOUND = 10014;

/**
 * Deliveries the server allows beyond `maxDeliveries`: the handler gets `maxDeliveries`
 * attempts, and a dead letter that could not be published is retried in these.
 */
export const DEAD_LETTER_PUBLISH_ATTEMPTS = 3;

export interface JetStreamConsumerOptions {
  logger?: LoggerService;
}

/** The durable consumer's configuration, as created (and updated when it drifts). */
export function durableConsumerConfig(definition: ConsumerDefinition): Partial<ConsumerConfig> {
  return {
    durable_name: definition.name,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: definition.subject,
    ack_wait: nanos(definition.jetStream?.ackWaitMs ?? 30_000),
    max_deliver: (definition.maxDeliveries ?? DEFAULT_MAX_DELIVERIES) + DEAD_LETTER_PUBLISH_ATTEMPTS,
  };
}

/** Creates the durable pull consumer, or brings the editable settings of an existing one in line. */
export async function ensureDurableConsumer(jsm: JetStreamManager, stream: string, definition: ConsumerDefinition): Promise<ConsumerInfo> {
  const config = durableConsumerConfig(definition);
  let existing: ConsumerInfo;
  try {
    existing = await jsm.consumers.info(stream, definition.name);
  } catch (error) {
    if (!(error instanceof NatsError && error.api_error?.err_code === CONSUMER_NOT_FOUND)) throw error;
    return jsm.consumers.add(stream, config);
  }
  const current = existing.config;
  if (current.filter_subject === config.filter_subject && current.ack_wait === config.ack_wait && current.max_deliver === config.max_deliver) return existing;
  return jsm.consumers.update(stream, definition.name, { filter_subject: config.filter_subject, ack_wait: config.ack_wait, max_deliver: config.max_deliver });
}

/** The headers of a received message, less the server's own (`Nats-*`). */
function headersOf(message: JsMsg): MessageHeaders {
  const result: MessageHeaders = {};
  if (!message.headers) return result;
  for (const key of message.headers.keys()) {
    if (!key.toLowerCase().startsWith('nats-')) result[key] = message.headers.get(key);
  }
  return result;
}

/** At most `limit` tasks at once. */
class Slots {
  private used = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async acquire(): Promise<void> {
    if (this.used < this.limit) {
      this.used += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.used -= 1;
  }
}

/**
 * A {@link ConsumerDefinition} as a JetStream durable pull consumer: explicit acks, redelivery
 * with back-off (nak with delay) up to `maxDeliveries`, then the message is published to the
 * dead-letter subject (kept in its own stream) and terminated; a poison message goes there at
 * once. Replicas share the durable consumer, so each message goes to one of them at a time;
 * up to `concurrency` messages are handled at once, so handlers must be safe to run in parallel
 * and idempotent (an inbox), as any message may arrive twice.
 */
export class JetStreamConsumer implements MessageConsumer {
  private readonly logger: LoggerService;
  private readonly decoder = new TextDecoder();
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly connection: NatsConnection,
    private readonly definition: ConsumerDefinition,
    private readonly handler: ConsumerHandler,
    options: JetStreamConsumerOptions = {},
  ) {
    this.logger = options.logger ?? new Logger(`Consumer:${definition.name}`);
  }

  private get settings(): NonNullable<ConsumerDefinition['jetStream']> {
    const settings = this.definition.jetStream;
    if (!settings) throw new Error(`consumer ${this.definition.name} has no jetStream settings (stream, deadLetterStream)`);
    return settings;
  }

  /** Ensures the dead-letter stream, that its stream captures its subject, and the durable consumer, then starts pulling. */
  async start(): Promise<void> {
    if (this.loop) return;
    const settings = this.settings;
    const jsm = await this.connection.jetstreamManager();
    await ensureStream(jsm, {
      name: settings.deadLetterStream,
      subjects: [this.definition.deadLetterSubject],
      maxAgeMs: settings.deadLetterMaxAgeMs ?? 30 * 24 * 3600_000,
    });
    // The publishing side ensures its stream too; a consumer that starts first (a context whose
    // producer has not run yet) must not fail for want of its subject.
    await ensureStream(jsm, { name: settings.stream, subjects: [this.definition.subject] }, true);
    await ensureDurableConsumer(jsm, settings.stream, this.definition);
    const consumer = await this.connection.jetstream().consumers.get(settings.stream, this.definition.name);
    const concurrency = settings.concurrency ?? 8;
    this.stopping = false;
    this.messages = await consumer.consume({ max_messages: concurrency * this.batchSize * 2 });
    this.loop = this.run(this.messages, new Slots(concurrency));
  }

  /** Messages per handler call: the definition's `batchSize` when the handler can take batches. */
  private get batchSize(): number {
    return this.handler.handleBatch ? Math.max(1, this.definition.batchSize ?? 1) : 1;
  }

  /** Stops pulling and waits for the messages in hand; the buffered rest is redelivered (to a replica or after restart). */
  async stop(): Promise<void> {
    if (!this.loop) return;
    this.stopping = true;
    await this.messages?.close();
    await this.loop;
    this.loop = undefined;
    this.messages = undefined;
  }

  /**
   * Pulls messages and hands them out, at most `concurrency` tasks at once. With batches, a task
   * takes what has arrived (up to `batchSize`): messages already buffered by the client come out
   * of the iterator in one turn of the event loop, so a batch closes when the iterator would wait.
   */
  private async run(messages: ConsumerMessages, slots: Slots): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    const batchSize = this.batchSize;
    let pending: JsMsg[] = [];
    let flush: NodeJS.Immediate | undefined;
    const dispatch = async (batch: JsMsg[]): Promise<void> => {
      await slots.acquire();
      if (this.stopping) {
        slots.release();
        // Handed back at once rather than after the ack wait.
        for (const message of batch) message.nak();
        return;
      }
      const task = (batch.length === 1 ? this.process(batch[0]) : this.processBatch(batch)).finally(() => {
        slots.release();
        inFlight.delete(task);
      });
      inFlight.add(task);
    };
    const take = (): JsMsg[] => {
      const batch = pending;
      pending = [];
      if (flush) clearImmediate(flush);
      flush = undefined;
      return batch;
    };
    try {
      for await (const message of messages) {
        pending.push(message);
        if (pending.length >= batchSize) await dispatch(take());
        else flush ??= setImmediate(() => void dispatch(take()));
      }
    } catch (error) {
      this.logger.error(`consumer ${this.definition.name} stopped pulling: ${describeError(error)}`);
    } finally {
      if (pending.length > 0) for (const message of take()) message.nak();
      await Promise.all(inFlight);
    }
  }

  /** One `handleBatch` call for messages that parse; when it throws, each message is processed alone (in order). */
  private async processBatch(batch: JsMsg[]): Promise<void> {
    const parsed: Array<{ message: JsMsg; consumed: ConsumedMessage }> = [];
    const alone: JsMsg[] = [];
    for (const message of batch) {
      const consumed = this.consumedOf(message);
      if (consumed) parsed.push({ message, consumed });
      else alone.push(message);
    }
    if (parsed.length > 0) {
      try {
        await (this.handler.handleBatch as NonNullable<ConsumerHandler['handleBatch']>)(parsed.map((entry) => entry.consumed));
        for (const { message } of parsed) message.ack();
      } catch (error) {
        this.logger.debug?.(`batch of ${parsed.length} not applied, one by one instead: ${describeError(error)}`);
        alone.push(...parsed.map((entry) => entry.message));
      }
    }
    for (const message of alone) await this.process(message);
  }

  /** The message as the handler sees it, or undefined when its payload is not JSON. */
  private consumedOf(message: JsMsg): ConsumedMessage | undefined {
    try {
      return { ...this.envelopeOf(message), payload: JSON.parse(this.decoder.decode(message.data)) as unknown };
    } catch {
      return undefined;
    }
  }

  private envelopeOf(message: JsMsg): ConsumedMessage {
    return {
      subject: message.subject,
      payload: undefined,
      // Without the publisher's id (not sent through an outbox), the stream position names the message.
      msgId: message.headers?.get('Nats-Msg-Id') || `${message.info.stream}:${message.seq}`,
      headers: headersOf(message),
      deliveryCount: message.info.deliveryCount,
    };
  }

  private async process(message: JsMsg): Promise<void> {
    const consumed = this.envelopeOf(message);
    try {
      consumed.payload = JSON.parse(this.decoder.decode(message.data)) as unknown;
    } catch {
      await this.deadLetter(message, consumed, 'payload is not JSON');
      return;
    }
    try {
      await this.handler.handle(consumed);
      message.ack();
    } catch (error) {
      const action = failureAction(error, consumed.deliveryCount, this.definition);
      if (action.kind === 'dead-letter') {
        await this.deadLetter(message, consumed, action.reason);
        return;
      }
      this.logger.warn(
        `${consumed.subject} ${consumed.msgId} failed (delivery ${consumed.deliveryCount}), redelivering in ${action.delayMs} ms: ${describeError(error)}`,
      );
      message.nak(action.delayMs);
    }
  }

  /** Publishes the original bytes to the dead-letter subject, then terminates the message; if that fails, it is redelivered. */
  private async deadLetter(message: JsMsg, consumed: ConsumedMessage, reason: string): Promise<void> {
    this.logger.error(`dead letter: ${consumed.subject} ${consumed.msgId} to ${this.definition.deadLetterSubject}: ${reason}`);
    const headers = natsHeaders();
    for (const [name, value] of Object.entries(deadLetterHeaders(consumed, this.definition.name, reason))) headers.set(name, value);
    try {
      await this.connection.jetstream().publish(this.definition.deadLetterSubject, message.data, {
        msgID: deadLetterMessageId(this.definition.name, consumed.msgId),
        headers,
        expect: { streamName: this.settings.deadLetterStream },
      });
      message.term();
    } catch (error) {
      this.logger.error(`could not publish the dead letter of ${consumed.msgId}, redelivering: ${describeError(error)}`);
      message.nak(5000);
    }
  }
}
