import { BaseRpcContext, CustomTransportStrategy, MessageHandler, Server } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { RequestReplyTransport, ServedSubject } from '../request/request-reply';

/** What a `@MessagePattern` handler gets as `@Ctx()`: the subject it answers. */
export class RequestContext extends BaseRpcContext<[string]> {
  getSubject(): string {
    return this.args[0];
  }
}

/** The extras of a `@MessagePattern(subject, { queue })`: the queue group the app's replicas share. */
export interface RequestPatternExtras {
  queue: string;
}

/**
 * The request/reply transport strategy: every `@MessagePattern(subject, { queue })` handler of
 * the application answers `subject` in its queue group over the process's
 * {@link RequestReplyTransport} (core NATS, or in memory in `standalone`). The wire is the
 * contract's own JSON, both ways: no Nest envelope, so any NATS client can call (the benchmarks
 * do), and a handler's error goes back as the error reply of today (`Nats-Service-Error`
 * headers, docs/decisions.md). Started by `MessagingModule` at application bootstrap; see
 * `connectMessaging`.
 */
export class RequestReplyServer extends Server implements CustomTransportStrategy {
  private served: Array<{ queue: string; subject: ServedSubject }> = [];
  private listening = false;

  constructor(private readonly transport: RequestReplyTransport) {
    super();
  }

  listen(callback: (error?: unknown) => void): void {
    try {
      this.start();
      callback();
    } catch (error) {
      callback(error);
    }
  }

  /** Serves every request handler (idempotent); serves none when one of them is refused. */
  start(): void {
    if (this.listening) return;
    const served: Array<{ queue: string; subject: ServedSubject }> = [];
    try {
      for (const [subject, handler] of this.messageHandlers) {
        if (handler.isEventHandler) continue;
        const queue = (handler.extras as Partial<RequestPatternExtras> | undefined)?.queue;
        if (!queue) {
          throw new Error(`@MessagePattern('${subject}') names no queue group ({ queue: '…' }): every replica would answer each request`);
        }
        served.push({ queue, subject: this.transport.serve(subject, queue, (payload) => this.invoke(subject, handler, payload)) });
      }
    } catch (error) {
      for (const entry of served) void entry.subject.close();
      throw error;
    }
    this.served = served;
    this.listening = true;
  }

  /**
   * Stops taking requests and waits for those being answered (idempotent). With `queue`, only the
   * subjects served in that queue group: a context stopping before the others (host-connector,
   * before its workers) closes its own.
   */
  async close(queue?: string): Promise<void> {
    const closing = this.served.filter((entry) => queue === undefined || entry.queue === queue);
    this.served = this.served.filter((entry) => !closing.includes(entry));
    if (queue === undefined) this.listening = false;
    await Promise.all(closing.map((entry) => entry.subject.close()));
  }

  on(): void {
    // No events of its own: the transport underneath logs its failures.
  }

  unwrap<T>(): T {
    return this.transport as T;
  }

  private async invoke(subject: string, handler: MessageHandler, payload: unknown): Promise<object> {
    const reply: unknown = await lastValueFrom(this.transformToObservable(await handler(payload, new RequestContext([subject]))), { defaultValue: undefined });
    if (typeof reply !== 'object' || reply === null) throw new Error(`the handler of ${subject} returned no JSON object`);
    return reply;
  }
}
