import { Env, readAppConfig } from '@app/common';
import { databaseUrlWithPassword, encryptionKey, passwordForms, secretText } from '@app/testing';
import fc from 'fast-check';
import { paymentGatewayConfig } from './payment-gateway.config';

const REQUIRED: Env = {
  DATABASE_URL: 'postgres://db/softpos',
  AUTH_JWT_SECRET: 'a'.repeat(40),
  DEVICE_JWT_SECRET: 'd'.repeat(40),
  DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

const read = (env: Env) => readAppConfig(paymentGatewayConfig, env);

describe('paymentGatewayConfig', () => {
  it('should verify device tokens with DEVICE_JWT_SECRET and seal webhook secrets with the data key, with no mailer', () => {
    const { config } = read(REQUIRED);

    expect(config.platform.auth).toEqual({ secret: 'a'.repeat(40), deviceSecret: 'd'.repeat(40) });
    expect(config.platform.cipher).toBeDefined();
    expect(config.platform.mail).toBeUndefined();
    expect(config.platform.gatewayNamespace).toBe('demo');
  });

  it('should refuse to start without DATA_ENCRYPTION_KEY, naming it', () => {
    expect(() => read({ ...REQUIRED, DATA_ENCRYPTION_KEY: undefined })).toThrow(/^DATA_ENCRYPTION_KEY must be set/);
  });

  it('should deliver webhooks every 10 s doubling to an hour for 24 h, 10 s each, to public addresses only', () => {
    const { webhooks } = read(REQUIRED).config.gateway;

    expect(webhooks).toMatchObject({ timeoutMs: 10_000, backoffBaseMs: 10_000, backoffMaxMs: 3_600_000, giveUpMs: 86_400_000 });
    expect([webhooks.allowList.allows('127.0.0.1', 80), webhooks.allowList.allows('localhost', 80), webhooks.allowList.allows('10.1.2.3', 443)]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('should take WEBHOOK_ALLOWED_HOSTS as hosts, addresses and networks', () => {
    const { webhooks } = read({ ...REQUIRED, WEBHOOK_ALLOWED_HOSTS: 'hooks.internal, 10.0.0.0/8, [fd00::/8]' }).config.gateway;

    expect([webhooks.allowList.allows('hooks.internal', 443), webhooks.allowList.allows('10.1.2.3', 80), webhooks.allowList.allows('fd00::5', 80)]).toEqual([
      true,
      true,
      true,
    ]);
    expect(webhooks.allowList.allows('127.0.0.1', 80)).toBe(false);
  });

  it.each([
    ['WEBHOOK_ALLOWED_HOSTS', 'http://hooks.internal', 'WEBHOOK_ALLOWED_HOSTS entry "http://hooks.internal": write host[:port], not a URL'],
    ['WEBHOOK_ALLOWED_HOSTS', '10.0.0.0/33', 'WEBHOOK_ALLOWED_HOSTS entry "10.0.0.0/33": not a valid CIDR network'],
    ['WEBHOOK_TIMEOUT_MS', '99', 'WEBHOOK_TIMEOUT_MS must be from 100 to 60000, got 99'],
    ['WEBHOOK_BACKOFF_MAX_MS', '5000', 'WEBHOOK_BACKOFF_MAX_MS must be from WEBHOOK_BACKOFF_MS (10000)'],
    ['TRANSACTION_RESOLVER_BACKOFF_MAX_MS', '1000', 'TRANSACTION_RESOLVER_BACKOFF_MAX_MS must be from TRANSACTION_RESOLVER_BACKOFF_MS (5000)'],
    ['TRANSACTION_SETTLE_TIMEOUT_MS', '60001', 'TRANSACTION_SETTLE_TIMEOUT_MS must be from 100 to 60000, got 60001'],
    ['TRANSACTION_PROFILE_CACHE_TTL_MS', '60001', 'TRANSACTION_PROFILE_CACHE_TTL_MS must be from 0 to 60000, got 60001'],
    ['TRANSACTION_HOST_TIMEOUT_MS', 'soon', 'TRANSACTION_HOST_TIMEOUT_MS must be a whole number, got "soon"'],
    ['TRANSACTION_AUTHORIZATION_VALIDITY_MS', '0', 'TRANSACTION_AUTHORIZATION_VALIDITY_MS must be from 60000'],
  ])('should refuse a bad %s, naming it', (name, value, message) => {
    expect(() => read({ ...REQUIRED, [name]: value })).toThrow(message);
  });

  it('should time transactions by the defaults with nothing set: 15 s for the host, 5 min before nothing can have been sent, 7 days to capture', () => {
    expect(read(REQUIRED).config.gateway.transactions).toEqual({
      hostTimeoutMs: 15_000,
      replyMarginMs: 3000,
      reaskWaitMs: 5000,
      resolverIntervalMs: 5000,
      resolverBackoffMs: 5000,
      resolverBackoffMaxMs: 300_000,
      nothingSentAfterMs: 300_000,
      authorizationValidityMs: 7 * 86_400_000,
      closeSweepIntervalMs: 60_000,
      settleTimeoutMs: 45_000,
      settleWaitMs: 10_000,
      settleDrainMs: 25_000,
      profileCacheTtlMs: 1000,
    });
  });

  it('should take every TRANSACTION_* setting from its variable', () => {
    const { transactions } = read({
      ...REQUIRED,
      TRANSACTION_HOST_TIMEOUT_MS: '9000',
      TRANSACTION_REPLY_MARGIN_MS: '1000',
      TRANSACTION_REASK_WAIT_MS: '2000',
      TRANSACTION_RESOLVER_INTERVAL_MS: '700',
      TRANSACTION_RESOLVER_BACKOFF_MS: '800',
      TRANSACTION_RESOLVER_BACKOFF_MAX_MS: '900',
      TRANSACTION_NOTHING_SENT_AFTER_MS: '600000',
      TRANSACTION_AUTHORIZATION_VALIDITY_MS: '3600000',
      TRANSACTION_CLOSE_SWEEP_MS: '1000',
      TRANSACTION_SETTLE_TIMEOUT_MS: '60000',
      TRANSACTION_SETTLE_WAIT_MS: '0',
      TRANSACTION_SETTLE_DRAIN_MS: '120000',
      TRANSACTION_PROFILE_CACHE_TTL_MS: '0',
    }).config.gateway;

    expect(transactions).toEqual({
      hostTimeoutMs: 9000,
      replyMarginMs: 1000,
      reaskWaitMs: 2000,
      resolverIntervalMs: 700,
      resolverBackoffMs: 800,
      resolverBackoffMaxMs: 900,
      nothingSentAfterMs: 600_000,
      authorizationValidityMs: 3_600_000,
      closeSweepIntervalMs: 1000,
      settleTimeoutMs: 60_000,
      settleWaitMs: 0,
      settleDrainMs: 120_000,
      profileCacheTtlMs: 0,
    });
  });

  it("should refuse to start when a pending sale could be declined while the connector may still send it, naming the connector's timing", () => {
    fc.assert(
      fc.property(
        fc.record({
          TRANSACTION_HOST_TIMEOUT_MS: fc.integer({ min: 100, max: 60_000 }),
          HOST_TIMEOUT_MS: fc.integer({ min: 100, max: 60_000 }),
          HOST_RECOVERY_GRACE_MS: fc.integer({ min: 0, max: 600_000 }),
          HOST_REVERSAL_POLL_MS: fc.integer({ min: 10, max: 600_000 }),
          TRANSACTION_NOTHING_SENT_AFTER_MS: fc.integer({ min: 1000, max: 1_500_000 }),
        }),
        (timing) => {
          const busy = Math.max(timing.TRANSACTION_HOST_TIMEOUT_MS, timing.HOST_TIMEOUT_MS) + timing.HOST_RECOVERY_GRACE_MS + timing.HOST_REVERSAL_POLL_MS;
          const env = { ...REQUIRED, ...Object.fromEntries(Object.entries(timing).map(([name, value]) => [name, String(value)])) };
          if (timing.TRANSACTION_NOTHING_SENT_AFTER_MS > busy) {
            expect(read(env).config.gateway.transactions?.nothingSentAfterMs).toBe(timing.TRANSACTION_NOTHING_SENT_AFTER_MS);
          } else {
            expect(() => read(env)).toThrow(
              `TRANSACTION_NOTHING_SENT_AFTER_MS (${timing.TRANSACTION_NOTHING_SENT_AFTER_MS}) must exceed how long the host connector may still be handling a request`,
            );
            expect(() => read(env)).toThrow(`HOST_RECOVERY_GRACE_MS ${timing.HOST_RECOVERY_GRACE_MS}`);
          }
        },
      ),
    );
  });

  it('should take GATEWAY_NAMESPACE', () => {
    expect(read({ ...REQUIRED, GATEWAY_NAMESPACE: 'acme-pay' }).config.platform.gatewayNamespace).toBe('acme-pay');
  });

  it.each(['has space', 'a/b', '-lead', 'x'.repeat(64)])('should refuse the namespace %j, naming GATEWAY_NAMESPACE', (namespace) => {
    expect(() => read({ ...REQUIRED, GATEWAY_NAMESPACE: namespace })).toThrow(/^GATEWAY_NAMESPACE must be letters, digits, - or _/);
  });

  it('should refuse to start without DATABASE_URL, a way to verify bearer tokens or the device token key, naming them', () => {
    expect(() => read({ AUTH_JWT_SECRET: 'a'.repeat(40), DEVICE_JWT_SECRET: 'd'.repeat(40) })).toThrow(/^DATABASE_URL must be set/);
    expect(() => read({ DATABASE_URL: 'postgres://db/softpos', DEVICE_JWT_SECRET: 'd'.repeat(40) })).toThrow(/^AUTH_JWT_SECRET or AUTH_JWKS_URL must be set/);
    expect(() => read({ DATABASE_URL: 'postgres://db/softpos', AUTH_JWT_SECRET: 'a'.repeat(40) })).toThrow(/^DEVICE_JWT_SECRET must be set/);
  });

  it('should refuse a short DEVICE_JWT_SECRET in production', () => {
    expect(() => read({ ...REQUIRED, NODE_ENV: 'production', NATS_URL: 'nats://n:4222', DEVICE_JWT_SECRET: 'short' })).toThrow(
      /DEVICE_JWT_SECRET must be at least 32 characters in production/,
    );
  });

  it('should refuse a bad RETENTION_INTERVAL_MS, naming it', () => {
    expect(() => read({ ...REQUIRED, RETENTION_INTERVAL_MS: '10' })).toThrow('RETENTION_INTERVAL_MS must be from 1000 to 86400000, got 10');
  });

  it('should print its settings with the token secrets, the data key and the database password masked', () => {
    fc.assert(
      fc.property(secretText(), secretText(), encryptionKey(), databaseUrlWithPassword(), (secret, deviceSecret, key, database) => {
        const { settings } = read({ AUTH_JWT_SECRET: secret, DEVICE_JWT_SECRET: deviceSecret, DATA_ENCRYPTION_KEY: key, DATABASE_URL: database.url });

        for (const hidden of [secret, deviceSecret, key, ...passwordForms(database.password)]) expect(settings).not.toContain(hidden);
        expect(settings).toContain('AUTH_JWT_SECRET=[set]');
        expect(settings).toContain('DEVICE_JWT_SECRET=[set]');
        expect(settings).toContain('DATA_ENCRYPTION_KEY=[set]');
      }),
    );
  });
});
