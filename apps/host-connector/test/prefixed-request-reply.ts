import { RequestHandler, RequestOptions, RequestReplyTransport, ServedSubject } from '@app/messaging';

/**
 * A request/reply transport that serves and asks every subject under a prefix, so that a test or a
 * benchmark on a shared NATS server neither takes nor loses requests to other connectors answering
 * `host.*` in the same queue group (same queue group, same handler, only the subject differs).
 */
export class PrefixedRequestReply implements RequestReplyTransport {
  constructor(
    private readonly inner: RequestReplyTransport,
    private readonly prefix: string,
  ) {}

  request(subject: string, payload: object, options: RequestOptions): Promise<unknown> {
    return this.inner.request(`${this.prefix}.${subject}`, payload, options);
  }

  serve(subject: string, queueGroup: string, handler: RequestHandler): ServedSubject {
    return this.inner.serve(`${this.prefix}.${subject}`, queueGroup, handler);
  }
}
