import { applyDecorators, CanActivate, createParamDecorator, DynamicModule, ExecutionContext, Global, Inject, Injectable, Module, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { UnauthenticatedEnvelopeDto } from '../http/envelope';
import { AuthConfig } from './auth.config';
import { DeviceAuthGuard } from './device-token';
import { AUTH_CONFIG, TOKEN_VERIFIER } from './injection-tokens';
import { GROUP_DIRECTORY, GroupDirectory, KNOWN_GROUPS, KnownGroups } from './known-groups';
import { PboClaims, TokenVerifier } from './token';
import { DomainError } from '../errors';


type AuthenticatedRequest = FastifyRequest & { pbo?: PboClaims };

/**
 * Verifies the PBO bearer token and puts its claims on the request. A validly signed token of a
 * group that does not exist (or no longer does) is refused exactly like a wrongly signed one.
 */
@Injectable()
export class PboAuthGuard implements CanActivate {
  constructor(
    @Inject(TOKEN_VERIFIER) private readonly verifier: TokenVerifier,
    @Inject(KNOWN_GROUPS) private readonly groups: KnownGroups,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const claims = await this.verifier.verifyAuthorization(request.headers.authorization);
    await this.groups.require(claims.groupId, () => DomainError.unauthenticated('bearer token is invalid'));
    request.pbo = claims;
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
    ApiResponse({ status: 401, description: 'code 11000: missing, malformed, expired or wrongly signed bearer token', type: UnauthenticatedEnvelopeDto }),
  );
}

/**
 * Provides the token verifier to every context of the application, and the check that a token's
 * group exists against the {@link GROUP_DIRECTORY} the composition root provides (globally, or
 * `groups` here).
 */
@Global()
@Module({})
export class AuthModule {
  static forRoot(config: AuthConfig, groups?: GroupDirectory): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        { provide: AUTH_CONFIG, useValue: config },
        { provide: TOKEN_VERIFIER, useValue: new TokenVerifier(config) },
        groups
          ? { provide: KNOWN_GROUPS, useValue: new KnownGroups(groups) }
          : { provide: KNOWN_GROUPS, inject: [GROUP_DIRECTORY], useFactory: (directory: GroupDirectory) => new KnownGroups(directory) },
        PboAuthGuard,
        DeviceAuthGuard,
      ],
      exports: [AUTH_CONFIG, TOKEN_VERIFIER, KNOWN_GROUPS, PboAuthGuard, DeviceAuthGuard],
    };
  }
}
