import { Iso8583Error, Iso8583ErrorCode } from './errors';

/** Names of the content encodings a spec may use. */
export type EncodingName = 'ascii' | 'ebcdic' | 'bcd' | 'binary' | 'hex';

/**
 * Turns a field value into bytes and back. `units` is the field's length in its own units
 * (characters, digits or bytes); `byteLength` says how many wire bytes that many units take.
 * `encode`/`decode` work on standalone buffers; `write`/`read` work in place inside a message
 * (the codec uses those, so it neither slices nor concatenates per field).
 */
export interface ContentEncoding {
  readonly name: EncodingName;
  /** True when values are strings (characters or digits), false when they are raw bytes. */
  readonly textual: boolean;
  byteLength(units: number): number;
  encode(value: string | Buffer, fieldPath: string): Buffer;
  /** Decodes exactly `units` units from `bytes` (already sliced to `byteLength(units)`); `offset` is where `bytes` sits in the message, for errors. */
  decode(bytes: Buffer, units: number, fieldPath: string, offset: number): string | Buffer;
  /** Writes `value` (a string for textual encodings, a Buffer otherwise) at `offset`; throws `Iso8583Error` if it has no encoding. */
  write(value: string | Buffer, out: Buffer, offset: number, fieldPath: string): void;
  /** Reads `units` units at `start` (the caller has checked the bytes are there); errors name `at + (index - start)`. */
  read(buffer: Buffer, start: number, units: number, fieldPath: string, at?: number): string | Buffer;
}

function asText(value: string | Buffer, fieldPath: string): string {
  if (typeof value !== 'string') throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, -1, 'expected a string value');
  return value;
}

function asBytes(value: string | Buffer, fieldPath: string): Buffer {
  if (!Buffer.isBuffer(value)) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, -1, 'expected a Buffer value');
  return value;
}

function invalid(fieldPath: string, offset: number, detail: string): Iso8583Error {
  return new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, offset, detail);
}

/** Builds `encode`/`decode` from `write`/`read`. */
function standalone(encoding: Omit<ContentEncoding, 'encode' | 'decode'>, units: (value: string | Buffer, fieldPath: string) => number): ContentEncoding {
  return {
    ...encoding,
    encode(value, fieldPath) {
      const out = Buffer.alloc(encoding.byteLength(units(value, fieldPath)));
      encoding.write(value, out, 0, fieldPath);
      return out;
    },
    decode: (bytes, count, fieldPath, offset) => encoding.read(bytes, 0, count, fieldPath, offset),
  };
}

const textUnits = (value: string | Buffer, fieldPath: string): number => asText(value, fieldPath).length;
const byteUnits = (value: string | Buffer, fieldPath: string): number => asBytes(value, fieldPath).length;

export const ascii: ContentEncoding = standalone(
  {
    name: 'ascii',
    textual: true,
    byteLength: (units) => units,
    write(value, out, offset, fieldPath) {
      const text = asText(value, fieldPath);
      // A byte loop beats Buffer#write for the short values messages carry, and checks as it goes.
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (code > 0x7f) throw invalid(fieldPath, -1, `character ${i} is not ASCII`);
        out[offset + i] = code;
      }
    },
    read(buffer, start, units, fieldPath, at = start) {
      const end = start + units;
      for (let i = start; i < end; i++) {
        if (buffer[i] > 0x7f) throw invalid(fieldPath, at + i - start, 'byte is not ASCII');
      }
      return buffer.toString('latin1', start, end);
    },
  },
  textUnits,
);

/** Code page 037 for the characters host messages carry: letters, digits, space, punctuation. */
const CP037: Record<string, number> = {
  ' ': 0x40,
  '.': 0x4b,
  '<': 0x4c,
  '(': 0x4d,
  '+': 0x4e,
  '|': 0x4f,
  '&': 0x50,
  '!': 0x5a,
  $: 0x5b,
  '*': 0x5c,
  ')': 0x5d,
  ';': 0x5e,
  '-': 0x60,
  '/': 0x61,
  ',': 0x6b,
  '%': 0x6c,
  _: 0x6d,
  '>': 0x6e,
  '?': 0x6f,
  ':': 0x7a,
  '#': 0x7b,
  '@': 0x7c,
  "'": 0x7d,
  '=': 0x7e,
  '"': 0x7f,
};
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
/** ASCII code → EBCDIC byte (0 where unmapped) and back (-1 where unmapped). */
const TO_EBCDIC = new Uint8Array(128);
const FROM_EBCDIC = new Int16Array(256).fill(-1);
for (const [char, byte] of Object.entries(CP037)) {
  TO_EBCDIC[char.charCodeAt(0)] = byte;
  FROM_EBCDIC[byte] = char.charCodeAt(0);
}

const ebcdic: ContentEncoding = standalone(
  {
    name: 'ebcdic',
    textual: true,
    byteLength: (units) => units,
    write(value, out, offset, fieldPath) {
      const text = asText(value, fieldPath);
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        const byte = code < 128 ? TO_EBCDIC[code] : 0;
        if (byte === 0) throw invalid(fieldPath, -1, `character ${i} has no EBCDIC (cp037) mapping`);
        out[offset + i] = byte;
      }
    },
    read(buffer, start, units, fieldPath, at = start) {
      let text = '';
      for (let i = start; i < start + units; i++) {
        const code = FROM_EBCDIC[buffer[i]];
        if (code < 0) throw invalid(fieldPath, at + i - start, `byte 0x${buffer[i].toString(16)} is not a supported EBCDIC character`);
        text += String.fromCharCode(code);
      }
      return text;
    },
  },
  textUnits,
);

/** Packed BCD, right-justified: an odd number of digits gets a leading 0 nibble. */
const bcd: ContentEncoding = standalone(
  {
    name: 'bcd',
    textual: true,
    byteLength: (units) => (units + 1) >> 1,
    write(value, out, offset, fieldPath) {
      const text = asText(value, fieldPath);
      const odd = text.length & 1;
      // Digit i goes to nibble i + odd (the first nibble is the pad when the count is odd).
      if (odd) out[offset] = 0;
      for (let i = 0; i < text.length; i++) {
        const digit = text.charCodeAt(i) - 0x30;
        if (digit < 0 || digit > 9) throw invalid(fieldPath, -1, 'BCD takes digits only');
        const nibble = i + odd;
        const index = offset + (nibble >> 1);
        if (nibble & 1) out[index] |= digit;
        else out[index] = digit << 4;
      }
    },
    read(buffer, start, units, fieldPath, at = start) {
      const size = (units + 1) >> 1;
      for (let i = start; i < start + size; i++) {
        if (buffer[i] >> 4 > 9 || (buffer[i] & 0x0f) > 9) throw invalid(fieldPath, at + i - start, 'BCD nibble is not a digit');
      }
      const digits = buffer.toString('hex', start, start + size);
      return units & 1 ? digits.slice(1) : digits;
    },
  },
  textUnits,
);

/**
 * Track 2 data (type z) in packed BCD: each character is the low nibble of its ASCII code
 * (digits, `:` `;` `<` `=` `>` `?` are 0xA to 0xF; `D` is accepted for the separator `=`),
 * left-justified, an odd count padded with a trailing F. Reads the separator back as `=`.
 */
export const bcdTrack2: ContentEncoding = standalone(
  {
    name: 'bcd',
    textual: true,
    byteLength: (units) => (units + 1) >> 1,
    write(value, out, offset, fieldPath) {
      const text = asText(value, fieldPath);
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        let nibble: number;
        if (code >= 0x30 && code <= 0x3f) nibble = code - 0x30;
        else if (code === 0x44) nibble = 0x0d;
        else throw invalid(fieldPath, -1, `character ${i} has no track 2 BCD nibble`);
        const index = offset + (i >> 1);
        if (i & 1) out[index] |= nibble;
        else out[index] = nibble << 4;
      }
      if (text.length & 1) out[offset + (text.length >> 1)] |= 0x0f;
    },
    read(buffer, start, units, fieldPath, at = start) {
      let text = '';
      for (let i = 0; i < units; i++) {
        const byte = buffer[start + (i >> 1)];
        text += String.fromCharCode(0x30 + (i & 1 ? byte & 0x0f : byte >> 4));
      }
      if (units & 1 && (buffer[start + (units >> 1)] & 0x0f) !== 0x0f) throw invalid(fieldPath, at + (units >> 1), 'the pad nibble of an odd track 2 is not F');
      return text;
    },
  },
  textUnits,
);

const binary: ContentEncoding = {
  name: 'binary',
  textual: false,
  byteLength: (units) => units,
  encode: (value, fieldPath) => asBytes(value, fieldPath),
  decode: (bytes) => Buffer.from(bytes),
  write(value, out, offset, fieldPath) {
    asBytes(value, fieldPath).copy(out, offset);
  },
  read: (buffer, start, units) => Buffer.from(buffer.subarray(start, start + units)),
};

const HEX_DIGITS = '0123456789ABCDEF';
/** ASCII code → nibble value, -1 when not a hex character. */
const HEX_VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_VALUE[HEX_DIGITS.charCodeAt(i)] = i;
  HEX_VALUE[HEX_DIGITS.toLowerCase().charCodeAt(i)] = i;
}

/** Raw bytes carried as ASCII hex characters, two per byte (uppercase on the wire, either case read). */
const hex: ContentEncoding = standalone(
  {
    name: 'hex',
    textual: false,
    byteLength: (units) => units * 2,
    write(value, out, offset, fieldPath) {
      const bytes = asBytes(value, fieldPath);
      for (let i = 0; i < bytes.length; i++) {
        out[offset + 2 * i] = HEX_DIGITS.charCodeAt(bytes[i] >> 4);
        out[offset + 2 * i + 1] = HEX_DIGITS.charCodeAt(bytes[i] & 0x0f);
      }
    },
    read(buffer, start, units, fieldPath, at = start) {
      const bytes = Buffer.allocUnsafe(units);
      for (let i = 0; i < units; i++) {
        const high = HEX_VALUE[buffer[start + 2 * i]];
        const low = HEX_VALUE[buffer[start + 2 * i + 1]];
        if (high < 0) throw invalid(fieldPath, at + 2 * i, 'not a hex character');
        if (low < 0) throw invalid(fieldPath, at + 2 * i + 1, 'not a hex character');
        bytes[i] = (high << 4) | low;
      }
      return bytes;
    },
  },
  byteUnits,
);

export const encodings: Readonly<Record<EncodingName, ContentEncoding>> = { ascii, ebcdic, bcd, binary, hex };
