import { registerErrorFormat, renderProblemDetails } from '@app/common';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { GATEWAY_ERROR_PREFIX } from './namespace';

/** Gateway routes answer errors as RFC 9457 problem details (docs/decisions.md, issue 5 "API"), whatever else the process serves. */
@Injectable()
export class GatewayErrorFormat implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    registerErrorFormat(this.adapterHost, GATEWAY_ERROR_PREFIX, renderProblemDetails);
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
