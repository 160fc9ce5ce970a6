import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { secureRandomBytes } from '../random/secure-random';

/** Response header that names the request (`req_<id>`), on successes and errors alike. */
export const SERVICE_REQUEST_ID_HEADER = 'x-service-request-id';

/** A new request id: `req_` and 16 random bytes, base64url. */
export function newRequestId(): string {
  return `req_${secureRandomBytes(16).toString('base64url')}`;
}

const requestIds = new WeakMap<object, string>();

/**
 * The id of one request, made on first use: the interceptor (successes) and the error renderer
 * (failures, including those raised before any interceptor ran) then agree on it.
 */
export function requestIdOf(request: object): string {
  let id = requestIds.get(request);
  if (!id) {
    id = newRequestId();
    requestIds.set(request, id);
  }
  return id;
}

/** The handler's parameter: the id of the request it serves, as its {@link SERVICE_REQUEST_ID_HEADER} shows it. */
export const ServiceRequestId = createParamDecorator((_data: unknown, context: ExecutionContext): string => requestIdOf(context.switchToHttp().getRequest<object>()));

/**
 * Puts {@link SERVICE_REQUEST_ID_HEADER} on every response of the routes it guards, and refuses
 * nothing: a guard, not an interceptor, because Nest runs a route's guards as plain calls, while
 * one interceptor puts the handler's every call through rxjs (defer, mergeAll, AsyncResource.bind)
 * that nothing else on the route needs (docs/decisions.md, "bench:sale: per-request layers"). Put
 * last among a route's guards, it sets the header where the interceptor did: after the other
 * guards let the request through and before the handler runs; answers refused earlier get it
 * from the error renderer, with the same id ({@link requestIdOf}).
 */
@Injectable()
export class ServiceRequestIdGuard implements CanActivate {
  canActivate(context: ExecutionContext): true {
    const http = context.switchToHttp();
    http.getResponse<FastifyReply>().header(SERVICE_REQUEST_ID_HEADER, requestIdOf(http.getRequest<object>()));
    return true;
  }
}
