import { DEVELOPMENT_ZMK } from '@app/host-protocol';
import { Env, readAppConfig } from '@app/common';
import fc from 'fast-check';
import { zoneMasterKey } from '@app/testing';
import { hostSimulatorConfig } from './config';

const simulatorOptionsFromEnv = (env: Env) => readAppConfig(hostSimulatorConfig, env).config;

describe('hostSimulatorConfig', () => {
  it('should serve every format on its default port, on loopback, with the development key and a warning', () => {
    const { options, warnings } = simulatorOptionsFromEnv({});
    expect(options).toEqual({
      host: '127.0.0.1',
      isoPorts: { ISO8583: 8583, S2M_8583: 8584, MASARAT_8583: 8585, CASHPLUS_8583: 8586 },
      httpPort: 8590,
      zmk: DEVELOPMENT_ZMK,
    });
    expect(warnings).toEqual(['HOST_ZMK is not set: using the public development zone master key']);
  });

  it('should take ports, bind address and ZMK from the environment, leaving out a format set to off', () => {
    const { options, warnings } = simulatorOptionsFromEnv({
      HOST_SIM_ISO8583_PORT: '0',
      HOST_SIM_S2M_8583_PORT: 'off',
      HOST_SIM_HTTP_PORT: '9000',
      HOST_SIM_BIND: '0.0.0.0',
      HOST_ZMK: '00112233445566778899AABBCCDDEEFF',
    });
    expect(options.isoPorts).toEqual({ ISO8583: 0, MASARAT_8583: 8585, CASHPLUS_8583: 8586 });
    expect(options).toMatchObject({ host: '0.0.0.0', httpPort: 9000 });
    expect(options.zmk?.toString('hex')).toBe('00112233445566778899aabbccddeeff');
    expect(warnings).toEqual([]);
  });

  it('should refuse to start in production without HOST_ZMK', () => {
    expect(() => simulatorOptionsFromEnv({ NODE_ENV: 'production' })).toThrow(/HOST_ZMK is required/);
  });

  it('should refuse a port that is not a port', () => {
    expect(() => simulatorOptionsFromEnv({ HOST_SIM_CASHPLUS_8583_PORT: '70000' })).toThrow('HOST_SIM_CASHPLUS_8583_PORT must be a port from 0 to 65535, or off');
    expect(() => simulatorOptionsFromEnv({ HOST_SIM_HTTP_PORT: 'off' })).toThrow(/cannot be off/);
  });

  it('should refuse a ZMK that is not 32 or 48 hex digits', () => {
    expect(() => simulatorOptionsFromEnv({ HOST_ZMK: 'secret' })).toThrow(/32 \(double length\)/);
  });

  it('should print its settings with HOST_ZMK masked', () => {
    fc.assert(
      fc.property(zoneMasterKey(), (zmk) => {
        const { settings } = readAppConfig(hostSimulatorConfig, { HOST_ZMK: zmk });

        expect(settings).toContain('HOST_ZMK=[set]');
        expect(settings.toLowerCase()).not.toContain(zmk.toLowerCase());
      }),
    );
  });
});
