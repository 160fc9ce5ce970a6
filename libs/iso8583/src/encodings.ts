import { Iso8583Error, Iso8583ErrorCode } from './errors';

/** Names of the content encodings a spec may use. */
export type EncodingName = 'ascii' | 'ebcdic' | 'bcd' | 'binary' | 'hex';

/**
 * Turns a field value into bytes and back. `units` is the field's length in its own units
 * (characters, digits or bytes); `byteLength` says how many wire bytes that many units take.
 */
export interface ContentEncoding {
  readonly name: EncodingName;
  /** True when values are strings (characters or digits), false when they are raw bytes. */
  readonly textual: boolean;
  byteLength(units: number): number;
  encode(value: string | Buffer, fieldPath: string): Buffer;
  /** Decodes exactly `units` units from `bytes` (already sliced to `byteLength(units)`). */
  decode(bytes: Buffer, units: number, fieldPath: string, offset: number): string | Buffer;
}

function asText(value: string | Buffer, fieldPath: string): string {
  if (typeof value !== 'string') throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, -1, 'expected a string value');
  return value;
}

function asBytes(value: string | Buffer, fieldPath: string): Buffer {
  if (!Buffer.isBuffer(value)) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, -1, 'expected a Buffer value');
  return value;
}

export const ascii: ContentEncoding = {
  name: 'ascii',
  textual: true,
  byteLength: (units) => units,
  encode(value, fieldPath) {
    const text = asText(value, fieldPath);
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) > 0x7f) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, -1, `character ${i} is not ASCII`);
    }
    return Buffer.from(text, 'latin1');
  },
  decode(bytes, _units, fieldPath, offset) {
    const index = bytes.findIndex((byte) => byte > 0x7f);
    if (index >= 0) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, offset + index, 'byte is not ASCII');
    return bytes.toString('latin1');
  },
};

/** Code page 037 for the characters host messages carry: letters, digits, space, punctuation. */
const CP037: Record<string, number> = { ' ': 0x40, '.': 0x4b, '<': 0x4c, '(': 0x4d, '+': 0x4e, '|': 0x4f, '&': 0x50, '!': 0x5a, $: 0x5b, '*': 0x5c, ')': 0x5d, ';': 0x5e, '-': 0x60, '/': 0x61, ',': 0x6b, '%': 0x6c, _: 0x6d, '>': 0x6e, '?': 0x6f, ':': 0x7a, '#': 0x7b, '@': 0x7c, "'": 0x7d, '=': 0x7e, '"': 0x7f };
const addRange = (from: string, to: string, first: number): void => {
  for (let c = from.charCodeAt(0), b = first; c <= to.charCodeAt(0); c++, b++) CP037[String.fromCharCode(c)] = b;
};
addRange('0', '9', 0xf0);
addRange('A', 'I', 0xc1);
addRange('J', 'R', 0xd1);
addRange('S', 'Z', 0xe2);
addRange('a', 'i', 0x81);
addRange('j', 'r', 0x91);
addRange('s', 'z', 0xa2);
const CP037_REVERSE = new Map<number, string>(Object.entries(CP037).map(([char, byte]) => [byte, char]));

export const ebcdic: ContentEncoding = {
  name: 'ebcdic',
  textual: true,
  byteLength: (units) => units,
  encode(value, fieldPath) {
    const text = asText(value, fieldPath);
    const out = Buffer.alloc(text.length);
    for (let i = 0; i < text.length; i++) {
      const byte = CP037[text[i]];
      if (byte === undefined) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, -1, `character ${i} has no EBCDIC (cp037) mapping`);
      out[i] = byte;
    }
    return out;
  },
  decode(bytes, _units, fieldPath, offset) {
    let text = '';
    for (let i = 0; i < bytes.length; i++) {
      const char = CP037_REVERSE.get(bytes[i]);
      if (char === undefined) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, offset + i, `byte 0x${bytes[i].toString(16)} is not a supported EBCDIC character`);
      text += char;
    }
    return text;
  },
};

/** Packed BCD, right-justified: an odd number of digits gets a leading 0 nibble. */
export const bcd: ContentEncoding = {
  name: 'bcd',
  textual: true,
  byteLength: (units) => Math.ceil(units / 2),
  encode(value, fieldPath) {
    const text = asText(value, fieldPath);
    if (!/^[0-9]*$/.test(text)) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, -1, 'BCD takes digits only');
    return Buffer.from(text.length % 2 === 1 ? `0${text}` : text, 'hex');
  },
  decode(bytes, units, fieldPath, offset) {
    const digits = bytes.toString('hex');
    const bad = digits.search(/[^0-9]/);
    if (bad >= 0) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, offset + Math.floor(bad / 2), 'BCD nibble is not a digit');
    return digits.slice(digits.length - units);
  },
};

export const binary: ContentEncoding = {
  name: 'binary',
  textual: false,
  byteLength: (units) => units,
  encode: (value, fieldPath) => asBytes(value, fieldPath),
  decode: (bytes) => Buffer.from(bytes),
};

/** Raw bytes carried as ASCII hex characters, two per byte (uppercase on the wire). */
export const hex: ContentEncoding = {
  name: 'hex',
  textual: false,
  byteLength: (units) => units * 2,
  encode: (value, fieldPath) => Buffer.from(asBytes(value, fieldPath).toString('hex').toUpperCase(), 'latin1'),
  decode(bytes, _units, fieldPath, offset) {
    const text = bytes.toString('latin1');
    const bad = text.search(/[^0-9A-Fa-f]/);
    if (bad >= 0) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, offset + bad, 'not a hex character');
    return Buffer.from(text, 'hex');
  },
};

export const encodings: Readonly<Record<EncodingName, ContentEncoding>> = { ascii, ebcdic, bcd, binary, hex };
