import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError, ErrorCode } from '../errors';

interface ErrorWithStatus {
  statusCode?: number;
  message?: string;
}

const logger = new Logger('Errors');

/** What any error means to a client: a domain code and a message that is safe to show. */
export interface ClassifiedError {
  code: ErrorCode;
  message: string;
}

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

/**
 * Classifies anything thrown while serving a request, whatever the wire format: domain errors
 * keep their code and message; the framework's own 4xx errors (routing, body parsing, size)
 * become the matching domain code; everything else is unexpected, logged under `errorId` with
 * its stack, and answered only with that id (never the error's own text).
 */
export function classifyError(exception: unknown, errorId: () => string = randomUUID): ClassifiedError {
  if (exception instanceof DomainError) return { code: exception.code, message: exception.message };
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
            ? (response as { message: string }).message
            : exception.message;
    if (code !== ErrorCode.Internal) return { code, message };
  }
  const withStatus = exception as ErrorWithStatus | undefined;
  if (withStatus && typeof withStatus.statusCode === 'number' && withStatus.statusCode >= 400 && withStatus.statusCode < 500) {
    return { code: codeOfStatus(withStatus.statusCode), message: withStatus.message ?? 'request failed' };
  }
  const id = errorId();
  logger.error(`unexpected error ${id}`, exception instanceof Error ? exception.stack : String(exception));
  return { code: ErrorCode.Internal, message: `unexpected error, id ${id}` };
}
