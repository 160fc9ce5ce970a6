import { CallHandler, createParamDecorator, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';
import { Observable } from 'rxjs';

/** Response header that names the request (`req_<id>`), on successes and errors alike. */
export const SERVICE_REQUEST_ID_HEADER = 'x-service-request-id';

/** A new request id: `req_` and 16 random bytes, base64url. */
export function newRequestId(): string {
  return `req_${randomBytes(16).toString('base64url')}`;
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

/** Puts {@link SERVICE_REQUEST_ID_HEADER} on every response of the routes it decorates. */
@Injectable()
export class ServiceRequestIdInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    http.getResponse<FastifyReply>().header(SERVICE_REQUEST_ID_HEADER, requestIdOf(http.getRequest<object>()));
    return next.handle();
  }
}
