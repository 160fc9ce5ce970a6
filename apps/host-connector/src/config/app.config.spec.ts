import { Env, readAppConfig } from '@app/common';
import { databaseUrlWithPassword, encryptionKey, passwordForms, zoneMasterKey } from '@app/testing';
import fc from 'fast-check';
import { hostConnectorAppConfig } from './app.config';

const REQUIRED: Env = {
  DATABASE_URL: 'postgres://db/softpos',
  NATS_URL: 'nats://nats:4222',
  DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  HOST_ZMK: '0123456789ABCDEFFEDCBA9876543210',
};

const read = (env: Env) => readAppConfig(hostConnectorAppConfig, env);

describe('hostConnectorAppConfig', () => {
  it('should start without token secrets or a mailer, since it serves no API and sends no mail', () => {
    const { config } = read({ ...REQUIRED, NODE_ENV: 'production' });

    expect(config.platform.auth).toBeUndefined();
    expect(config.platform.mail).toBeUndefined();
    expect(config.platform.messaging).toMatchObject({ transport: 'jetstream', servers: ['nats://nats:4222'] });
    expect(config.connector.timeoutMs).toBe(20_000);
  });

  it.each(['DATABASE_URL', 'NATS_URL', 'DATA_ENCRYPTION_KEY', 'HOST_ZMK'])('should refuse to start without %s, naming it', (name) => {
    expect(() => read({ ...REQUIRED, [name]: undefined })).toThrow(new RegExp(`^${name} must be set`));
  });

  it.each([
    ['HOST_ECHO_MAX_MISSES', '0'],
    ['HOST_ALLOW_LOOPBACK', 'maybe'],
    ['HOST_ZMK', 'secret'],
    ['NATS_URL', ' '],
  ])('should refuse a bad %s, naming it', (name, value) => {
    expect(() => read({ ...REQUIRED, [name]: value })).toThrow(new RegExp(`^${name} must`));
  });

  it('should print its settings with the keys and the database password masked', () => {
    fc.assert(
      fc.property(zoneMasterKey(), encryptionKey(), databaseUrlWithPassword(), (zmk, key, database) => {
        const { settings } = read({ ...REQUIRED, HOST_ZMK: zmk, DATA_ENCRYPTION_KEY: key, DATABASE_URL: database.url });

        for (const hidden of [zmk, zmk.toUpperCase(), key, ...passwordForms(database.password)]) expect(settings).not.toContain(hidden);
        expect(settings).toContain('HOST_ZMK=[set]');
        expect(settings).toContain('DATA_ENCRYPTION_KEY=[set]');
      }),
    );
  });
});
