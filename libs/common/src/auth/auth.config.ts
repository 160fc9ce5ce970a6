/** How bearer tokens are verified; read once from the environment. */
export interface AuthConfig {
  /** HS256 secret (development and standalone). */
  secret?: string;
  /** JWKS URL (production); tokens then use RS256 or ES256. */
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /** HS256 secret of device tokens (issued at activation, verified by the SDK endpoints and the gateway). */
  deviceSecret: string;
}

/** Used only by `standalone` outside production, so a fresh clone runs with no configuration. */
export const STANDALONE_DEV_SECRET = 'softpos-standalone-development-secret-change-me';
export const STANDALONE_DEV_DEVICE_SECRET = 'softpos-standalone-device-token-secret-change-me';

export interface AuthConfigOptions {
  /** Standalone may fall back to the development secret when not in production. */
  allowDevelopmentDefault: boolean;
}

/**
 * Reads AUTH_JWT_SECRET / AUTH_JWKS_URL / AUTH_JWT_ISSUER / AUTH_JWT_AUDIENCE. Throws (the app
 * refuses to start) when neither a secret nor a JWKS URL is configured and no default is allowed.
 */
export function authConfigFromEnv(options: AuthConfigOptions, env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const secret = env.AUTH_JWT_SECRET || undefined;
  const jwksUrl = env.AUTH_JWKS_URL || undefined;
  const production = env.NODE_ENV === 'production';
  const developmentDefaults = options.allowDevelopmentDefault && !production;
  const issuer = env.AUTH_JWT_ISSUER || undefined;
  const audience = env.AUTH_JWT_AUDIENCE || undefined;
  const deviceSecret = env.DEVICE_JWT_SECRET || (developmentDefaults ? STANDALONE_DEV_DEVICE_SECRET : undefined);
  if (!deviceSecret) throw new Error('DEVICE_JWT_SECRET must be set: refusing to start without a key for device tokens');
  if (production && deviceSecret.length < 32) throw new Error('DEVICE_JWT_SECRET must be at least 32 characters in production');
  if (!secret && !jwksUrl) {
    if (!developmentDefaults) {
      throw new Error('AUTH_JWT_SECRET or AUTH_JWKS_URL must be set: refusing to start without a way to verify bearer tokens');
    }
    return { secret: STANDALONE_DEV_SECRET, issuer, audience, deviceSecret };
  }
  if (secret && secret.length < 32 && production) {
    throw new Error('AUTH_JWT_SECRET must be at least 32 characters in production');
  }
  return { secret, jwksUrl, issuer, audience, deviceSecret };
}
