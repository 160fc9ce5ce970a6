import { ClientProxy, ReadPacket, WritePacket } from '@nestjs/microservices';
import { lastValueFrom, throwError, timeout } from 'rxjs';
import { RequestReplyError, RequestReplyTransport } from '../request/request-reply';

/** Nest injection token of the process's request/reply {@link ClientProxy} (a {@link RequestReplyClient}). */
export const MESSAGING_CLIENT = Symbol('MESSAGING_CLIENT');

/** The longest a request waits at the transport when the caller's own deadline (rxjs `timeout`) does not end it first. */
export const MAX_REQUEST_TIMEOUT_MS = 120_000;

/**
 * A Nest {@link ClientProxy} over the process's {@link RequestReplyTransport}: `send(subject,
 * payload)` sends the payload as the contract's plain JSON and emits the reply, or errors with a
 * {@link RequestReplyError} (`NO_RESPONDERS` at once when nobody serves the subject,
 * `HANDLER_FAILED` with the responder's error text, `BAD_REPLY`). Nest's NATS client cannot do
 * this (docs/decisions.md, "Messaging through @nestjs/microservices"). Events are never emitted
 * here: they leave through the outbox.
 */
export class RequestReplyClient extends ClientProxy {
  constructor(private readonly transport: RequestReplyTransport) {
    super();
  }

  connect(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {
    // The transport belongs to the messaging module, which closes it.
  }

  unwrap<T>(): T {
    return this.transport as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    let listening = true;
    const subject = this.normalizePattern(packet.pattern);
    this.transport.request(subject, packet.data as object, { timeoutMs: MAX_REQUEST_TIMEOUT_MS }).then(
      (response) => listening && callback({ response, isDisposed: true }),
      (err: unknown) => listening && callback({ err, isDisposed: true }),
    );
    // Unsubscribing (the caller's deadline) only stops listening: the reply, if any, is dropped.
    return () => {
      listening = false;
    };
  }

  protected dispatchEvent(packet: ReadPacket): Promise<never> {
    return Promise.reject(new Error(`${this.normalizePattern(packet.pattern)}: events are published through the outbox (OutboxWriter), never emitted`));
  }
}

/**
 * One request through a {@link ClientProxy} with a deadline: the reply (not yet validated: decode
 * it against its contract), or a {@link RequestReplyError} — `TIMEOUT` when no reply came within
 * `timeoutMs`.
 */
export function requestWithDeadline(client: ClientProxy, subject: string, payload: object, timeoutMs: number): Promise<unknown> {
  return lastValueFrom(
    client.send<unknown, object>(subject, payload).pipe(
      timeout({ first: timeoutMs, with: () => throwError(() => new RequestReplyError('TIMEOUT', subject, `no reply within ${timeoutMs} ms`)) }),
    ),
  );
}
