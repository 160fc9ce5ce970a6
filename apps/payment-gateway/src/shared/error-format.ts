import { constrainRouteParameter, registerErrorFormat, renderProblemDetails } from '@app/common';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { GATEWAY_ERROR_PREFIX, GATEWAY_NAMESPACE } from './namespace';

/**
 * Gateway routes answer errors as RFC 9457 problem details (docs/decisions.md, issue 5 "API"),
 * whatever else the process serves; and their `:namespace` serves only the deployment's namespace,
 * so a 405 never names a method of another namespace's URL (all 404, as NamespaceGuard answers).
 */
@Injectable()
export class GatewayErrorFormat implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(GATEWAY_NAMESPACE) private readonly namespace: string,
  ) {}

  onModuleInit(): void {
    registerErrorFormat(this.adapterHost, GATEWAY_ERROR_PREFIX, renderProblemDetails);
    constrainRouteParameter(this.adapterHost, 'namespace', (value) => value === this.namespace);
  }
}

/** The gateway deployed on its own: every path it answers (unknown ones included) uses problem details. */
@Injectable()
export class GatewayOnlyErrorFormat implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    registerErrorFormat(this.adapterHost, '/', renderProblemDetails);
  }
}
