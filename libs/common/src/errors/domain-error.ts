import { ErrorCode } from './error-code';

/** An error that domain code throws; the transport decides how it looks on the wire. */
export class DomainError extends Error {
  /** Seconds until a retry may succeed (rate limits): the transport sends it as `Retry-After`. */
  retryAfterSeconds?: number;

  /** What a client must send instead (RFC 9110 §12.5.3: the codings a 415 for Content-Encoding accepts): the transport sends it as `Accept-Encoding`. */
  acceptEncoding?: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  /** 16000 (HTTP 429) with the seconds after which another try is counted again. */
  static rateLimited(message: string, retryAfterSeconds?: number): DomainError {
    const error = new DomainError(ErrorCode.RateLimited, message);
    if (retryAfterSeconds !== undefined) error.retryAfterSeconds = retryAfterSeconds;
    return error;
  }

  static validation(message: string): DomainError {
    return new DomainError(ErrorCode.Validation, message);
  }

  /** HTTP 409; `retryAfterSeconds` when the conflict ends by itself (a request in flight, a settlement under way). */
  static conflict(message: string, retryAfterSeconds?: number): DomainError {
    const error = new DomainError(ErrorCode.Conflict, message);
    if (retryAfterSeconds !== undefined) error.retryAfterSeconds = retryAfterSeconds;
    return error;
  }

  static unprocessable(message: string): DomainError {
    return new DomainError(ErrorCode.Unprocessable, message);
  }

  /** 409 `urn:softpos:problem:card-read-used`: the card read (card, ATC, cryptogram) was used by an earlier transaction. */
  static cardReadUsed(message: string): DomainError {
    return new DomainError(ErrorCode.CardReadUsed, message);
  }

  /** 503 (15000): an answer needed before writing did not come; nothing was written. */
  static unavailable(message: string): DomainError {
    return new DomainError(ErrorCode.Unavailable, message);
  }

  static notFound(message: string): DomainError {
    return new DomainError(ErrorCode.NotFound, message);
  }

  static ownerInvalid(message = 'owner info invalid'): DomainError {
    return new DomainError(ErrorCode.OwnerInvalid, message);
  }

  static unauthenticated(message: string): DomainError {
    return new DomainError(ErrorCode.Unauthenticated, message);
  }
}
