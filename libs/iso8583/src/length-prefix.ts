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
  /** Writes a length already checked against the field maximum at `offset` (`size` bytes). */
  write(length: number, out: Buffer, offset: number): void;
  /** Reads the prefix at `offset`; the caller has checked that `size` bytes are there. */
  decode(buffer: Buffer, offset: number, max: number, fieldPath: string): number;
}

const DIGITS: Record<Exclude<LengthType, 'fixed'>, number> = { LL: 2, LLL: 3, LLLL: 4 };

const fixedPrefix: LengthPrefix = {
  size: 0,
  encode: () => Buffer.alloc(0),
  write: () => undefined,
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
  const write = (length: number, out: Buffer, offset: number): void => {
    switch (encoding) {
      case 'ascii':
      case 'ebcdic': {
        const zero = encoding === 'ascii' ? 0x30 : 0xf0;
        for (let i = offset + size - 1, rest = length; i >= offset; i--, rest = Math.floor(rest / 10)) out[i] = zero + (rest % 10);
        return;
      }
      case 'bcd':
        for (let i = offset + size - 1, rest = length; i >= offset; i--, rest = Math.floor(rest / 100))
          out[i] = ((Math.floor(rest / 10) % 10) << 4) | (rest % 10);
        return;
      case 'binary':
        out.writeUIntBE(length, offset, size);
        return;
    }
  };
  return {
    size,
    encode(length, max, fieldPath) {
      check(length, max, fieldPath);
      const out = Buffer.alloc(size);
      write(length, out, 0);
      return out;
    },
    write,
    decode(buffer, offset, max, fieldPath) {
      let length = 0;
      switch (encoding) {
        case 'ascii':
        case 'ebcdic': {
          const zero = encoding === 'ascii' ? 0x30 : 0xf0;
          for (let i = offset; i < offset + size; i++) {
            const digit = buffer[i] - zero;
            if (digit < 0 || digit > 9) {
              throw badPrefix(
                fieldPath,
                offset,
                encoding === 'ascii' ? `"${buffer.toString('latin1', offset, offset + size)}" is not ASCII digits` : 'not EBCDIC digits',
              );
            }
            length = length * 10 + digit;
          }
          break;
        }
        case 'bcd':
          for (let i = offset; i < offset + size; i++) {
            const high = buffer[i] >> 4;
            const low = buffer[i] & 0x0f;
            if (high > 9 || low > 9) throw badPrefix(fieldPath, offset, `0x${buffer.toString('hex', offset, offset + size)} is not BCD`);
            length = length * 100 + high * 10 + low;
          }
          break;
        case 'binary':
          length = buffer.readUIntBE(offset, size);
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
