import { Iso8583Error, Iso8583ErrorCode } from './errors';

/** How a field says its length: fixed (no prefix) or 2, 3 or 4 length digits (LL, LLL, LLLL). */
export type LengthType = 'fixed' | 'LL' | 'LLL' | 'LLLL';
/** How the length digits travel: ASCII digits, EBCDIC digits, packed BCD or a big-endian binary number. */
export type PrefixEncodingName = 'ascii' | 'ebcdic' | 'bcd' | 'binary';

/** Writes and reads the length prefix of a variable field. */
export interface LengthPrefix {
  /** Wire size of the prefix in bytes (0 for fixed fields). */
  readonly size: number;
  encode(length: number, max: number, fieldPath: string): Buffer;
  /** Reads the prefix at `offset`; the caller has checked that `size` bytes are there. */
  decode(buffer: Buffer, offset: number, max: number, fieldPath: string): number;
}

const DIGITS: Record<Exclude<LengthType, 'fixed'>, number> = { LL: 2, LLL: 3, LLLL: 4 };

const fixedPrefix: LengthPrefix = {
  size: 0,
  encode: () => Buffer.alloc(0),
  decode: (_buffer, _offset, max) => max,
};

function tooLong(fieldPath: string, offset: number, length: number, max: number): Iso8583Error {
  return new Iso8583Error(Iso8583ErrorCode.LengthExceedsMax, fieldPath, offset, `length prefix ${length} exceeds the maximum ${max}`);
}

function badPrefix(fieldPath: string, offset: number, detail: string): Iso8583Error {
  return new Iso8583Error(Iso8583ErrorCode.BadLengthPrefix, fieldPath, offset, `length prefix ${detail}`);
}

function digitsPrefix(digits: number, encoding: PrefixEncodingName): LengthPrefix {
  const limit = 10 ** digits - 1;
  const size = encoding === 'ascii' || encoding === 'ebcdic' ? digits : Math.ceil(digits / 2);
  const check = (length: number, max: number, fieldPath: string): void => {
    if (length > max) throw tooLong(fieldPath, -1, length, max);
    if (length > limit) throw tooLong(fieldPath, -1, length, limit);
  };
  return {
    size,
    encode(length, max, fieldPath) {
      check(length, max, fieldPath);
      const text = String(length).padStart(digits, '0');
      switch (encoding) {
        case 'ascii':
          return Buffer.from(text, 'latin1');
        case 'ebcdic':
          return Buffer.from([...text].map((digit) => 0xf0 + Number(digit)));
        case 'bcd':
          return Buffer.from(text.padStart(size * 2, '0'), 'hex');
        case 'binary': {
          const out = Buffer.alloc(size);
          out.writeUIntBE(length, 0, size);
          return out;
        }
      }
    },
    decode(buffer, offset, max, fieldPath) {
      const bytes = buffer.subarray(offset, offset + size);
      let length: number;
      switch (encoding) {
        case 'ascii': {
          const text = bytes.toString('latin1');
          if (!/^[0-9]+$/.test(text)) throw badPrefix(fieldPath, offset, `"${text}" is not ASCII digits`);
          length = Number(text);
          break;
        }
        case 'ebcdic':
          if (bytes.some((byte) => byte < 0xf0 || byte > 0xf9)) throw badPrefix(fieldPath, offset, 'not EBCDIC digits');
          length = Number([...bytes].map((byte) => byte - 0xf0).join(''));
          break;
        case 'bcd': {
          const text = bytes.toString('hex');
          if (!/^[0-9]+$/.test(text)) throw badPrefix(fieldPath, offset, `0x${text} is not BCD`);
          length = Number(text);
          break;
        }
        case 'binary':
          length = bytes.readUIntBE(0, size);
          break;
      }
      if (length > max) throw tooLong(fieldPath, offset, length, max);
      return length;
    },
  };
}

/** The prefix for a length type in an encoding; binary prefixes take ceil(digits / 2) bytes (LL: 1, LLL and LLLL: 2). */
export function lengthPrefix(type: LengthType, encoding: PrefixEncodingName): LengthPrefix {
  return type === 'fixed' ? fixedPrefix : digitsPrefix(DIGITS[type], encoding);
}
