import { EncodingName, encodings, ContentEncoding } from './encodings';
import { Iso8583Error, Iso8583ErrorCode } from './errors';
import { checkCharset, defaultPadding, FieldType, PadSide } from './field-type';
import { LengthPrefix, lengthPrefix, LengthType, PrefixEncodingName } from './length-prefix';

/** One data element as written in a spec file. `length` is the fixed length or the maximum, in characters, digits or (for `b`) bytes. */
export interface FieldSpecJson {
  description: string;
  type: FieldType;
  length: number;
  lengthType: LengthType;
  encoding: EncodingName;
  /** Required unless `lengthType` is `fixed`. */
  prefixEncoding?: PrefixEncodingName;
  /** Overrides the type's default padding of short fixed values. */
  pad?: { side: PadSide; char?: string };
}

/** A message format as data: a JSON file per format (see `specs/`). */
export interface MessageSpecJson {
  name: string;
  description?: string;
  mti: { encoding: 'ascii' | 'ebcdic' | 'bcd' };
  bitmap: { encoding: 'binary' | 'hex' };
  /** Network header around each message; only the 2-byte binary length exists so far. */
  header?: { type: 'binary-length'; size: 2 };
  fields: Record<string, FieldSpecJson>;
}

/** A field ready to use: its spec plus the encoder and length prefix it names. */
export interface CompiledField {
  readonly number: number;
  readonly spec: FieldSpecJson;
  readonly encoding: ContentEncoding;
  readonly prefix: LengthPrefix;
  readonly pad: { side: PadSide; char: string };
}

/** A checked spec, made by `compileSpec`; `pack` and `unpack` take this. */
export interface MessageSpec {
  readonly name: string;
  readonly mtiEncoding: ContentEncoding;
  readonly bitmapEncoding: 'binary' | 'hex';
  readonly fields: ReadonlyMap<number, CompiledField>;
}

const FIELD_TYPES: readonly FieldType[] = ['n', 'an', 'ans', 'b', 'z'];
const LENGTH_TYPES: readonly LengthType[] = ['fixed', 'LL', 'LLL', 'LLLL'];
const PREFIX_ENCODINGS: readonly PrefixEncodingName[] = ['ascii', 'ebcdic', 'bcd', 'binary'];
const MAX_BY_LENGTH_TYPE: Record<LengthType, number> = { fixed: 65535, LL: 99, LLL: 999, LLLL: 9999 };

function specError(path: string, detail: string): Iso8583Error {
  return new Iso8583Error(Iso8583ErrorCode.BadSpec, path, -1, detail);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compileField(number: number, raw: unknown): CompiledField {
  const path = `spec field ${number}`;
  if (!isRecord(raw)) throw specError(path, 'must be an object');
  const { type, length, lengthType, encoding, prefixEncoding, pad } = raw as Partial<FieldSpecJson>;
  if (!FIELD_TYPES.includes(type as FieldType)) throw specError(path, `unknown type ${String(type)}`);
  if (!LENGTH_TYPES.includes(lengthType as LengthType)) throw specError(path, `unknown lengthType ${String(lengthType)}`);
  const fieldType = type as FieldType;
  const kind = lengthType as LengthType;
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 1 || length > MAX_BY_LENGTH_TYPE[kind]) {
    throw specError(path, `length must be an integer from 1 to ${MAX_BY_LENGTH_TYPE[kind]}`);
  }
  const contentEncoding = encodings[encoding as EncodingName];
  if (contentEncoding === undefined || !Object.prototype.hasOwnProperty.call(encodings, encoding as string)) throw specError(path, `unknown encoding ${String(encoding)}`);
  if ((fieldType === 'b') === contentEncoding.textual) throw specError(path, `encoding ${contentEncoding.name} does not fit type ${fieldType}`);
  if (contentEncoding.name === 'bcd' && fieldType !== 'n') throw specError(path, 'BCD content is supported for n fields only');
  if (kind !== 'fixed' && !PREFIX_ENCODINGS.includes(prefixEncoding as PrefixEncodingName)) throw specError(path, 'a variable field needs a prefixEncoding');
  const padding = pad === undefined ? defaultPadding(fieldType) : { side: pad.side, char: pad.char ?? '' };
  if (padding.side !== 'none' && padding.char.length !== 1) throw specError(path, 'padding needs exactly one character');
  if (padding.side !== 'none') checkCharset(fieldType, padding.char, path, -1);
  return {
    number,
    spec: raw as unknown as FieldSpecJson,
    encoding: contentEncoding,
    prefix: lengthPrefix(kind, (prefixEncoding ?? 'ascii') as PrefixEncodingName),
    pad: padding,
  };
}

/** Checks a spec (usually parsed JSON) and prepares its encoders; throws `Iso8583Error` (BAD_SPEC) on any inconsistency. */
export function compileSpec(raw: unknown): MessageSpec {
  if (!isRecord(raw)) throw specError('spec', 'must be an object');
  const json = raw as Partial<MessageSpecJson>;
  if (typeof json.name !== 'string') throw specError('spec', 'needs a name');
  const mtiEncoding = json.mti?.encoding;
  if (mtiEncoding !== 'ascii' && mtiEncoding !== 'ebcdic' && mtiEncoding !== 'bcd') throw specError('spec mti', 'encoding must be ascii, ebcdic or bcd');
  const bitmapEncoding = json.bitmap?.encoding;
  if (bitmapEncoding !== 'binary' && bitmapEncoding !== 'hex') throw specError('spec bitmap', 'encoding must be binary or hex');
  if (!isRecord(json.fields)) throw specError('spec fields', 'must be an object');
  const fields = new Map<number, CompiledField>();
  for (const [key, value] of Object.entries(json.fields)) {
    const number = Number(key);
    if (!Number.isInteger(number) || number < 2 || number > 128 || number === 65) throw specError(`spec field ${key}`, 'field numbers run from 2 to 128 (1 and 65 are bitmaps)');
    fields.set(number, compileField(number, value));
  }
  return { name: json.name, mtiEncoding: encodings[mtiEncoding], bitmapEncoding, fields };
}
