import { ArgumentsHost, Catch, ExceptionFilter, NotFoundException } from '@nestjs/common';
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

/**
 * `Retry-After` of a refusal that says when to try again (RFC 9110 §10.2.3), and `Accept-Encoding`
 * of a 415 for a body's coding (RFC 9110 §15.5.16), else no header.
 */
export function errorResponseHeaders(exception: unknown): Record<string, string> {
  if (!(exception instanceof DomainError)) return {};
  return {
    ...(exception.retryAfterSeconds !== undefined ? { 'retry-after': String(Math.ceil(exception.retryAfterSeconds)) } : {}),
    ...(exception.acceptEncoding !== undefined ? { 'accept-encoding': exception.acceptEncoding } : {}),
  };
}

/**
 * The application's one exception filter. Every error leaves as the `{msg, code, data?}`
 * envelope, except on paths for which a context registered another format in `formats`
 * (the gateway's problem details).
 */
/** What the filter asks of the router: whether a method and path have a route (Fastify's `findRoute`). */
export interface RouteFinder {
  findRoute(options: { method: string; url: string }): unknown;
}

const ROUTABLE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly formats?: ErrorFormatRegistry,
    private readonly router?: RouteFinder,
  ) {}

  /**
   * A route-not-found on a path that other methods serve is a 405 with `Allow`, not a 404: the
   * client has the right address and the wrong verb.
   */
  private methodNotAllowed(exception: unknown, request: FastifyRequest, reply: FastifyReply): unknown {
    if (!this.router || !(exception instanceof NotFoundException) || !exception.message.startsWith('Cannot ')) return exception;
    // The path as sent (`pathOf` forgives a trailing slash, routing does not): a URL no route took is
    // a 404 for every verb, never a 405 naming methods that would not take it either.
    const url = request.url.split('?', 1)[0];
    // A lookup that fills a path parameter with nothing (`/emv/` for `/emv/:id`) is no route either: routing refuses it.
    // Nor is one whose parameter the application does not serve (another gateway namespace: its guard answers 404).
    const routable = (method: string): boolean => {
      const found = this.router!.findRoute({ method, url }) as { params?: Record<string, unknown> } | null;
      const params = found?.params ?? {};
      return found !== null && Object.values(params).every((value) => value !== '') && (this.formats?.acceptsParameters(params) ?? true);
    };
    const allowed = ROUTABLE_METHODS.filter((method) => method !== request.method && routable(method));
    if (allowed.length === 0) return exception;
    void reply.header('allow', allowed.join(', '));
    return new DomainError(ErrorCode.MethodNotAllowed, `${request.method} is not allowed on this path; it takes ${allowed.join(', ')}`);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.respond(exception, http.getRequest<FastifyRequest | undefined>(), http.getResponse<FastifyReply>());
  }

  /** Answers `exception` in the format of the request's path; also for errors Fastify raises before routing. */
  respond(thrown: unknown, request: FastifyRequest | undefined, reply: FastifyReply): void {
    const exception = request ? this.methodNotAllowed(thrown, request, reply) : thrown;
    const renderer = request && this.formats?.rendererFor(pathOf(request.url));
    if (renderer) {
      const rendered = renderer(exception, request);
      // A Buffer, so Fastify sends the content type as rendered (it adds a charset to strings).
      void reply.status(rendered.status).headers(rendered.headers).header('content-type', rendered.contentType).send(Buffer.from(rendered.body, 'utf8'));
      return;
    }
    const { status, body } = toEnvelope(exception);
    void reply.status(status).headers(errorResponseHeaders(exception)).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}
