import { Env, readAppConfig } from '@app/common';
import { databaseUrlWithPassword, passwordForms, secretText } from '@app/testing';
import fc from 'fast-check';
import { paymentGatewayConfig } from './payment-gateway.config';

const REQUIRED: Env = { DATABASE_URL: 'postgres://db/softpos', AUTH_JWT_SECRET: 'a'.repeat(40), DEVICE_JWT_SECRET: 'd'.repeat(40) };

const read = (env: Env) => readAppConfig(paymentGatewayConfig, env);

describe('paymentGatewayConfig', () => {
  it('should verify device tokens with DEVICE_JWT_SECRET, and start with no data key and no mailer', () => {
    const { config } = read(REQUIRED);

    expect(config.platform.auth).toEqual({ secret: 'a'.repeat(40), deviceSecret: 'd'.repeat(40) });
    expect(config.platform.cipher).toBeUndefined();
    expect(config.platform.mail).toBeUndefined();
    expect(config.platform.gatewayNamespace).toBe('demo');
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

  it('should print its settings with the token secrets and the database password masked', () => {
    fc.assert(
      fc.property(secretText(), secretText(), databaseUrlWithPassword(), (secret, deviceSecret, database) => {
        const { settings } = read({ AUTH_JWT_SECRET: secret, DEVICE_JWT_SECRET: deviceSecret, DATABASE_URL: database.url });

        for (const hidden of [secret, deviceSecret, ...passwordForms(database.password)]) expect(settings).not.toContain(hidden);
        expect(settings).toContain('AUTH_JWT_SECRET=[set]');
        expect(settings).toContain('DEVICE_JWT_SECRET=[set]');
      }),
    );
  });
});
