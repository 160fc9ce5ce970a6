/**
 * Core request/reply between contexts (`host.*.v1`, `mms.device.verify-admin.v1`, …): one
 * request, one reply, a deadline. Unlike the outbox path nothing is stored: a caller that gets
 * no reply in time decides itself what that means.
 */

/** Answers one request; what it resolves to is the reply (a JSON object). Throwing sends an error reply. */
export type RequestHandler = (payload: unknown) => Promise<object>;

export interface RequestOptions {
  /** How long to wait for the reply. */
  timeoutMs: number;
}

/** A subject being served; `close()` stops taking requests and waits for the ones being handled. */
export interface ServedSubject {
  close(): Promise<void>;
}

/**
 * Request/reply in both modes: NATS core request/reply with queue groups (distributed) or in
 * memory (`standalone`). Payloads travel as JSON either way, so a handler sees the same values
 * in both.
 */
export interface RequestReplyTransport {
  /**
   * Sends `payload` to one responder of `subject` and resolves to its reply. Rejects with a
   * {@link RequestReplyError}: `TIMEOUT` (no reply in time), `NO_RESPONDERS` (nobody serves the
   * subject), `HANDLER_FAILED` (the responder's handler threw), `BAD_REPLY` (the reply is not JSON).
   */
  request(subject: string, payload: object, options: RequestOptions): Promise<unknown>;
  /**
   * Answers requests on `subject` with `handler`. Responders sharing `queueGroup` share the
   * requests: each request goes to one of them.
   */
  serve(subject: string, queueGroup: string, handler: RequestHandler): ServedSubject;
}

/** Nest injection token of the process's {@link RequestReplyTransport}. */
export const REQUEST_REPLY = Symbol('REQUEST_REPLY');

export type RequestReplyErrorCode = 'TIMEOUT' | 'NO_RESPONDERS' | 'HANDLER_FAILED' | 'BAD_REPLY';

/** Why a request got no usable reply. */
export class RequestReplyError extends Error {
  constructor(
    readonly code: RequestReplyErrorCode,
    readonly subject: string,
    detail: string,
  ) {
    super(`${subject}: ${detail}`);
    this.name = 'RequestReplyError';
  }
}

/** Longest error text a responder puts on the wire. */
export const MAX_ERROR_TEXT = 500;

/** The text a failed handler's error becomes in the error reply. */
export function handlerErrorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}…` : text;
}
