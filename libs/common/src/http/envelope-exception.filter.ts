import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ErrorCode, envelopeErrorOf } from '../errors';
import { classifyError } from './classify-error';
import { Envelope } from './envelope';
import { ErrorFormatRegistry, pathOf } from './error-formats';

/** Turns any error into the `{msg, code, data?}` envelope and the matching HTTP status. */
export function toEnvelope(exception: unknown): { status: number; body: Envelope<unknown> } {
  const { code, message } = classifyError(exception);
  const mapped = envelopeErrorOf(code);
  const body: Envelope<unknown> = { msg: message, code: mapped.code };
  if (code === ErrorCode.Unauthenticated) body.data = 401;
  return { status: mapped.status, body };
}

/** `Retry-After` of a refusal that says when to try again (RFC 9110 §10.2.3), else no header. */
export function retryAfterHeader(exception: unknown): Record<string, string> {
  return exception instanceof DomainError && exception.retryAfterSeconds !== undefined ? { 'retry-after': String(Math.ceil(exception.retryAfterSeconds)) } : {};
}

/**
 * The application's one exception filter. Every error leaves as the `{msg, code, data?}`
 * envelope, except on paths for which a context registered another format in `formats`
 * (the gateway's problem details).
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(private readonly formats?: ErrorFormatRegistry) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest | undefined>();
    const renderer = request && this.formats?.rendererFor(pathOf(request.url));
    if (renderer) {
      const rendered = renderer(exception, request);
      // A Buffer, so Fastify sends the content type as rendered (it adds a charset to strings).
      void reply.status(rendered.status).headers(rendered.headers).header('content-type', rendered.contentType).send(Buffer.from(rendered.body, 'utf8'));
      return;
    }
    const { status, body } = toEnvelope(exception);
    void reply.status(status).headers(retryAfterHeader(exception)).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}
