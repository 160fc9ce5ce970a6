import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { DomainError, ErrorCode, envelopeErrorOf } from '../errors';
import { Envelope } from './envelope';

interface ErrorWithStatus {
  statusCode?: number;
  message?: string;
}

const logger = new Logger('Errors');

/** Maps an HTTP status that the framework produced (routing, body parsing) to a domain code. */
function codeOfStatus(status: number): ErrorCode {
  if (status === HttpStatus.NOT_FOUND) return ErrorCode.NotFound;
  if (status === HttpStatus.UNAUTHORIZED) return ErrorCode.Unauthenticated;
  if (status === HttpStatus.FORBIDDEN) return ErrorCode.OwnerInvalid;
  if (status === HttpStatus.PAYLOAD_TOO_LARGE) return ErrorCode.PayloadTooLarge;
  if (status === HttpStatus.TOO_MANY_REQUESTS) return ErrorCode.RateLimited;
  if (status === HttpStatus.CONFLICT) return ErrorCode.Conflict;
  if (status >= 400 && status < 500) return ErrorCode.Validation;
  return ErrorCode.Internal;
}

/** Turns any error into the `{msg, code, data?}` envelope and the matching HTTP status. */
export function toEnvelope(exception: unknown): { status: number; body: Envelope<unknown> } {
  if (exception instanceof DomainError) {
    const mapped = envelopeErrorOf(exception.code);
    const body: Envelope<unknown> = { msg: exception.message, code: mapped.code };
    if (exception.code === ErrorCode.Unauthenticated) body.data = 401;
    return { status: mapped.status, body };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = codeOfStatus(status);
    const response = exception.getResponse();
    const message =
      status === HttpStatus.NOT_FOUND
        ? 'no such endpoint'
        : typeof response === 'string'
          ? response
          : typeof (response as { message?: unknown }).message === 'string'
            ? ((response as { message: string }).message)
            : exception.message;
    if (code !== ErrorCode.Internal) return toEnvelope(new DomainError(code, message));
  }
  const withStatus = exception as ErrorWithStatus | undefined;
  if (withStatus && typeof withStatus.statusCode === 'number' && withStatus.statusCode >= 400 && withStatus.statusCode < 500) {
    return toEnvelope(new DomainError(codeOfStatus(withStatus.statusCode), withStatus.message ?? 'request failed'));
  }
  const errorId = randomUUID();
  logger.error(`unexpected error ${errorId}`, exception instanceof Error ? exception.stack : String(exception));
  const mapped = envelopeErrorOf(ErrorCode.Internal);
  return { status: mapped.status, body: { msg: `unexpected error, id ${errorId}`, code: mapped.code } };
}

/** The envelope transport's one filter: every error leaves as `{msg, code, data?}`. */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body } = toEnvelope(exception);
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}
