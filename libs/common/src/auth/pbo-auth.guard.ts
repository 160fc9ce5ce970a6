import { applyDecorators, CanActivate, createParamDecorator, DynamicModule, ExecutionContext, Global, Inject, Injectable, Module, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { EnvelopeDto } from '../http/envelope';
import { AuthConfig } from './auth.config';
import { DeviceAuthGuard } from './device-token';
import { AUTH_CONFIG, TOKEN_VERIFIER } from './injection-tokens';
import { PboClaims, TokenVerifier } from './token';


type AuthenticatedRequest = FastifyRequest & { pbo?: PboClaims };

/** Verifies the PBO bearer token and puts its claims on the request. */
@Injectable()
export class PboAuthGuard implements CanActivate {
  constructor(@Inject(TOKEN_VERIFIER) private readonly verifier: TokenVerifier) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    request.pbo = await this.verifier.verifyAuthorization(request.headers.authorization);
    return true;
  }
}

/** The PBO's group id, taken only from the verified token (never from a body or query). */
export const GroupId = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.pbo) throw new Error('@GroupId() used on a route without PboAuthGuard');
  return request.pbo.groupId;
});

/** Marks a controller as PBO API: bearer token required, documented as such. */
export function PboApi(): ClassDecorator & MethodDecorator {
  return applyDecorators(
    UseGuards(PboAuthGuard),
    ApiBearerAuth(),
    ApiResponse({ status: 401, description: 'code 11000: missing, malformed, expired or wrongly signed bearer token', type: EnvelopeDto }),
  );
}

/** Provides the token verifier to every context of the application. */
@Global()
@Module({})
export class AuthModule {
  static forRoot(config: AuthConfig): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        { provide: AUTH_CONFIG, useValue: config },
        { provide: TOKEN_VERIFIER, useValue: new TokenVerifier(config) },
        PboAuthGuard,
        DeviceAuthGuard,
      ],
      exports: [AUTH_CONFIG, TOKEN_VERIFIER, PboAuthGuard, DeviceAuthGuard],
    };
  }
}
