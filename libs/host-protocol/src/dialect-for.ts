import { HostMessageFormat, isHostMessageFormat, ISO_HOST_FORMATS, isIsoHostFormat, IsoHostFormat, JSON_HOST_FORMATS, JsonHostFormat } from '@app/contracts';
import { MessageSpec, PRESETS, presetsWithFiles } from '@app/iso8583';
import { HostDialect, HostProtocolError, IsoDialect, JsonDialect } from './dialect';
import { IsoHostDialect } from './iso/iso-dialect';
import { EzAioDialect } from './json/ez-aio';
import { EzWalletDialect } from './json/ez-wallet';
import { JsonHostRules, jsonHostRulesOf, loadJsonHostSpecFile } from './json/json-host-rules';
import { MpgsDialect } from './json/mpgs';
import { PomeloDialect } from './json/pomelo';

/**
 * The built-in message spec of an ISO format (`PRESETS` of `@app/iso8583`); throws
 * `HostProtocolError` when there is none. An operator's replacement spec file is spoken through
 * `dialectLookup(isoSpecsFromEnv(env))`.
 */
export function specFor(format: IsoHostFormat): MessageSpec {
  const spec = Object.prototype.hasOwnProperty.call(PRESETS, format) ? PRESETS[format] : undefined;
  if (spec === undefined) throw new HostProtocolError(format, 'no message spec of that name in @app/iso8583');
  return spec;
}

/** Message specs replacing the built-in presets of some ISO formats (an operator's spec files). */
export type IsoSpecs = Partial<Record<IsoHostFormat, MessageSpec>>;

/** The answer rules replacing the built-in spec files of some JSON formats (an operator's spec files). */
export type JsonSpecs = Partial<Record<JsonHostFormat, JsonHostRules>>;

/** The variable naming an operator's spec file for a format: `HOST_SPEC_<FORMAT>_FILE`. */
export function specFileVariable<F extends IsoHostFormat | JsonHostFormat>(format: F): `HOST_SPEC_${F}_FILE` {
  return `HOST_SPEC_${format}_FILE`;
}

/**
 * Each of `formats` whose `HOST_SPEC_<FORMAT>_FILE` an app's validated settings name, read by
 * `load`; an `Error` whose message starts with the variable's name when one cannot be.
 */
function specFilesFrom<F extends IsoHostFormat | JsonHostFormat, S>(
  settings: Readonly<Record<string, unknown>>,
  formats: readonly F[],
  load: (format: F, path: string) => S,
): Partial<Record<F, S>> {
  const specs: Partial<Record<F, S>> = {};
  for (const format of formats) {
    const name = specFileVariable(format);
    const value = settings[name];
    const path = typeof value === 'string' ? value.trim() : '';
    if (!path) continue;
    try {
      specs[format] = load(format, path);
    } catch (error) {
      throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return specs;
}

/**
 * The operator's spec files named by `HOST_SPEC_<FORMAT>_FILE` in an app's validated settings, loaded and checked
 * (`presetsWithFiles`: the file must parse, compile and carry the format's name). Throws an
 * `Error` whose message starts with the variable's name.
 */
export function isoSpecsFrom(settings: Readonly<Record<string, unknown>>): IsoSpecs {
  return specFilesFrom(settings, ISO_HOST_FORMATS, (format, path) => presetsWithFiles({ [format]: path })[format]);
}

/**
 * The operator's JSON spec files named by `HOST_SPEC_<FORMAT>_FILE` (MPGS_AP, POMELO_JSON, EZ_AIO,
 * EZ_WALLET) in an app's validated settings, loaded and checked (`loadJsonHostSpecFile`: its name
 * must be the format; keys left out take the built-in file's values). Throws an `Error` whose
 * message starts with the variable's name.
 */
export function jsonSpecsFrom(settings: Readonly<Record<string, unknown>>): JsonSpecs {
  return specFilesFrom(settings, JSON_HOST_FORMATS, (format, path) => loadJsonHostSpecFile(format, path).host);
}

function create(format: HostMessageFormat, specs: IsoSpecs, jsonSpecs: JsonSpecs): HostDialect {
  if (isIsoHostFormat(format)) return new IsoHostDialect(format, specs[format] ?? specFor(format));
  switch (format) {
    case 'MPGS_AP':
      return new MpgsDialect(jsonSpecs[format] ?? jsonHostRulesOf(format));
    case 'POMELO_JSON':
      return new PomeloDialect(jsonSpecs[format] ?? jsonHostRulesOf(format));
    case 'EZ_AIO':
      return new EzAioDialect(jsonSpecs[format] ?? jsonHostRulesOf(format));
    case 'EZ_WALLET':
      return new EzWalletDialect(jsonSpecs[format] ?? jsonHostRulesOf(format));
    case 'MOCK':
      throw new HostProtocolError(format, 'MOCK has no wire format: the connector answers it in process');
    default:
      throw new HostProtocolError(String(format), 'unknown host message format');
  }
}

/**
 * A `dialectFor` whose ISO formats speak `specs` and JSON formats `jsonSpecs` where given, the
 * built-in spec files otherwise (one instance per format, stateless).
 */
export function dialectLookup(specs: IsoSpecs = {}, jsonSpecs: JsonSpecs = {}): (format: HostMessageFormat) => HostDialect {
  const dialects = new Map<string, HostDialect>();
  return (format) => {
    if (!isHostMessageFormat(format)) throw new HostProtocolError(String(format), 'unknown host message format');
    let dialect = dialects.get(format);
    if (dialect === undefined) {
      dialect = create(format, specs, jsonSpecs);
      dialects.set(format, dialect);
    }
    return dialect;
  };
}

/**
 * The dialect of a host format with the built-in presets. Throws `HostProtocolError` for `MOCK`
 * (answered in process by the connector) and for any name that is not a format.
 */
export const dialectFor: (format: HostMessageFormat) => HostDialect = dialectLookup();

/** `dialectFor` narrowed to the ISO family; throws `HostProtocolError` for a JSON format. */
export function isoDialectFor(format: HostMessageFormat): IsoDialect {
  const dialect = dialectFor(format);
  if (dialect.kind !== 'iso') throw new HostProtocolError(format, 'not an ISO 8583 format');
  return dialect;
}

/** `dialectFor` narrowed to the JSON family; throws `HostProtocolError` for an ISO format. */
export function jsonDialectFor(format: HostMessageFormat): JsonDialect {
  const dialect = dialectFor(format);
  if (dialect.kind !== 'json') throw new HostProtocolError(format, 'not a JSON format');
  return dialect;
}

/**
 * What acknowledges a reversal in a format, as its spec file says (`host.reversalAcknowledgedCodes`
 * of an ISO spec; a JSON spec's approving words, and its declining words with
 * `reversalAcknowledgedCodes`; a code other than 00, or a declining word, only while no earlier
 * attempt was refused), in words for the reversal worker's log.
 */
export function reversalAcknowledgementOf(dialect: HostDialect): string {
  const unlessRefused = ' while no earlier attempt was refused';
  if (dialect.kind === 'iso') {
    const duplicates = dialect.spec.host.reversalAcknowledgedCodes.filter((code) => code !== '00');
    return `${dialect.format} acknowledges a reversal with 00${duplicates.length === 0 ? '' : `, or ${duplicates.join(', ')}${unlessRefused}`}`;
  }
  const { approvedStatuses, declinedStatuses, reversalAcknowledgedCodes } = dialect.rules;
  const declined = reversalAcknowledgedCodes.length === 0 ? '' : `, or ${declinedStatuses.join(' / ')} with ${reversalAcknowledgedCodes.join(', ')}${unlessRefused}`;
  return `${dialect.format} acknowledges a reversal with ${approvedStatuses.join(' / ')}${declined}`;
}
