import { DomainError, ErrorCode } from '@app/common';
import { GatewayRefusalV1 } from '@app/contracts';

/**
 * The gateway's refusals of follow-ups and settlements (`GatewayRefusalV1`) and its domain errors
 * are one vocabulary: NATS replies carry the refusal, and every HTTP route that relays one (the
 * gateway's own follow-ups, the transactions context's `/api/v2` order actions and settle) turns
 * it back into the error its answer shows, in that route's format, with `Retry-After` when the
 * refusal says when to try again (a terminal held by a settlement, requests still in flight).
 * Both directions are exhaustive, so no transport can drift.
 */

/** The refusal a domain error is, or undefined for codes no request is refused with (those are failures, not refusals). */
export function refusalOf(error: DomainError): GatewayRefusalV1 | undefined {
  const status = refusalStatusOf(error.code);
  if (status === undefined) return undefined;
  const refusal: GatewayRefusalV1 = { status, detail: error.message.slice(0, 512) };
  if (error.retryAfterSeconds !== undefined) refusal.retryAfterSeconds = Math.max(1, Math.ceil(error.retryAfterSeconds));
  return refusal;
}

function refusalStatusOf(code: ErrorCode): GatewayRefusalV1['status'] | undefined {
  switch (code) {
    case ErrorCode.Validation:
      return 400;
    case ErrorCode.OwnerInvalid:
      return 403;
    case ErrorCode.NotFound:
      return 404;
    case ErrorCode.Conflict:
    case ErrorCode.CardReadUsed:
      return 409;
    case ErrorCode.Unprocessable:
      return 422;
    case ErrorCode.Upstream:
      return 502;
    case ErrorCode.UpstreamTimeout:
      return 504;
    case ErrorCode.PayloadTooLarge:
    case ErrorCode.UnsupportedMediaType:
    case ErrorCode.HeadersTooLarge:
    case ErrorCode.RequestTimeout:
    case ErrorCode.ExpectationFailed:
    case ErrorCode.Unauthenticated:
    case ErrorCode.RateLimited:
    case ErrorCode.MethodNotAllowed:
    case ErrorCode.Unavailable:
    case ErrorCode.Internal:
      return undefined;
    default: {
      const unreachable: never = code;
      throw new Error(`unmapped error code ${String(unreachable)}`);
    }
  }
}

/**
 * The domain error a refusal stands for (what HTTP answers with the refusal's status: problem
 * details on the gateway, the envelope on `/api/v2`), carrying its retry delay, which the
 * exception filter sends as `Retry-After`.
 */
export function errorOfRefusal(refusal: GatewayRefusalV1): DomainError {
  const error = domainErrorOf(refusal);
  if (refusal.retryAfterSeconds !== undefined) error.retryAfterSeconds = refusal.retryAfterSeconds;
  return error;
}

function domainErrorOf(refusal: GatewayRefusalV1): DomainError {
  switch (refusal.status) {
    case 400:
      return DomainError.validation(refusal.detail);
    case 403:
      return DomainError.ownerInvalid(refusal.detail);
    case 404:
      return DomainError.notFound(refusal.detail);
    case 409:
      return DomainError.conflict(refusal.detail);
    case 422:
      return DomainError.unprocessable(refusal.detail);
    case 502:
      return new DomainError(ErrorCode.Upstream, refusal.detail);
    case 504:
      return new DomainError(ErrorCode.UpstreamTimeout, refusal.detail);
    default: {
      const unreachable: never = refusal.status;
      throw new Error(`unmapped refusal status ${String(unreachable)}`);
    }
  }
}

/** Runs `act`; a domain error that is a refusal becomes `refused(refusal)` instead of being thrown. */
export async function refusingWith<T>(act: () => Promise<T>, refused: (refusal: GatewayRefusalV1) => T): Promise<T> {
  try {
    return await act();
  } catch (error) {
    const refusal = error instanceof DomainError ? refusalOf(error) : undefined;
    if (refusal) return refused(refusal);
    throw error;
  }
}
