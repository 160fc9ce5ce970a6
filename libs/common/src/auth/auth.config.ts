import { ConfigError, secret, text, urlWithCredentials, ValuesOf } from '../config/env-schema';

/** How bearer tokens are verified; read once from the environment. */
export interface AuthConfig {
  /** HS256 secret (development and standalone). */
  secret?: string;
  /** JWKS URL (production); tokens then use RS256 or ES256. */
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /**
   * HS256 secret of device tokens (issued at activation, verified by the SDK endpoints); absent
   * in an app that neither issues nor verifies them.
   */
  deviceSecret?: string;
}

/** Used only by `standalone` outside production, so a fresh clone runs with no configuration. */
export const STANDALONE_DEV_SECRET = 'softpos-standalone-development-secret-change-me';
export const STANDALONE_DEV_DEVICE_SECRET = 'softpos-standalone-device-token-secret-change-me';

/** The variables of bearer tokens (apps that serve the PBO API or sign its tokens). */
export const authVariables = {
  AUTH_JWT_SECRET: secret(),
  AUTH_JWKS_URL: urlWithCredentials(),
  AUTH_JWT_ISSUER: text(),
  AUTH_JWT_AUDIENCE: text(),
};

/** The variable of device tokens (apps that issue or verify them). */
export const deviceTokenVariables = { DEVICE_JWT_SECRET: secret() };

export interface AuthConfigOptions {
  /** Standalone (and its CLI) may fall back to the development secrets outside production. */
  allowDevelopmentDefault: boolean;
  production: boolean;
}

/**
 * Checks the token settings. Refuses (the app does not start) when neither a secret nor a JWKS
 * URL is configured and no default is allowed, or a secret is short in production. Device
 * tokens are checked when `device` is given.
 */
export function authConfigFrom(
  values: ValuesOf<typeof authVariables> & Partial<ValuesOf<typeof deviceTokenVariables>>,
  options: AuthConfigOptions & { deviceTokens: boolean },
): AuthConfig {
  const developmentDefaults = options.allowDevelopmentDefault && !options.production;
  const { AUTH_JWT_SECRET: secret, AUTH_JWKS_URL: jwksUrl, AUTH_JWT_ISSUER: issuer, AUTH_JWT_AUDIENCE: audience } = values;
  let deviceSecret: string | undefined;
  if (options.deviceTokens) {
    deviceSecret = values.DEVICE_JWT_SECRET || (developmentDefaults ? STANDALONE_DEV_DEVICE_SECRET : undefined);
    if (!deviceSecret) throw new ConfigError(['DEVICE_JWT_SECRET must be set: refusing to start without a key for device tokens']);
    if (options.production && deviceSecret.length < 32) throw new ConfigError(['DEVICE_JWT_SECRET must be at least 32 characters in production']);
  }
  if (!secret && !jwksUrl) {
    if (!developmentDefaults) {
      throw new ConfigError(['AUTH_JWT_SECRET or AUTH_JWKS_URL must be set: refusing to start without a way to verify bearer tokens']);
    }
    return { secret: STANDALONE_DEV_SECRET, issuer, audience, deviceSecret };
  }
  if (secret && secret.length < 32 && options.production) {
    throw new ConfigError(['AUTH_JWT_SECRET must be at least 32 characters in production']);
  }
  return { secret, jwksUrl, issuer, audience, deviceSecret };
}
