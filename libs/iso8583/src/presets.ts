import { readFileSync } from 'node:fs';
import cashplus8583Json from '../specs/cashplus8583.json';
import iso8583Json from '../specs/iso8583.json';
import masarat8583Json from '../specs/masarat8583.json';
import s2m8583Json from '../specs/s2m8583.json';
import { Iso8583Error, Iso8583ErrorCode } from './errors';
import { compileSpec, MessageSpec } from './spec';

/** ISO 8583:1987: ASCII MTI and numerics, binary bitmap, field 55 LLL binary BER-TLV, 2-byte binary length header (specs/iso8583.json). */
export const ISO8583: MessageSpec = compileSpec(iso8583Json);
/** BCD MTI and numerics with BCD length prefixes, binary bitmap, 2-byte binary length + TPDU (specs/s2m8583.json). */
export const S2M_8583: MessageSpec = compileSpec(s2m8583Json);
/** All printable: ASCII MTI and numerics, ASCII hex bitmap and b fields, 4-digit ASCII length header (specs/masarat8583.json). */
export const MASARAT_8583: MessageSpec = compileSpec(masarat8583Json);
/** BCD MTI, ASCII numerics, binary bitmap, binary LLL for b fields, 2-byte BCD length header (specs/cashplus8583.json). */
export const CASHPLUS_8583: MessageSpec = compileSpec(cashplus8583Json);

/** The built-in specs by host format name (`hostMessageFormat` / `connMessageFormat`). */
export const PRESETS: Readonly<Record<string, MessageSpec>> = Object.freeze({ ISO8583, S2M_8583, MASARAT_8583, CASHPLUS_8583 });

/**
 * Reads and compiles a spec file (the JSON format of `specs/`, see the README), so an operator
 * can run a variant with the acquirer's own definition. Throws `Iso8583Error` (BAD_SPEC) naming
 * the file when it cannot be read or parsed, and whatever `compileSpec` finds wrong in it.
 */
export function loadSpecFile(path: string): MessageSpec {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Iso8583Error(Iso8583ErrorCode.BadSpec, `spec file ${path}`, -1, error instanceof Error ? error.message : String(error));
  }
  return compileSpec(json);
}

/**
 * The built-in specs with some replaced by files: `{ S2M_8583: '/etc/softpos/s2m.json' }`. A
 * replacing file must carry the name of the format it replaces, so a file put in the wrong
 * place is refused rather than silently speaking another host's dialect.
 */
export function presetsWithFiles(files: Readonly<Record<string, string>>): Readonly<Record<string, MessageSpec>> {
  const presets: Record<string, MessageSpec> = { ...PRESETS };
  for (const [name, path] of Object.entries(files)) {
    const spec = loadSpecFile(path);
    if (spec.name !== name) throw new Iso8583Error(Iso8583ErrorCode.BadSpec, `spec file ${path}`, -1, `its name is ${spec.name}, not ${name}`);
    presets[name] = spec;
  }
  return Object.freeze(presets);
}
