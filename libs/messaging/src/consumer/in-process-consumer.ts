import { Logger, LoggerService } from '@nestjs/common';
import { InProcessMessage, InProcessTransport } from '../transport/in-process-transport';
import {
  ConsumedMessage,
  ConsumerDefinition,
  ConsumerHandler,
  deadLetterHeaders,
  deadLetterMessageId,
  describeError,
  failureAction,
  MessageConsumer,
} from './consumer-definition';

export interface InProcessConsumerOptions {
  logger?: LoggerService;
  /** How long `stop()` waits for accepted messages to be handled. Default 5 s. */
  drainTimeoutMs?: number;
}

/**
 * A {@link ConsumerDefinition} on the {@link InProcessTransport} of `standalone`: same handler,
 * same dead letters as on JetStream. Redelivery and its back-off are the transport's; a poison
 * message, or one that failed `maxDeliveries` times, is published on the dead-letter subject of
 * the same transport (and logged) instead of being thrown back.
 */
export class InProcessConsumer implements MessageConsumer {
  private unsubscribe: (() => void) | undefined;
  private readonly logger: LoggerService;
  private readonly drainTimeoutMs: number;

  constructor(
    private readonly transport: InProcessTransport,
    private readonly definition: ConsumerDefinition,
    private readonly handler: ConsumerHandler,
    options: InProcessConsumerOptions = {},
  ) {
    this.logger = options.logger ?? new Logger(`Consumer:${definition.name}`);
    this.drainTimeoutMs = options.drainTimeoutMs ?? 5000;
  }

  start(): Promise<void> {
    const { handleBatch } = this.handler;
    const size = this.definition.batchSize ?? 1;
    const batch = handleBatch && size > 1 ? { size, handler: (messages: InProcessMessage[]) => handleBatch.call(this.handler, messages) } : undefined;
    this.unsubscribe ??= this.transport.subscribe(this.definition.subject, (message) => this.receive(message), this.definition.name, { batch });
    return Promise.resolve();
  }

  /** Waits (bounded) for the transport to hand out what it accepted, then unsubscribes. */
  async stop(): Promise<void> {
    if (!this.unsubscribe) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.transport.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, this.drainTimeoutMs)))]);
    clearTimeout(timer);
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private async receive(received: InProcessMessage): Promise<void> {
    const message: ConsumedMessage = { ...received };
    try {
      await this.handler.handle(message);
    } catch (error) {
      const action = failureAction(error, message.deliveryCount, this.definition);
      if (action.kind === 'retry') {
        this.logger.warn(`${message.subject} ${message.msgId} failed (delivery ${message.deliveryCount}), redelivering: ${describeError(error)}`);
        // Thrown back: the transport redelivers it later, with its own back-off.
        throw error;
      }
      await this.deadLetter(message, action.reason);
    }
  }

  private async deadLetter(message: ConsumedMessage, reason: string): Promise<void> {
    this.logger.error(`dead letter: ${message.subject} ${message.msgId} to ${this.definition.deadLetterSubject}: ${reason}`);
    const payload = typeof message.payload === 'object' && message.payload !== null ? message.payload : { payload: message.payload };
    try {
      await this.transport.publish(this.definition.deadLetterSubject, payload, {
        msgId: deadLetterMessageId(this.definition.name, message.msgId),
        headers: deadLetterHeaders(message, this.definition.name, reason),
      });
    } catch (error) {
      // The transport is closing: the dead letter stays in the log only.
      this.logger.error(`could not publish the dead letter of ${message.msgId}: ${describeError(error)}`);
    }
  }
}
