import { ConfigError, Env, readAppConfig } from '@app/common';
import { databaseUrlWithPassword, encryptionKey, passwordForms, secretText } from '@app/testing';
import fc from 'fast-check';
import { merchantManagementConfig } from './merchant-management.config';

const REQUIRED: Env = {
  DATABASE_URL: 'postgres://db/softpos',
  AUTH_JWT_SECRET: 'a'.repeat(40),
  DEVICE_JWT_SECRET: 'd'.repeat(40),
  DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

const read = (env: Env) => readAppConfig(merchantManagementConfig, env);

describe('merchantManagementConfig', () => {
  it('should start from the required variables with the documented defaults', () => {
    const { config } = read(REQUIRED);

    expect(config.http).toEqual({ port: 3000, host: '0.0.0.0', logLevel: 'log', trustProxy: false });
    expect(config.platform).toMatchObject({ databaseUrl: 'postgres://db/softpos', gatewayNamespace: 'demo', messaging: { transport: 'in-process' } });
    expect(config.platform.mail).toMatchObject({ transport: 'file' });
    expect(config.platform.retention).toEqual({ messagesMs: 7 * 86_400_000, intervalMs: 3_600_000 });
  });

  it.each(['DATABASE_URL', 'DEVICE_JWT_SECRET', 'DATA_ENCRYPTION_KEY'])('should refuse to start without %s, naming it', (name) => {
    expect(() => read({ ...REQUIRED, [name]: undefined })).toThrow(new RegExp(`^${name} must be set`));
  });

  it('should refuse to start in production without NATS_URL', () => {
    expect(() => read({ ...REQUIRED, NODE_ENV: 'production' })).toThrow(/^NATS_URL must be set/);
  });

  it.each([
    ['PORT', 'http'],
    ['GATEWAY_NAMESPACE', 'a/b'],
    ['MESSAGE_RETENTION_DAYS', '0'],
    ['MAIL_FROM', 'SoftPOS'],
    ['TRUST_PROXY', 'yes'],
    ['LOG_LEVEL', 'verbose'],
  ])('should refuse a bad %s, naming it', (name, value) => {
    expect(() => read({ ...REQUIRED, [name]: value })).toThrow(ConfigError);
    expect(() => read({ ...REQUIRED, [name]: value })).toThrow(new RegExp(`^${name} must`));
  });

  it('should print its settings with every secret masked', () => {
    fc.assert(
      fc.property(secretText(), secretText(), encryptionKey(), databaseUrlWithPassword(), (authSecret, deviceSecret, key, database) => {
        const { settings } = read({ ...REQUIRED, AUTH_JWT_SECRET: authSecret, DEVICE_JWT_SECRET: deviceSecret, DATA_ENCRYPTION_KEY: key, DATABASE_URL: database.url });

        for (const secret of [authSecret, deviceSecret, key, ...passwordForms(database.password)]) expect(settings).not.toContain(secret);
        expect(settings).toContain('AUTH_JWT_SECRET=[set]');
        expect(settings).toContain('DEVICE_JWT_SECRET=[set]');
        expect(settings).toContain('DATA_ENCRYPTION_KEY=[set]');
      }),
    );
  });
});
