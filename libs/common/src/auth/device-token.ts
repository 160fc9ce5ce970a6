import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Inject, Injectable, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { DomainError } from '../errors';
import { UnauthenticatedEnvelopeDto } from '../http/envelope';
import { AuthConfig } from './auth.config';
import { AUTH_CONFIG } from './injection-tokens';
import { KNOWN_GROUPS, KnownGroups } from './known-groups';
import { checkIssuedAt, checkLifetime, checkTtl, TOKEN_LIFETIME_TEXT, TokenLifetimeError } from './token';

/** Audience of device tokens: never accepted where a PBO token is expected, and the other way round. */
export const DEVICE_TOKEN_AUDIENCE = 'softpos-device';

/** Claims of a device token, issued when a phone activates its code. */
export interface DeviceClaims {
  deviceId: string;
  groupId: string;
  /** The gateway profile the device pays through; null while its merchant has no matching acquirer. */
  profileId: string | null;
}

function deviceSecretOf(config: AuthConfig): string {
  if (!config.deviceSecret) throw new Error('device tokens are not configured in this app (DEVICE_JWT_SECRET)');
  return config.deviceSecret;
}

/** Signs a device token (HS256, audience {@link DEVICE_TOKEN_AUDIENCE}, subject the device id). */
export async function signDeviceToken(config: AuthConfig, claims: DeviceClaims, ttlSeconds: number): Promise<string> {
  checkTtl(ttlSeconds);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ groupId: claims.groupId, profileId: claims.profileId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.deviceId)
    .setAudience(DEVICE_TOKEN_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(new TextEncoder().encode(deviceSecretOf(config)));
}

/** How many verified device tokens a process keeps ({@link verifyDeviceToken}): a phone sends the same token with every request. */
const VERIFIED_TOKENS_KEPT = 10_000;

/** Device tokens verified lately, by their text, per secret: the claims, and the `exp` (seconds) after which the token must be verified again (and is refused). */
const verifiedTokens = new Map<string, Map<string, { claims: DeviceClaims; exp: number }>>();

function verifiedOf(secret: string): Map<string, { claims: DeviceClaims; exp: number }> {
  let verified = verifiedTokens.get(secret);
  if (!verified) verifiedTokens.set(secret, (verified = new Map()));
  return verified;
}

/**
 * Verifies a device token's signature, audience and expiry (not whether the device is still
 * active). A token verified before by this process under the same secret, text for text (so the
 * same signature over the same claims), is answered its claims again without the HMAC while it
 * has not expired: every check but `exp` gives the same answer for the same text, and `exp` is
 * checked on every request as jose checks it.
 */
export async function verifyDeviceToken(config: AuthConfig, header: string | undefined): Promise<DeviceClaims> {
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match) throw DomainError.unauthenticated('missing device token');
  const secret = deviceSecretOf(config);
  const token = match[1];
  const verified = verifiedOf(secret);
  const kept = verified.get(token);
  if (kept && kept.exp > Math.floor(Date.now() / 1000)) return { ...kept.claims };
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      audience: DEVICE_TOKEN_AUDIENCE,
      requiredClaims: ['exp', 'sub'],
    });
    if (typeof payload.groupId !== 'string' || typeof payload.sub !== 'string') throw new Error('claims');
    checkIssuedAt(payload);
    checkLifetime(payload);
    const claims: DeviceClaims = { deviceId: payload.sub, groupId: payload.groupId, profileId: typeof payload.profileId === 'string' ? payload.profileId : null };
    // A full map starts over: simpler than an LRU, and the tokens in use are verified again once.
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.clear();
    verified.set(token, { claims, exp: payload.exp as number });
    return { ...claims };
  } catch (error) {
    verified.delete(token);
    if (error instanceof joseErrors.JWTExpired) throw DomainError.unauthenticated('device token has expired');
    if (error instanceof TokenLifetimeError) throw DomainError.unauthenticated(`device token ${TOKEN_LIFETIME_TEXT}`);
    throw DomainError.unauthenticated('device token is invalid');
  }
}

type DeviceRequest = FastifyRequest & { device?: DeviceClaims };

/** Verifies the device token; one of a group that does not exist (or no longer does) is refused like a wrongly signed one. */
@Injectable()
export class DeviceAuthGuard implements CanActivate {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(KNOWN_GROUPS) private readonly groups: KnownGroups,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<DeviceRequest>();
    const claims = await verifyDeviceToken(this.config, request.headers.authorization);
    await this.groups.require(claims.groupId, () => DomainError.unauthenticated('device token is invalid'));
    request.device = claims;
    return true;
  }
}

/** The verified device token's claims. */
export const CurrentDevice = createParamDecorator((_data: unknown, context: ExecutionContext): DeviceClaims => {
  const request = context.switchToHttp().getRequest<DeviceRequest>();
  if (!request.device) throw new Error('@CurrentDevice() used on a route without DeviceAuthGuard');
  return request.device;
});

/** Marks a route as device API: device token required. */
export function DeviceApi(): ClassDecorator & MethodDecorator {
  return applyDecorators(
    UseGuards(DeviceAuthGuard),
    ApiBearerAuth(),
    ApiResponse({ status: 401, description: 'code 11000: missing, expired or invalid device token, or the device is no longer active', type: UnauthenticatedEnvelopeDto }),
  );
}
