import { Env, envSchema } from '../config/env-schema';
import { authConfigFrom, authVariables, deviceTokenVariables, STANDALONE_DEV_SECRET } from './auth.config';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { signDeviceToken, verifyDeviceToken } from './device-token';
import { createHmac } from 'node:crypto';
import { ISSUED_AT_SKEW_SECONDS, MAX_TOKEN_LIFETIME_SECONDS, parseTtl, signPboToken, TokenVerifier } from './token';

const read = (env: Env) => envSchema({ ...authVariables, ...deviceTokenVariables }).read(env);
const app = { allowDevelopmentDefault: false, production: false, deviceTokens: true };
const production = { ...app, production: true };

describe('auth configuration', () => {
  it('should refuse to start an app without a secret or JWKS URL', () => {
    expect(() => authConfigFrom(read({ DEVICE_JWT_SECRET: 'd'.repeat(40) }), app)).toThrow(/AUTH_JWT_SECRET or AUTH_JWKS_URL/);
  });

  it('should give standalone the development secret outside production only', () => {
    expect(authConfigFrom(read({}), { ...app, allowDevelopmentDefault: true }).secret).toBe(STANDALONE_DEV_SECRET);
    expect(() => authConfigFrom(read({}), { ...production, allowDevelopmentDefault: true })).toThrow();
  });

  it('should refuse a short secret in production', () => {
    expect(() => authConfigFrom(read({ AUTH_JWT_SECRET: 'short', DEVICE_JWT_SECRET: 'd'.repeat(40) }), production)).toThrow(/AUTH_JWT_SECRET must be at least 32 characters/);
    expect(() => authConfigFrom(read({ AUTH_JWT_SECRET: 'a'.repeat(40), DEVICE_JWT_SECRET: 'short' }), production)).toThrow(/DEVICE_JWT_SECRET must be at least 32 characters/);
  });

  it('should refuse to start an app without a device token secret', () => {
    expect(() => authConfigFrom(read({ AUTH_JWT_SECRET: 'a'.repeat(40) }), app)).toThrow(/DEVICE_JWT_SECRET must be set/);
  });

  it('should not ask an app without device tokens for their secret', () => {
    expect(authConfigFrom(read({ AUTH_JWT_SECRET: 'a'.repeat(40) }), { ...production, deviceTokens: false })).toEqual({ secret: 'a'.repeat(40) });
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

  it('should refuse a PBO or device token issued further in the future than the clock skew, and take one within it', async () => {
    const sign = (secret: string, claims: Record<string, unknown>, iat: number, audience?: string) => {
      let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject('SDK0001').setIssuedAt(iat).setExpirationTime(iat + 3600);
      if (audience) jwt = jwt.setAudience(audience);
      if (audience === 'pbo-api') jwt = jwt.setIssuer('softpos');
      return jwt.sign(new TextEncoder().encode(secret));
    };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -ISSUED_AT_SKEW_SECONDS + 5, max: 30 * 86400 }), async (ahead) => {
        const now = Math.floor(Date.now() / 1000);
        const iat = now + ahead;
        const future = ahead > ISSUED_AT_SKEW_SECONDS;
        const pbo = new TokenVerifier(config).verifyAuthorization(`Bearer ${await sign(config.secret, { groupId: 'group-1' }, iat, 'pbo-api')}`);
        const device = verifyDeviceToken(config, `Bearer ${await sign(config.deviceSecret, { groupId: 'group-1', profileId: null }, iat, 'softpos-device')}`);
        if (future) {
          await expect(pbo).rejects.toThrow('bearer token is invalid');
          await expect(device).rejects.toThrow('device token is invalid');
        } else {
          await expect(pbo).resolves.toEqual({ groupId: 'group-1' });
          await expect(device).resolves.toMatchObject({ groupId: 'group-1' });
        }
      }),
      { numRuns: 50 },
    );
    // A token just signed is taken, of course.
    await expect(verifyDeviceToken(config, `Bearer ${await signDeviceToken(config, { deviceId: 'SDK1', groupId: 'g', profileId: null }, 60)}`)).resolves.toMatchObject({ deviceId: 'SDK1' });
  });

  it('should answer a device token it verified before without verifying it again, and still refuse it once expired, changed, or under another secret', async () => {
    const claims = { deviceId: 'SDK-CACHED', groupId: 'group-2', profileId: 'prof_1' };
    const token = await signDeviceToken(config, claims, 5);
    await expect(verifyDeviceToken(config, `Bearer ${token}`)).resolves.toEqual(claims);
    // The module itself (an `import * as` would be a copy of its exports).
    const verify = jest.spyOn(require('jose') as typeof import('jose'), 'jwtVerify');
    let verifications: number;
    const answered = await verifyDeviceToken(config, `Bearer ${token}`).finally(() => {
      verifications = verify.mock.calls.length;
      verify.mockRestore();
    });
    expect(verifications!).toBe(0);
    expect(answered).toEqual(claims);
    // The caller's copy: changing it changes nothing kept.
    answered.groupId = 'group-other';
    await expect(verifyDeviceToken(config, `Bearer ${token}`)).resolves.toEqual(claims);
    // Another signature over the same claims, and the same token under another secret, are verified, and refused.
    const [header, payload, signature] = token.split('.');
    const tampered = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    await expect(verifyDeviceToken(config, `Bearer ${tampered}`)).rejects.toThrow('device token is invalid');
    await expect(verifyDeviceToken({ ...config, deviceSecret: 'another-device-secret-another-device-secret' }, `Bearer ${token}`)).rejects.toThrow('device token is invalid');
    // Past its exp, the kept token is refused as jose refuses it.
    const doNotFake = ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'cancelIdleCallback', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] as const;
    jest.useFakeTimers({ now: Date.now() + 6000, doNotFake: [...doNotFake] });
    try {
      await expect(verifyDeviceToken(config, `Bearer ${token}`)).rejects.toThrow('device token has expired');
    } finally {
      jest.useRealTimers();
    }
  });

  it('should refuse a header that is not a bearer token', async () => {
    await expect(new TokenVerifier(config).verifyAuthorization('Basic abc')).rejects.toThrow('authorization header must be "Bearer <token>"');
  });
});

/** An HS256 JWT of exactly these claims (the raw JSON text, so `exp` may be 1e300), signed with `secret`. */
function rawJwt(secret: string, claimsJson: string): string {
  const part = (text: string) => Buffer.from(text).toString('base64url');
  const unsigned = `${part('{"alg":"HS256","typ":"JWT"}')}.${part(claimsJson)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

describe('token lifetime (r14c item 5)', () => {
  const config = { secret: 'unit-test-secret-unit-test-secret-0000', deviceSecret: 'unit-test-device-secret-unit-test-device' };

  it('should refuse a PBO or device token whose exp lies beyond the longest lifetime from now or from its iat (exp 1e300 included), and take one within it', async () => {
    const far = fc.oneof(
      fc.constantFrom('1e300', '9007199254740993', '1e20'),
      fc.integer({ min: MAX_TOKEN_LIFETIME_SECONDS + 120, max: 100 * 365 * 86400 }).map((ahead) => String(Math.floor(Date.now() / 1000) + ahead)),
    );
    await fc.assert(
      fc.asyncProperty(far, fc.boolean(), async (exp, withIat) => {
        const now = Math.floor(Date.now() / 1000);
        const iat = withIat ? `,"iat":${now}` : '';
        const pbo = new TokenVerifier(config).verifyAuthorization(`Bearer ${rawJwt(config.secret, `{"groupId":"group-1","exp":${exp}${iat}}`)}`);
        const device = verifyDeviceToken(config, `Bearer ${rawJwt(config.deviceSecret, `{"groupId":"group-1","sub":"SDK1","aud":"softpos-device","exp":${exp}${iat}}`)}`);
        await expect(pbo).rejects.toThrow('bearer token lives longer than 31 days, the longest a token may');
        await expect(device).rejects.toThrow('device token lives longer than 31 days, the longest a token may');
      }),
      { numRuns: 30 },
    );
    // Issued a year ago, expiring tomorrow: within 31 days from now, not from its iat.
    const now = Math.floor(Date.now() / 1000);
    await expect(new TokenVerifier(config).verifyAuthorization(`Bearer ${rawJwt(config.secret, `{"groupId":"group-1","exp":${now + 86400},"iat":${now - 365 * 86400}}`)}`)).rejects.toThrow(
      'bearer token lives longer',
    );
    await expect(new TokenVerifier(config).verifyAuthorization(`Bearer ${rawJwt(config.secret, `{"groupId":"group-1","exp":${now + 30 * 86400},"iat":${now}}`)}`)).resolves.toEqual({
      groupId: 'group-1',
    });
    await expect(signPboToken(config, 'group-1', MAX_TOKEN_LIFETIME_SECONDS + 1)).rejects.toThrow(/a token lives at most 31 days/);
  });
});
