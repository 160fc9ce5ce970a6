import { ApiProblem, DeviceAuthGuard, PboAuthGuard, ServiceRequestIdGuard } from '@app/common';
import { applyDecorators, CanActivate, Type, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiParam } from '@nestjs/swagger';
import { NamespaceGuard } from './namespace';

/** The namespace checked first (another one is 404 whatever the token), then `tokenGuard`; `x-service-request-id` on every response. */
function gatewayRoutes(tokenGuard: Type<CanActivate>, token: string): ClassDecorator {
  return applyDecorators(
    // The request id's header is set by a guard, last, where an interceptor would set it (ServiceRequestIdGuard).
    UseGuards(NamespaceGuard, tokenGuard, ServiceRequestIdGuard),
    ApiBearerAuth(),
    ApiParam({ name: 'namespace', type: String, description: 'the customer namespace this gateway is deployed for (GATEWAY_NAMESPACE)', example: 'demo' }),
    ApiProblem({ status: 400, description: 'invalid input: a path parameter, query parameter, header or body field the API cannot take (the detail names it)' }),
    ApiProblem({ status: 401, description: `missing, malformed, expired or wrongly signed ${token}` }),
    ApiProblem({ status: 404, description: 'another namespace, or no such object' }),
  );
}

/**
 * Marks a controller as gateway API under the PBO bearer token; errors are problem details
 * (registered for the gateway's paths by the module).
 */
export function GatewayApi(): ClassDecorator {
  return gatewayRoutes(PboAuthGuard, 'bearer token');
}

/** Gateway API for the SDK on a phone: the device token issued at activation instead of the PBO's (DECISIONS.md, "Transactions"). */
export function GatewayDeviceApi(): ClassDecorator {
  return gatewayRoutes(DeviceAuthGuard, 'device token (issued at activation)');
}
