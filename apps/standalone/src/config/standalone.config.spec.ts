import { Env, readAppConfig, STANDALONE_DEV_SECRET } from '@app/common';
import { encryptionKey, secretText, zoneMasterKey } from '@app/testing';
import fc from 'fast-check';
import { standaloneConfig } from './standalone.config';

const read = (env: Env) => readAppConfig(standaloneConfig, env);

describe('standaloneConfig', () => {
  it('should start on a fresh machine with nothing set, on development secrets', () => {
    const { config, settings } = read({});

    expect(config.http).toEqual({ port: 3000, host: '127.0.0.1', logLevel: 'log', trustProxy: false });
    expect(config.platform.auth.secret).toBe(STANDALONE_DEV_SECRET);
    expect(config.platform.messaging).toEqual({ transport: 'in-process' });
    expect(config.hosts.values).toMatchObject({ HOST_SIMULATOR: 'on', HOST_SIM_ISO8583_PORT: 0, HOST_SIM_HTTP_PORT: 0 });
    expect(settings).toContain('AUTH_JWT_SECRET=[unset]');
  });

  it('should let webhooks reach a receiver on this machine outside production, and nothing private in production', () => {
    const development = read({}).config.gateway.webhooks.allowList;
    const production = read({
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: 'a'.repeat(40),
      DEVICE_JWT_SECRET: 'd'.repeat(40),
      DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      HOST_ZMK: '0123456789ABCDEFFEDCBA9876543210',
    }).config.gateway.webhooks.allowList;

    expect([development.allows('127.0.0.1', 4000), development.allows('localhost', 4000), development.allows('10.0.0.1', 80)]).toEqual([true, true, false]);
    expect([production.allows('127.0.0.1', 4000), production.allows('localhost', 4000)]).toEqual([false, false]);
  });

  it.each(['DEVICE_JWT_SECRET', 'DATA_ENCRYPTION_KEY', 'HOST_ZMK'])('should refuse development secrets in production, naming %s', (name) => {
    const production: Env = {
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: 'a'.repeat(40),
      DEVICE_JWT_SECRET: 'd'.repeat(40),
      DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      HOST_ZMK: '0123456789ABCDEFFEDCBA9876543210',
    };
    expect(() => read(production)).not.toThrow();
    expect(() => read({ ...production, [name]: undefined })).toThrow(new RegExp(`^${name} must be set`));
  });

  describe('listening beyond loopback (issue 14, class 13)', () => {
    const secrets = {
      AUTH_JWT_SECRET: 'a'.repeat(40),
      DEVICE_JWT_SECRET: 'd'.repeat(40),
      DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      HOST_ZMK: '0123456789ABCDEFFEDCBA9876543210',
    };
    const beyondLoopback = fc.oneof(
      fc.constantFrom('0.0.0.0', '::', 'example.com'),
      fc.ipV4().filter((address) => !address.startsWith('127.')),
      fc.ipV6().filter((address) => !/^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(address)),
    );
    const loopback = fc.oneof(
      fc.constantFrom('localhost', '::1', '[::1]'),
      fc.ipV4().map((address) => `127.${address.split('.').slice(1).join('.')}`),
    );

    it('should refuse to start on any development secret, naming every one left unset', () => {
      fc.assert(
        fc.property(beyondLoopback, fc.subarray(Object.keys(secrets) as (keyof typeof secrets)[], { minLength: 1 }), (host, unset) => {
          const env: Record<string, string | undefined> = { ...secrets, HOST: host };
          for (const name of unset) delete env[name];
          let message = '';
          try {
            read(env);
          } catch (error) {
            message = (error as Error).message;
          }
          expect(message).toContain(`HOST=${host} listens beyond loopback`);
          for (const name of Object.keys(secrets)) expect(message.includes(name)).toBe(unset.includes(name as keyof typeof secrets));
        }),
      );
    });

    it('should start beyond loopback with every secret set, and on loopback with none', () => {
      fc.assert(
        fc.property(beyondLoopback, loopback, (host, local) => {
          expect(read({ ...secrets, HOST: host }).config.http.host).toBe(host);
          expect(read({ HOST: local }).config.platform.auth.secret).toBe(STANDALONE_DEV_SECRET);
        }),
      );
    });
  });

  it.each([
    ['HOST_SIMULATOR', 'no'],
    ['HOST_SIM_MASARAT_8583_PORT', '99999'],
    ['HOST_TIMEOUT_MS', '5'],
    ['PORT', '-1'],
  ])('should refuse a bad %s, naming it', (name, value) => {
    expect(() => read({ [name]: value })).toThrow(new RegExp(`^${name} must`));
  });

  it("should hold the gateway's TRANSACTION_NOTHING_SENT_AFTER_MS to the connector's own timing, read once for both", () => {
    expect(read({}).config.gateway.transactions?.nothingSentAfterMs).toBe(300_000);
    expect(() => read({ HOST_RECOVERY_GRACE_MS: '290000' })).toThrow(/^TRANSACTION_NOTHING_SENT_AFTER_MS \(300000\) must exceed .* = 315000/);
    expect(read({ HOST_RECOVERY_GRACE_MS: '290000', TRANSACTION_NOTHING_SENT_AFTER_MS: '400000' }).config.gateway.transactions?.nothingSentAfterMs).toBe(
      400_000,
    );
  });

  it('should print its settings with every secret masked', () => {
    fc.assert(
      fc.property(secretText(), secretText(), encryptionKey(), zoneMasterKey(), (authSecret, deviceSecret, key, zmk) => {
        const { settings } = read({ AUTH_JWT_SECRET: authSecret, DEVICE_JWT_SECRET: deviceSecret, DATA_ENCRYPTION_KEY: key, HOST_ZMK: zmk });

        for (const hidden of [authSecret, deviceSecret, key, zmk]) expect(settings).not.toContain(hidden);
        expect(settings).toContain('HOST_ZMK=[set]');
      }),
    );
  });
});
