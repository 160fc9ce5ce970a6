import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@app/common';
import type { FastifyRequest } from 'fastify';

/** Nest injection token of the customer namespace this gateway serves (`GATEWAY_NAMESPACE`, default `demo`, from the platform). */
export const GATEWAY_NAMESPACE = Symbol('GATEWAY_NAMESPACE');

/** The route prefix of the gateway API; `:namespace` is checked by {@link NamespaceGuard}. */
export const GATEWAY_ROUTE_PREFIX = ':namespace/api/v1';

/** The same prefix for error rendering: any first segment, since another namespace gets a gateway 404 too. */
export const GATEWAY_ERROR_PREFIX = '/*/api/v1';

/** Answers 404 for any namespace but the one this gateway is deployed for (spec section 1 rule 1). */
@Injectable()
export class NamespaceGuard implements CanActivate {
  constructor(@Inject(GATEWAY_NAMESPACE) private readonly namespace: string) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest<{ Params: { namespace?: string } }>>();
    if (request.params.namespace !== this.namespace) throw DomainError.notFound('no such endpoint');
    return true;
  }
}
