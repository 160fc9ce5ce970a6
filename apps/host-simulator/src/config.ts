import { ISO_HOST_FORMATS, IsoHostFormat } from '@app/contracts';
import { DEVELOPMENT_ZMK, isoSpecsFromEnv, parseZmk } from '@app/host-protocol';
import { HostSimulatorOptions } from './host-simulator';

/** Ports the simulator takes when run on its own and the environment names none. */
export const DEFAULT_PORTS: Readonly<Record<IsoHostFormat | 'HTTP', number>> = {
  ISO8583: 8583,
  S2M_8583: 8584,
  MASARAT_8583: 8585,
  CASHPLUS_8583: 8586,
  HTTP: 8590,
};

function port(name: string, value: string | undefined, fallback: number): number | undefined {
  if (value === undefined || value.trim() === '') return fallback;
  if (value.trim().toLowerCase() === 'off') return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535) throw new Error(`${name} must be a port from 0 to 65535, or off`);
  return number;
}

/**
 * Options for the stand-alone simulator from the environment:
 * HOST_SIM_<FORMAT>_PORT (ISO8583, S2M_8583, MASARAT_8583, CASHPLUS_8583; `off` to leave one out,
 * 0 for a free port), HOST_SIM_HTTP_PORT, HOST_SIM_BIND (default 127.0.0.1), HOST_ZMK (32 or 48
 * hex digits) and HOST_SPEC_<FORMAT>_FILE (the connector's spec file of a format, so both speak it). Without HOST_ZMK the development key is used, except under NODE_ENV=production,
 * which refuses to start.
 */
export function simulatorOptionsFromEnv(env: NodeJS.ProcessEnv): { options: HostSimulatorOptions; warnings: string[] } {
  const warnings: string[] = [];
  const isoPorts: Partial<Record<IsoHostFormat, number>> = {};
  for (const format of ISO_HOST_FORMATS) {
    const name = `HOST_SIM_${format}_PORT`;
    const value = port(name, env[name], DEFAULT_PORTS[format]);
    if (value !== undefined) isoPorts[format] = value;
  }
  const httpPort = port('HOST_SIM_HTTP_PORT', env.HOST_SIM_HTTP_PORT, DEFAULT_PORTS.HTTP);
  if (httpPort === undefined) throw new Error('HOST_SIM_HTTP_PORT cannot be off: /stats and the JSON hosts live there');
  let zmk: Buffer;
  if (env.HOST_ZMK !== undefined && env.HOST_ZMK.trim() !== '') {
    zmk = parseZmk(env.HOST_ZMK);
  } else if (env.NODE_ENV === 'production') {
    throw new Error('HOST_ZMK is required when NODE_ENV=production (the development key is public)');
  } else {
    zmk = DEVELOPMENT_ZMK;
    warnings.push('HOST_ZMK is not set: using the public development zone master key');
  }
  const specs = isoSpecsFromEnv(env);
  const options: HostSimulatorOptions = { host: env.HOST_SIM_BIND?.trim() || '127.0.0.1', isoPorts, httpPort, zmk };
  if (Object.keys(specs).length > 0) options.specs = specs;
  return { options, warnings };
}
