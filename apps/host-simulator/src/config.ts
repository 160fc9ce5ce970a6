import { ConfigError, custom, defineAppConfig, envSchema, isProduction, nodeEnvVariables, text, ValuesOf, Variable } from '@app/common';
import { ISO_HOST_FORMATS, IsoHostFormat } from '@app/contracts';
import { DEVELOPMENT_ZMK, isoSpecsFrom, parseZmk, specFileVariable } from '@app/host-protocol';
import { HostSimulatorOptions } from './host-simulator';

/** Ports the simulator takes when run on its own and the environment names none. */
export const DEFAULT_PORTS: Readonly<Record<IsoHostFormat | 'HTTP', number>> = {
  ISO8583: 8583,
  S2M_8583: 8584,
  MASARAT_8583: 8585,
  CASHPLUS_8583: 8586,
  HTTP: 8590,
};

/** A port from 0 (a free one) to 65535, or `off` (undefined); `fallback` when unset. */
function port(fallback: number): Variable<number | undefined> {
  return custom((value) => {
    if (value === undefined) return fallback;
    if (value.trim().toLowerCase() === 'off') return undefined;
    const number = Number(value);
    if (value.trim() === '' || !Number.isInteger(number) || number < 0 || number > 65535) throw new Error('must be a port from 0 to 65535, or off');
    return number;
  });
}

type PortVariables = Record<`HOST_SIM_${IsoHostFormat}_PORT` | 'HOST_SIM_HTTP_PORT', Variable<number | undefined>>;

/**
 * The simulator's variables: HOST_SIM_<FORMAT>_PORT (ISO8583, S2M_8583, MASARAT_8583,
 * CASHPLUS_8583; `off` to leave one out, 0 for a free port), HOST_SIM_HTTP_PORT, HOST_SIM_BIND
 * (default 127.0.0.1), HOST_ZMK (32 or 48 hex digits) and HOST_SPEC_<FORMAT>_FILE (the
 * connector's spec file of a format, so both speak it). `defaultPorts`: {@link DEFAULT_PORTS}
 * on its own; standalone takes free ports.
 */
export function simulatorVariables(defaultPorts: (name: IsoHostFormat | 'HTTP') => number) {
  const ports = Object.fromEntries(
    [...ISO_HOST_FORMATS, 'HTTP' as const].map((format) => [`HOST_SIM_${format}_PORT`, port(defaultPorts(format))]),
  ) as PortVariables;
  const specFiles = Object.fromEntries(ISO_HOST_FORMATS.map((format) => [specFileVariable(format), text()])) as Record<
    `HOST_SPEC_${IsoHostFormat}_FILE`,
    Variable<string | undefined>
  >;
  return {
    ...ports,
    ...specFiles,
    HOST_SIM_BIND: text('127.0.0.1'),
    HOST_ZMK: custom((value) => (value === undefined ? undefined : parseZmk(value)), 'secret'),
  };
}

const ownVariables = simulatorVariables((format) => DEFAULT_PORTS[format]);

/**
 * Checks the simulator's settings together. Without HOST_ZMK the development key is used (with
 * a warning), except under NODE_ENV=production, which refuses to start.
 */
export function simulatorOptionsFrom(values: ValuesOf<typeof ownVariables>, production: boolean): { options: HostSimulatorOptions; warnings: string[] } {
  const warnings: string[] = [];
  const isoPorts: Partial<Record<IsoHostFormat, number>> = {};
  for (const format of ISO_HOST_FORMATS) {
    const value = values[`HOST_SIM_${format}_PORT`];
    if (value !== undefined) isoPorts[format] = value;
  }
  const httpPort = values.HOST_SIM_HTTP_PORT;
  if (httpPort === undefined) throw new ConfigError(['HOST_SIM_HTTP_PORT cannot be off: /stats and the JSON hosts live there']);
  let zmk: Buffer;
  if (values.HOST_ZMK) {
    zmk = values.HOST_ZMK;
  } else if (production) {
    throw new ConfigError(['HOST_ZMK is required when NODE_ENV=production (the development key is public)']);
  } else {
    zmk = DEVELOPMENT_ZMK;
    warnings.push('HOST_ZMK is not set: using the public development zone master key');
  }
  const options: HostSimulatorOptions = { host: values.HOST_SIM_BIND.trim(), isoPorts, httpPort, zmk };
  let specs;
  try {
    specs = isoSpecsFrom(values);
  } catch (error) {
    throw new ConfigError([error instanceof Error ? error.message : String(error)]);
  }
  if (Object.keys(specs).length > 0) options.specs = specs;
  return { options, warnings };
}

/** The simulator run on its own (`npm run start:host-simulator`). */
export const hostSimulatorConfig = defineAppConfig({
  name: 'host-simulator',
  schema: envSchema({ ...nodeEnvVariables, ...ownVariables }),
  build: (values) => simulatorOptionsFrom(values, isProduction(values)),
});
