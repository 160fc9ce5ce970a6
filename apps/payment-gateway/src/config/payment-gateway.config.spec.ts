import { Env, readAppConfig } from '@app/common';
import { databaseUrlWithPassword, passwordForms, secretText } from '@app/testing';
import fc from 'fast-check';
import { paymentGatewayConfig } from './payment-gateway.config';

const REQUIRED: Env = { DATABASE_URL: 'postgres://db/softpos', AUTH_JWT_SECRET: 'a'.repeat(40) };

const read = (env: Env) => readAppConfig(paymentGatewayConfig, env);

describe('paymentGatewayConfig', () => {
  it('should start with no device token secret, no data key and no mailer', () => {
    const { config } = read(REQUIRED);

    expect(config.platform.auth).toEqual({ secret: 'a'.repeat(40) });
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

  it('should refuse to start without DATABASE_URL or a way to verify bearer tokens, naming them', () => {
    expect(() => read({ AUTH_JWT_SECRET: 'a'.repeat(40) })).toThrow(/^DATABASE_URL must be set/);
    expect(() => read({ DATABASE_URL: 'postgres://db/softpos' })).toThrow(/^AUTH_JWT_SECRET or AUTH_JWKS_URL must be set/);
  });

  it('should refuse a bad RETENTION_INTERVAL_MS, naming it', () => {
    expect(() => read({ ...REQUIRED, RETENTION_INTERVAL_MS: '10' })).toThrow('RETENTION_INTERVAL_MS must be from 1000 to 86400000, got 10');
  });

  it('should print its settings with the token secret and the database password masked', () => {
    fc.assert(
      fc.property(secretText(), databaseUrlWithPassword(), (secret, database) => {
        const { settings } = read({ AUTH_JWT_SECRET: secret, DATABASE_URL: database.url });

        for (const hidden of [secret, ...passwordForms(database.password)]) expect(settings).not.toContain(hidden);
        expect(settings).toContain('AUTH_JWT_SECRET=[set]');
        expect(settings).not.toContain('DEVICE_JWT_SECRET');
      }),
    );
  });
});
