import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError, ErrorCode } from '../errors';

interface ErrorWithStatus {
  statusCode?: number;
  message?: string;
}

const logger = new Logger('Errors');

/** What a body of another media type than JSON is told (415, code 10000), whatever it was. */
export const UNSUPPORTED_MEDIA_TYPE_MESSAGE = 'the request body must be JSON, sent with Content-Type: application/json';

/** What an encoded body is told (415, code 10000; RFC 9110 §8.4): bodies are never decoded, whatever the coding named. */
export const UNSUPPORTED_CONTENT_ENCODING_MESSAGE = 'the request body must not be encoded: send it without Content-Encoding (or with identity)';

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
  if (status === HttpStatus.UNSUPPORTED_MEDIA_TYPE) return ErrorCode.UnsupportedMediaType;
  if (status === HttpStatus.TOO_MANY_REQUESTS) return ErrorCode.RateLimited;
  if (status === HttpStatus.CONFLICT) return ErrorCode.Conflict;
  if (status >= 400 && status < 500) return ErrorCode.Validation;
  return ErrorCode.Internal;
}

interface PgDriverError {
  code?: unknown;
  detail?: unknown;
}

/**
 * What a PostgreSQL refusal that a concurrent change caused means to a client, in one place for
 * every service (docs/decisions.md, "Write skew"): a foreign key whose parent is gone is 404, one
 * whose row is still referenced is 409, a unique violation, a serialisation failure or a deadlock
 * is 409. Services name the constraints they expect with better words first; this is the floor
 * under them, so a race a lock does not cover is a refusal, never a 500. Logged, because it
 * shows such a race.
 */
function constraintRefusal(exception: unknown): ClassifiedError | undefined {
  if (!exception || typeof exception !== 'object') return undefined;
  const pg = ((exception as { driverError?: PgDriverError }).driverError ?? exception) as PgDriverError;
  const detail = typeof pg.detail === 'string' ? pg.detail : '';
  const what = (table: string, key?: string) => `${table.replace(/_/g, ' ')}${key ? ` ${key}` : ''}`;
  let refusal: ClassifiedError | undefined;
  if (pg.code === '23503') {
    const gone = /^Key \([^)]*\)=\(([^)]*)\) is not present in table "([^"]+)"/.exec(detail);
    const used = /is still referenced from table "([^"]+)"/.exec(detail);
    if (gone) refusal = { code: ErrorCode.NotFound, message: `${what(gone[2], gone[1])} does not exist (it was deleted meanwhile)` };
    else if (used) refusal = { code: ErrorCode.Conflict, message: `the object is still used by a ${what(used[1])} (one was added meanwhile)` };
  } else if (pg.code === '23505') {
    refusal = { code: ErrorCode.Conflict, message: 'an object with these values was created meanwhile' };
  } else if (pg.code === '40001' || pg.code === '40P01') {
    refusal = { code: ErrorCode.Conflict, message: 'a concurrent change got in the way; try again' };
  }
  if (refusal) logger.warn(`constraint refusal ${String(pg.code)}: ${detail}`);
  return refusal;
}

/**
 * Classifies anything thrown while serving a request, whatever the wire format: domain errors
 * keep their code and message; the framework's own 4xx errors (routing, body parsing, size)
 * become the matching domain code; PostgreSQL's refusals of a write a concurrent change made
 * impossible become 404 or 409 ({@link constraintRefusal}); everything else is unexpected, logged under `errorId` with
 * its stack, and answered only with that id (never the error's own text).
 */
export function classifyError(exception: unknown, errorId: () => string = randomUUID): ClassifiedError {
  if (exception instanceof DomainError) return { code: exception.code, message: exception.message };
  // One text, whichever layer refused the Content-Type (Fastify's own text names the one the client sent).
  const status = exception instanceof HttpException ? exception.getStatus() : (exception as ErrorWithStatus | undefined)?.statusCode;
  if (status === HttpStatus.UNSUPPORTED_MEDIA_TYPE) return { code: ErrorCode.UnsupportedMediaType, message: UNSUPPORTED_MEDIA_TYPE_MESSAGE };
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
  const refusal = constraintRefusal(exception);
  if (refusal) return refusal;
  const withStatus = exception as ErrorWithStatus | undefined;
  if (withStatus && typeof withStatus.statusCode === 'number' && withStatus.statusCode >= 400 && withStatus.statusCode < 500) {
    return { code: codeOfStatus(withStatus.statusCode), message: withStatus.message ?? 'request failed' };
  }
  const id = errorId();
  logger.error(`unexpected error ${id}`, exception instanceof Error ? exception.stack : String(exception));
  return { code: ErrorCode.Internal, message: `unexpected error, id ${id}` };
}
