import { Logger, LoggerService } from '@nestjs/common';
import { ErrorCode, headers, Msg, NatsConnection, NatsError } from 'nats';
import { handlerErrorText, RequestHandler, RequestOptions, RequestReplyError, RequestReplyTransport, ServedSubject } from './request-reply';

/** The NATS services convention for error replies: the reply carries these headers and an empty body. */
const ERROR_HEADER = 'Nats-Service-Error';
const ERROR_CODE_HEADER = 'Nats-Service-Error-Code';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function encode(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/**
 * Core NATS request/reply (never JetStream: a stream capturing the subject would answer with a
 * PubAck). Requests and replies are JSON. A handler that throws, or a request that is not JSON,
 * is answered with an error reply (`Nats-Service-Error` headers), so the caller learns of it at
 * once instead of waiting for its deadline.
 */
export class NatsRequestReply implements RequestReplyTransport {
  private readonly logger: LoggerService;
  private readonly prefix: string;

  /**
   * `subjectPrefix` puts every subject under a namespace of its own (`<prefix>.host.authorize.v1`),
   * so that several environments or test runs share one NATS without answering each other's
   * requests; callers and responders of one namespace must use the same prefix.
   */
  constructor(
    private readonly connection: NatsConnection,
    options: { logger?: LoggerService; subjectPrefix?: string } = {},
  ) {
    this.logger = options.logger ?? new Logger('NatsRequestReply');
    this.prefix = options.subjectPrefix ? `${checkSubjectPrefix(options.subjectPrefix)}.` : '';
  }

  async request(logicalSubject: string, payload: object, options: RequestOptions): Promise<unknown> {
    const subject = this.prefix + logicalSubject;
    let reply: Msg;
    try {
      reply = await this.connection.request(subject, encode(payload), { timeout: options.timeoutMs });
    } catch (error) {
      if (error instanceof NatsError && error.code === ErrorCode.NoResponders) {
        throw new RequestReplyError('NO_RESPONDERS', subject, 'no responder serves this subject');
      }
      if (error instanceof NatsError && error.code === ErrorCode.Timeout) {
        throw new RequestReplyError('TIMEOUT', subject, `no reply within ${options.timeoutMs} ms`);
      }
      throw error;
    }
    const failure = reply.headers?.get(ERROR_HEADER);
    if (failure) throw new RequestReplyError('HANDLER_FAILED', subject, failure);
    try {
      return JSON.parse(decoder.decode(reply.data)) as unknown;
    } catch {
      throw new RequestReplyError('BAD_REPLY', subject, 'the reply is not JSON');
    }
  }

  serve(logicalSubject: string, queueGroup: string, handler: RequestHandler): ServedSubject {
    const subject = this.prefix + logicalSubject;
    const running = new Set<Promise<void>>();
    const subscription = this.connection.subscribe(subject, {
      queue: queueGroup,
      callback: (error, message) => {
        if (error) {
          this.logger.error(`subscription to ${subject} failed: ${error.message}`);
          return;
        }
        if (!message.reply) {
          // A publish is no request: nobody would see the outcome (an authorization would move money unseen).
          this.logger.warn(`${subject}: a message without a reply subject was ignored`);
          return;
        }
        const handled = this.answer(subject, message, handler);
        running.add(handled);
        void handled.finally(() => running.delete(handled));
      },
    });
    return {
      close: async () => {
        if (!subscription.isClosed()) await subscription.drain().catch(() => undefined);
        await Promise.allSettled([...running]);
      },
    };
  }

  private async answer(subject: string, message: Msg, handler: RequestHandler): Promise<void> {
    let payload: unknown;
    try {
      payload = JSON.parse(decoder.decode(message.data)) as unknown;
    } catch {
      this.respondWithError(message, 400, 'the request is not JSON');
      return;
    }
    let reply: object;
    try {
      reply = await handler(payload);
    } catch (error) {
      this.logger.error(`handler of ${subject} failed: ${handlerErrorText(error)}`);
      this.respondWithError(message, 500, handlerErrorText(error));
      return;
    }
    try {
      message.respond(encode(reply));
    } catch (error) {
      // The connection closed under us: the caller's deadline tells it.
      this.logger.warn(`could not reply on ${subject}: ${handlerErrorText(error)}`);
    }
  }

  private respondWithError(message: Msg, code: number, text: string): void {
    const errorHeaders = headers();
    errorHeaders.set(ERROR_HEADER, text.replace(/[\r\n]+/g, ' '));
    errorHeaders.set(ERROR_CODE_HEADER, String(code));
    try {
      message.respond(new Uint8Array(0), { headers: errorHeaders });
    } catch (error) {
      this.logger.warn(`could not send an error reply: ${handlerErrorText(error)}`);
    }
  }
}

/**
 * A subject prefix is one or more NATS tokens separated by dots: no empty token, no wildcard
 * (`*`, `>`), no white space. Anything else would subscribe to more, or to nothing.
 */
export function checkSubjectPrefix(prefix: string): string {
  if (!/^[^.*>\s]+(\.[^.*>\s]+)*$/.test(prefix)) {
    throw new Error(`subject prefix "${prefix}" is not a NATS subject: dot-separated tokens without white space, '*' or '>'`);
  }
  return prefix;
}
