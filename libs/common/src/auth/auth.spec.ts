import { authConfigFromEnv, STANDALONE_DEV_SECRET } from './auth.config';
import { parseTtl, signPboToken, TokenVerifier } from './token';

describe('auth configuration', () => {
  it('should refuse to start an app without a secret or JWKS URL', () => {
    expect(() => authConfigFromEnv({ allowDevelopmentDefault: false }, { DEVICE_JWT_SECRET: 'd'.repeat(40) })).toThrow(/AUTH_JWT_SECRET or AUTH_JWKS_URL/);
  });

  it('should give standalone the development secret outside production only', () => {
    expect(authConfigFromEnv({ allowDevelopmentDefault: true }, {}).secret).toBe(STANDALONE_DEV_SECRET);
    expect(() => authConfigFromEnv({ allowDevelopmentDefault: true }, { NODE_ENV: 'production' })).toThrow();
  });

  it('should refuse a short secret in production', () => {
    expect(() => authConfigFromEnv({ allowDevelopmentDefault: false }, { NODE_ENV: 'production', AUTH_JWT_SECRET: 'short', DEVICE_JWT_SECRET: 'd'.repeat(40) })).toThrow(/AUTH_JWT_SECRET must be at least 32 characters/);
    expect(() => authConfigFromEnv({ allowDevelopmentDefault: false }, { NODE_ENV: 'production', AUTH_JWT_SECRET: 'a'.repeat(40), DEVICE_JWT_SECRET: 'short' })).toThrow(/DEVICE_JWT_SECRET must be at least 32 characters/);
  });

  it('should refuse to start an app without a device token secret', () => {
    expect(() => authConfigFromEnv({ allowDevelopmentDefault: false }, { AUTH_JWT_SECRET: 'a'.repeat(40) })).toThrow(/DEVICE_JWT_SECRET must be set/);
  });

  it('should parse token lifetimes', () => {
    expect(parseTtl('24h')).toBe(86400);
    expect(parseTtl('30m')).toBe(1800);
    expect(parseTtl('7d')).toBe(604800);
    expect(parseTtl('90')).toBe(90);
    expect(() => parseTtl('soon')).toThrow();
  });
});

describe('TokenVerifier', () => {
  const config = { secret: 'unit-test-secret-unit-test-secret-0000', issuer: 'softpos', audience: 'pbo-api', deviceSecret: 'unit-test-device-secret-unit-test-device' };

  it('should answer the groupId of a valid token', async () => {
    const token = await signPboToken(config, 'group-1', 60);
    await expect(new TokenVerifier(config).verifyAuthorization(`Bearer ${token}`)).resolves.toEqual({ groupId: 'group-1' });
  });

  it('should refuse a token for another audience', async () => {
    const token = await signPboToken({ ...config, audience: 'other' }, 'group-1', 60);
    await expect(new TokenVerifier(config).verifyAuthorization(`Bearer ${token}`)).rejects.toThrow('bearer token is invalid');
  });

  it('should refuse a header that is not a bearer token', async () => {
    await expect(new TokenVerifier(config).verifyAuthorization('Basic abc')).rejects.toThrow('authorization header must be "Bearer <token>"');
  });
});
