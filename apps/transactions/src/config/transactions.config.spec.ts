import { Env, readAppConfig } from '@app/common';
import { databaseUrlWithPassword, passwordForms, secretText } from '@app/testing';
import fc from 'fast-check';
import { transactionsConfig } from './transactions.config';

const REQUIRED: Env = { DATABASE_URL: 'postgres://db/softpos', AUTH_JWT_SECRET: 'a'.repeat(40) };

const read = (env: Env) => readAppConfig(transactionsConfig, env);

describe('transactionsConfig', () => {
  it('should start with bearer tokens and mail as files under DATA_DIR, no device tokens and no data key', () => {
    const { config } = read({ ...REQUIRED, DATA_DIR: '/var/lib/softpos' });

    expect(config.platform.auth).toEqual({ secret: 'a'.repeat(40) });
    expect(config.platform.mail).toEqual({
      transport: 'file',
      directory: '/var/lib/softpos/mail',
      defaultFrom: { name: 'SoftPOS', address: 'no-reply@softpos.local' },
    });
    expect(config.platform.cipher).toBeUndefined();
    expect(config.platform.messaging).toEqual({ transport: 'in-process' });
  });

  it('should send mail through SMTP_URL and consume from NATS_URL', () => {
    const { config } = read({ ...REQUIRED, SMTP_URL: 'smtp://mail.example:587', NATS_URL: 'nats://a:4222,nats://b:4222', SERVICE_NAME: 'transactions-1' });

    expect(config.platform.mail).toMatchObject({ transport: 'smtp', url: 'smtp://mail.example:587' });
    expect(config.platform.messaging).toMatchObject({ transport: 'jetstream', servers: ['nats://a:4222', 'nats://b:4222'], connectionName: 'transactions-1' });
  });

  it('should start with the environment every app gets in k8s (softpos-config and softpos-secrets), ignoring what it does not read', () => {
    const { config } = read({
      ...REQUIRED,
      NODE_ENV: 'production',
      PORT: '3000',
      NATS_URL: 'nats://nats.nats.svc.cluster.local:4222',
      TRUST_PROXY: 'true',
      GATEWAY_NAMESPACE: 'demo',
      MAIL_FROM: 'SoftPOS <no-reply@softpos.example>',
      DEVICE_JWT_SECRET: 'b'.repeat(40),
      DATA_ENCRYPTION_KEY: 'Y2hlY2stZGVwbG95LWR1bW15LWtleS0zMi1ieXRlcyE=',
      SMTP_URL: 'smtps://user:secret@smtp.example.com:465',
    });

    expect({
      port: config.http.port,
      trustProxy: config.http.trustProxy,
      transport: config.platform.messaging.transport,
      mail: config.platform.mail?.transport,
    }).toEqual({
      port: 3000,
      trustProxy: true,
      transport: 'jetstream',
      mail: 'smtp',
    });
  });

  it('should refuse to start without DATABASE_URL or a way to verify tokens, and without NATS in production, naming them', () => {
    expect(() => read({ AUTH_JWT_SECRET: 'a'.repeat(40) })).toThrow(/^DATABASE_URL must be set/);
    expect(() => read({ DATABASE_URL: 'postgres://db/softpos' })).toThrow(/^AUTH_JWT_SECRET or AUTH_JWKS_URL must be set/);
    expect(() => read({ ...REQUIRED, NODE_ENV: 'production' })).toThrow(/^NATS_URL must be set/);
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
