import { ConfigError, Env, envSchema } from '@app/common';
import { BUILT_IN_JSON_SPECS } from '@app/host-protocol';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostConnectorConfigFrom, hostConnectorVariables } from './host-connector.config';

/** The connector's settings read from `env` and checked together, as its app and standalone do. */
function hostConnectorConfigFromEnv(options: { standalone: boolean; developmentZmk?: Buffer; env: Env }) {
  const values = envSchema(hostConnectorVariables).read(options.env);
  return hostConnectorConfigFrom(values, { standalone: options.standalone, production: options.env.NODE_ENV === 'production', developmentZmk: options.developmentZmk });
}

const ZMK = '0123456789ABCDEFFEDCBA9876543210';
const developmentZmk = Buffer.alloc(16, 1);

describe('the host connector settings', () => {
  it('should read a distributed configuration', () => {
    const config = hostConnectorConfigFromEnv({
      standalone: false,
      env: {
        HOST_ZMK: ZMK,
        HOST_ALLOWLIST: 'acq.example.com',
        HOST_DEFAULT_ISO8583_URL: 'tcp://acq.example.com:8583',
        HOST_TIMEOUT_MS: '15000',
        HOST_ECHO_INTERVAL_MS: '0',
      },
    });

    expect(config).toMatchObject({ timeoutMs: 15000, echoIntervalMs: 0, defaultUrls: { ISO8583: 'tcp://acq.example.com:8583' } });
    expect(config.zmk.toString('hex').toUpperCase()).toBe(ZMK);
    expect(config.allowList.allows('127.0.0.1', 8583)).toBe(false);
  });

  it('should refuse to start a distributed connector without HOST_ZMK', () => {
    expect(() => hostConnectorConfigFromEnv({ standalone: false, developmentZmk, env: {} })).toThrow('HOST_ZMK must be set');
  });

  it('should use the development ZMK and allow loopback in standalone outside production', () => {
    const config = hostConnectorConfigFromEnv({ standalone: true, developmentZmk, env: {} });

    expect(config.zmk).toEqual(developmentZmk);
    expect(config.allowList.allows('127.0.0.1', 8583)).toBe(true);
  });

  it('should read a JSON format’s spec file, and refuse at start one that is not that format’s, naming the variable', () => {
    const directory = mkdtempSync(join(tmpdir(), 'hc-config-'));
    try {
      const ezAio = join(directory, 'ez-aio.json');
      writeFileSync(ezAio, JSON.stringify({ name: 'EZ_AIO', host: { unknownOutcomeCodes: ['68'] } }));

      const config = hostConnectorConfigFromEnv({ standalone: true, developmentZmk, env: { HOST_SPEC_EZ_AIO_FILE: ezAio } });

      expect(config.jsonSpecs).toEqual({ EZ_AIO: { ...BUILT_IN_JSON_SPECS.EZ_AIO.host, unknownOutcomeCodes: ['68'] } });
      const refused = () => hostConnectorConfigFromEnv({ standalone: true, developmentZmk, env: { HOST_SPEC_MPGS_AP_FILE: ezAio } });
      expect(refused).toThrow(ConfigError);
      expect(refused).toThrow(/HOST_SPEC_MPGS_AP_FILE: .*its name is EZ_AIO, not MPGS_AP/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('should not fall back to the development ZMK in production, even in standalone', () => {
    expect(() => hostConnectorConfigFromEnv({ standalone: true, developmentZmk, env: { NODE_ENV: 'production' } })).toThrow(ConfigError);
  });

  it.each([
    [{ HOST_ZMK: 'abc' }, 'HOST_ZMK must be 32 or 48 hex digits'],
    [{ HOST_ZMK: ZMK, HOST_TIMEOUT_MS: 'soon' }, 'HOST_TIMEOUT_MS must be a whole number, got "soon"'],
    [{ HOST_ZMK: ZMK, HOST_TIMEOUT_MS: '99' }, 'HOST_TIMEOUT_MS must be from 100 to 60000, got 99'],
    [{ HOST_ZMK: ZMK, HOST_ALLOWLIST: '10.0.0.0/40' }, 'HOST_ALLOWLIST entry "10.0.0.0/40"'],
    [
      { HOST_ZMK: ZMK, HOST_ALLOWLIST: 'acq.example.com', HOST_DEFAULT_ISO8583_URL: 'http://acq.example.com' },
      'HOST_DEFAULT_ISO8583_URL: ISO8583 is ISO 8583 over TCP',
    ],
    [
      { HOST_ZMK: ZMK, HOST_ALLOWLIST: 'acq.example.com', HOST_DEFAULT_EZ_AIO_URL: 'https://other.example.com' },
      'HOST_DEFAULT_EZ_AIO_URL: https://other.example.com is not in HOST_ALLOWLIST',
    ],
    [{ HOST_ZMK: ZMK, HOST_DEFAULT_MOCK_URL: 'tcp://x:1' }, 'HOST_DEFAULT_MOCK_URL: MOCK is answered in process'],
    [{ HOST_ZMK: ZMK, HOST_REVERSAL_BACKOFF_MS: '5000', HOST_REVERSAL_BACKOFF_MAX_MS: '1000' }, 'HOST_REVERSAL_BACKOFF_MAX_MS must be from 5000'],
  ])('should refuse %j with a message naming the variable', (env, message) => {
    expect(() => hostConnectorConfigFromEnv({ standalone: false, env })).toThrow(message);
  });
});
