import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, ApiResponseOptions, getSchemaPath } from '@nestjs/swagger';
import { envelopeErrorOf, ErrorCode } from '../errors';
import { classifyError } from './classify-error';
import { errorResponseHeaders } from './envelope-exception.filter';
import { ErrorRenderer, RenderedError } from './error-formats';
import { requestIdOf, SERVICE_REQUEST_ID_HEADER } from './request-id';

/** Media type of an RFC 9457 problem document. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** An RFC 9457 problem document, with the request id as an extension member. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  requestId: string;
}

/** OpenAPI shape of a {@link ProblemDetails} document. */
export class ProblemDetailsDto implements ProblemDetails {
  @ApiProperty({ example: 'urn:softpos:problem:not-found', description: 'URN naming the kind of problem (not dereferenceable)' })
  type: string;

  @ApiProperty({ example: 'Not found', description: 'short summary of the kind of problem; the same for every occurrence' })
  title: string;

  @ApiProperty({ example: 404 })
  status: number;

  @ApiProperty({ example: 'profile prof_Xq3… does not exist', description: 'what went wrong with this request; names the field for validation failures' })
  detail: string;

  @ApiProperty({ example: 'req_6Qe2mG1cR7yT0pV9sB4nJw', description: 'the x-service-request-id of the response' })
  requestId: string;
}

/** The problem type of each error code: the one exhaustive mapping of this wire format. */
export function problemTypeOf(code: ErrorCode): { type: string; title: string } {
  switch (code) {
    case ErrorCode.Validation:
      return { type: 'urn:softpos:problem:invalid-request', title: 'Invalid request' };
    case ErrorCode.Conflict:
      return { type: 'urn:softpos:problem:conflict', title: 'Conflict' };
    case ErrorCode.Unprocessable:
      return { type: 'urn:softpos:problem:unprocessable', title: 'Unprocessable request' };
    case ErrorCode.CardReadUsed:
      return { type: 'urn:softpos:problem:card-read-used', title: 'Card read already used' };
    case ErrorCode.PayloadTooLarge:
      return { type: 'urn:softpos:problem:payload-too-large', title: 'Payload too large' };
    case ErrorCode.UnsupportedMediaType:
      return { type: 'urn:softpos:problem:unsupported-media-type', title: 'Unsupported media type' };
    case ErrorCode.HeadersTooLarge:
      return { type: 'urn:softpos:problem:headers-too-large', title: 'Request headers too large' };
    case ErrorCode.RequestTimeout:
      return { type: 'urn:softpos:problem:request-timeout', title: 'Request timed out' };
    case ErrorCode.ExpectationFailed:
      return { type: 'urn:softpos:problem:expectation-failed', title: 'Expectation failed' };
    case ErrorCode.Unauthenticated:
      return { type: 'urn:softpos:problem:unauthenticated', title: 'Unauthenticated' };
    case ErrorCode.OwnerInvalid:
      return { type: 'urn:softpos:problem:forbidden', title: 'Forbidden' };
    case ErrorCode.NotFound:
      return { type: 'urn:softpos:problem:not-found', title: 'Not found' };
    case ErrorCode.Upstream:
      return { type: 'urn:softpos:problem:upstream-failed', title: 'Upstream failed' };
    case ErrorCode.UpstreamTimeout:
      return { type: 'urn:softpos:problem:upstream-timeout', title: 'Upstream timed out' };
    case ErrorCode.Unavailable:
      return { type: 'urn:softpos:problem:unavailable', title: 'Service unavailable' };
    case ErrorCode.MethodNotAllowed:
      return { type: 'urn:softpos:problem:method-not-allowed', title: 'Method not allowed' };
    case ErrorCode.RateLimited:
      return { type: 'urn:softpos:problem:rate-limited', title: 'Too many requests' };
    case ErrorCode.Internal:
      return { type: 'urn:softpos:problem:internal', title: 'Internal error' };
    default: {
      const unreachable: never = code;
      throw new Error(`unmapped error code ${String(unreachable)}`);
    }
  }
}

/** Turns any error into a problem document for the request `requestId`; unexpected errors are logged under that id. */
export function toProblemDetails(exception: unknown, requestId: string): ProblemDetails {
  const { code, message } = classifyError(exception, () => requestId);
  const { type, title } = problemTypeOf(code);
  return { type, title, status: envelopeErrorOf(code).status, detail: message, requestId };
}

/**
 * Renders errors as RFC 9457 problem details (`application/problem+json`) with the request's
 * {@link SERVICE_REQUEST_ID_HEADER}; a 401 also carries `WWW-Authenticate: Bearer` (RFC 6750).
 */
export const renderProblemDetails: ErrorRenderer = (exception, request): RenderedError => {
  const requestId = requestIdOf(request);
  const problem = toProblemDetails(exception, requestId);
  const headers: Record<string, string> = { [SERVICE_REQUEST_ID_HEADER]: requestId, ...errorResponseHeaders(exception) };
  if (problem.status === 401) headers['www-authenticate'] = 'Bearer';
  return { status: problem.status, contentType: PROBLEM_CONTENT_TYPE, headers, body: JSON.stringify(problem) };
};

/**
 * Documents an error answer as it leaves: an RFC 9457 problem document under
 * `application/problem+json` (not `application/json`, which `ApiResponse({type})` would say).
 */
export function ApiProblem(options: { status: number; description: string; headers?: ApiResponseOptions['headers'] }): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDetailsDto),
    ApiResponse({
      status: options.status,
      description: options.description,
      ...(options.headers ? { headers: options.headers } : {}),
      content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: getSchemaPath(ProblemDetailsDto) } } },
    }),
  );
}
