import { PboAuthGuard, ProblemDetailsDto, ServiceRequestIdInterceptor } from '@app/common';
import { applyDecorators, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiResponse } from '@nestjs/swagger';
import { NamespaceGuard } from './namespace';

/**
 * Marks a controller as gateway API: the namespace checked first (another one is 404 whatever
 * the token), then the PBO bearer token; every response carries `x-service-request-id`; errors
 * are problem details (registered for the gateway's paths by the module).
 */
export function GatewayApi(): ClassDecorator {
  return applyDecorators(
    UseGuards(NamespaceGuard, PboAuthGuard),
    UseInterceptors(ServiceRequestIdInterceptor),
    ApiBearerAuth(),
    ApiParam({ name: 'namespace', type: String, description: 'the customer namespace this gateway is deployed for (GATEWAY_NAMESPACE)', example: 'demo' }),
    ApiResponse({ status: 401, description: 'missing, malformed, expired or wrongly signed bearer token', type: ProblemDetailsDto }),
    ApiResponse({ status: 404, description: 'another namespace, or no such object', type: ProblemDetailsDto }),
  );
}
