import { createRemoteJWKSet, jwtVerify, SignJWT, JWTPayload, errors as joseErrors } from 'jose';
import { DomainError } from '../errors';
import { AuthConfig } from './auth.config';
import { isUsableGroupId } from './known-groups';

/** Claims of a PBO bearer token. */
export interface PboClaims {
  groupId: string;
}

const HS_ALGORITHMS = ['HS256'];
const JWKS_ALGORITHMS = ['RS256', 'ES256'];

/** Parses `24h`, `30m`, `7d`, `3600s` or plain seconds into seconds. */
export function parseTtl(ttl: string): number {
  const match = /^(\d+)\s*([smhd]?)$/.exec(ttl.trim());
  if (!match) throw new Error(`invalid ttl "${ttl}": use e.g. 3600, 30m, 24h or 7d`);
  const value = Number(match[1]);
  const unit = match[2] || 's';
  const seconds = value * { s: 1, m: 60, h: 3600, d: 86400 }[unit as 's' | 'm' | 'h' | 'd'];
  if (seconds <= 0) throw new Error('ttl must be positive');
  return seconds;
}

/** How far a token's `iat` may lie ahead of this machine's clock (clock skew between issuer and verifier). */
export const ISSUED_AT_SKEW_SECONDS = 60;

/**
 * Refuses a token issued in the future beyond {@link ISSUED_AT_SKEW_SECONDS}: jose checks `iat`
 * only together with a maximum age, and a token dated ahead would outlive its issuer's intent
 * wherever an age is judged from `iat`. A token without `iat` is judged by `exp` alone.
 */
export function checkIssuedAt(payload: JWTPayload, nowSeconds = Math.floor(Date.now() / 1000)): void {
  if (payload.iat === undefined) return;
  if (typeof payload.iat !== 'number' || payload.iat > nowSeconds + ISSUED_AT_SKEW_SECONDS) throw new Error('iat');
}

/**
 * The longest a token may live (docs/decisions.md, "Outside review r14c"): 31 days. Device tokens
 * are issued for 7 days, PBO tokens for what the issuer chooses (the CLI's `--ttl`, 24 h by
 * default); a verifier refuses one whose `exp` lies further than this from now, or from its `iat`.
 */
export const MAX_TOKEN_LIFETIME_SECONDS = 31 * 86400;

/** A token whose expiry lies beyond {@link MAX_TOKEN_LIFETIME_SECONDS}: "every token expires" means within it. */
export class TokenLifetimeError extends Error {
  constructor() {
    super('lifetime');
    this.name = 'TokenLifetimeError';
  }
}

/** Refuses (TokenLifetimeError) a token whose `exp` is more than the maximum lifetime after now or after its `iat` (`exp: 1e300` included). */
export function checkLifetime(payload: JWTPayload, nowSeconds = Math.floor(Date.now() / 1000)): void {
  const { exp, iat } = payload;
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp > nowSeconds + MAX_TOKEN_LIFETIME_SECONDS) throw new TokenLifetimeError();
  if (typeof iat === 'number' && exp - iat > MAX_TOKEN_LIFETIME_SECONDS) throw new TokenLifetimeError();
}

/** How a refused lifetime is said (never the claim's value). */
export const TOKEN_LIFETIME_TEXT = `lives longer than ${MAX_TOKEN_LIFETIME_SECONDS / 86400} days, the longest a token may`;

/** Refuses to sign a token nobody would take. */
export function checkTtl(ttlSeconds: number): void {
  if (!(ttlSeconds > 0 && ttlSeconds <= MAX_TOKEN_LIFETIME_SECONDS)) throw new Error(`a token lives at most ${MAX_TOKEN_LIFETIME_SECONDS / 86400} days (${MAX_TOKEN_LIFETIME_SECONDS} s), not ${ttlSeconds} s`);
}

/** Signs an HS256 PBO token (CLI, standalone seed, tests). */
export async function signPboToken(config: AuthConfig, groupId: string, ttlSeconds = 86400): Promise<string> {
  if (!config.secret) throw new Error('signing tokens needs AUTH_JWT_SECRET');
  checkTtl(ttlSeconds);
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT({ groupId }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(groupId).setIssuedAt(now).setExpirationTime(now + ttlSeconds);
  if (config.issuer) jwt = jwt.setIssuer(config.issuer);
  if (config.audience) jwt = jwt.setAudience(config.audience);
  return jwt.sign(new TextEncoder().encode(config.secret));
}

/** Verifies bearer tokens: algorithms pinned, `exp` required, issuer and audience checked when set. */
export class TokenVerifier {
  private readonly key: Uint8Array | ReturnType<typeof createRemoteJWKSet>;
  private readonly algorithms: string[];

  constructor(private readonly config: AuthConfig) {
    if (config.jwksUrl) {
      this.key = createRemoteJWKSet(new URL(config.jwksUrl));
      this.algorithms = JWKS_ALGORITHMS;
    } else if (config.secret) {
      this.key = new TextEncoder().encode(config.secret);
      this.algorithms = HS_ALGORITHMS;
    } else {
      throw new Error('TokenVerifier needs a secret or a JWKS URL');
    }
  }

  /** Verifies an `Authorization` header value and answers the PBO claims; throws 11000 otherwise. */
  async verifyAuthorization(header: string | undefined): Promise<PboClaims> {
    if (!header) throw DomainError.unauthenticated('missing bearer token');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw DomainError.unauthenticated('authorization header must be "Bearer <token>"');
    let payload: JWTPayload;
    try {
      const options = { algorithms: this.algorithms, issuer: this.config.issuer, audience: this.config.audience, requiredClaims: ['exp'] };
      payload =
        this.key instanceof Uint8Array
          ? (await jwtVerify(match[1], this.key, options)).payload
          : (await jwtVerify(match[1], this.key, options)).payload;
      checkIssuedAt(payload);
      checkLifetime(payload);
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw DomainError.unauthenticated('bearer token has expired');
      if (error instanceof TokenLifetimeError) throw DomainError.unauthenticated(`bearer token ${TOKEN_LIFETIME_TEXT}`);
      throw DomainError.unauthenticated('bearer token is invalid');
    }
    // A device token (audience softpos-device) never stands in for a PBO token.
    if (payload.aud === 'softpos-device' || (Array.isArray(payload.aud) && payload.aud.includes('softpos-device'))) {
      throw DomainError.unauthenticated('bearer token is invalid');
    }
    const groupId = payload.groupId;
    if (typeof groupId !== 'string' || groupId.length === 0) throw DomainError.unauthenticated('bearer token carries no groupId');
    // Never echoed: the text says what is wrong, not what the claim holds.
    if (!isUsableGroupId(groupId)) throw DomainError.unauthenticated('bearer token carries a groupId that cannot be a group (over 64 characters, or a control character)');
    return { groupId };
  }
}
