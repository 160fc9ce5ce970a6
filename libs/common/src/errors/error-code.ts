/**
 * Error codes of the response envelope (`docs/decisions.md`, "Envelope error codes").
 * Domain code throws {@link DomainError} with one of these; only the transport filter turns it
 * into HTTP.
 */
export enum ErrorCode {
  /** Malformed or invalid input; `msg` names the field. HTTP 400. */
  Validation = 'VALIDATION',
  /** Business-rule conflict (bind conflict, object in use, duplicate name). HTTP 409, code 10000. */
  Conflict = 'CONFLICT',
  /** The request repeats an earlier one's key with another content (an Idempotency-Key reused for another body). HTTP 422, code 10000. */
  Unprocessable = 'UNPROCESSABLE',
  /** A single-use credential presented again: a card read (card, ATC, cryptogram) an earlier transaction used. HTTP 409, code 10000. */
  CardReadUsed = 'CARD_READ_USED',
  /** Body larger than the limit. HTTP 413, code 10000. */
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  /** A body whose Content-Type the operation does not take (only JSON is). HTTP 415, code 10000. */
  UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE',
  /** Request line and headers larger than the HTTP server takes. HTTP 431, code 10000. */
  HeadersTooLarge = 'HEADERS_TOO_LARGE',
  /** The request did not arrive completely in the HTTP server's time. HTTP 408, code 10000. */
  RequestTimeout = 'REQUEST_TIMEOUT',
  /** An `Expect` header asking for something other than `100-continue`, which the server does not do. HTTP 417, code 10000. */
  ExpectationFailed = 'EXPECTATION_FAILED',
  /** Missing, malformed, expired or wrongly signed token. HTTP 401. */
  Unauthenticated = 'UNAUTHENTICATED',
  /** The object exists but belongs to another PBO or merchant. HTTP 403. */
  OwnerInvalid = 'OWNER_INVALID',
  /** The object does not exist. HTTP 404. */
  NotFound = 'NOT_FOUND',
  /** A downstream context or the acquirer host failed. HTTP 502. */
  Upstream = 'UPSTREAM',
  /** A downstream context or the acquirer host timed out. HTTP 504. */
  UpstreamTimeout = 'UPSTREAM_TIMEOUT',
  /** A context the request needs an answer from before anything is written did not give one (nothing written; try again). HTTP 503, code 15000. */
  Unavailable = 'UNAVAILABLE',
  /** A known path asked with a method it does not take; the response's `Allow` header lists those it does. HTTP 405, code 10000. */
  MethodNotAllowed = 'METHOD_NOT_ALLOWED',
  /** Too many requests. HTTP 429. */
  RateLimited = 'RATE_LIMITED',
  /** Anything else. HTTP 500; the message carries an error id that is in the log. */
  Internal = 'INTERNAL',
}

export interface EnvelopeError {
  /** Numeric code in the envelope. */
  code: number;
  /** HTTP status. */
  status: number;
}

/** The one exhaustive mapping from domain error code to envelope code and HTTP status. */
export function envelopeErrorOf(code: ErrorCode): EnvelopeError {
  switch (code) {
    case ErrorCode.Validation:
      return { code: 10000, status: 400 };
    case ErrorCode.Conflict:
      return { code: 10000, status: 409 };
    case ErrorCode.Unprocessable:
      return { code: 10000, status: 422 };
    case ErrorCode.CardReadUsed:
      return { code: 10000, status: 409 };
    case ErrorCode.PayloadTooLarge:
      return { code: 10000, status: 413 };
    case ErrorCode.UnsupportedMediaType:
      return { code: 10000, status: 415 };
    case ErrorCode.HeadersTooLarge:
      return { code: 10000, status: 431 };
    case ErrorCode.RequestTimeout:
      return { code: 10000, status: 408 };
    case ErrorCode.ExpectationFailed:
      return { code: 10000, status: 417 };
    case ErrorCode.Unauthenticated:
      return { code: 11000, status: 401 };
    case ErrorCode.OwnerInvalid:
      return { code: 13000, status: 403 };
    case ErrorCode.NotFound:
      return { code: 14000, status: 404 };
    case ErrorCode.Upstream:
      return { code: 15000, status: 502 };
    case ErrorCode.UpstreamTimeout:
      return { code: 15000, status: 504 };
    case ErrorCode.Unavailable:
      return { code: 15000, status: 503 };
    case ErrorCode.MethodNotAllowed:
      return { code: 10000, status: 405 };
    case ErrorCode.RateLimited:
      return { code: 16000, status: 429 };
    case ErrorCode.Internal:
      return { code: 50000, status: 500 };
    default: {
      const unreachable: never = code;
      throw new Error(`unmapped error code ${String(unreachable)}`);
    }
  }
}
