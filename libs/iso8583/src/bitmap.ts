import { Iso8583Error, Iso8583ErrorCode } from './errors';

/** Builds the primary (and, when a field above 64 is present, secondary) bitmap for a set of field numbers. */
export function buildBitmap(fieldNumbers: readonly number[]): Buffer {
  const secondary = fieldNumbers.some((number) => number > 64);
  const bits = Buffer.alloc(secondary ? 16 : 8);
  if (secondary) bits[0] |= 0x80;
  for (const number of fieldNumbers) bits[(number - 1) >> 3] |= 0x80 >> ((number - 1) & 7);
  return bits;
}

/** Writes a bitmap in its wire encoding: raw bytes or uppercase ASCII hex. */
export function encodeBitmap(bits: Buffer, encoding: 'binary' | 'hex'): Buffer {
  return encoding === 'binary' ? bits : Buffer.from(bits.toString('hex').toUpperCase(), 'latin1');
}

/** Reads the bitmap(s) at `offset`; returns the present field numbers (bitmap bits excluded) and the bytes read. */
export function decodeBitmap(buffer: Buffer, offset: number, encoding: 'binary' | 'hex'): { fields: number[]; read: number } {
  const width = encoding === 'binary' ? 8 : 16;
  const readHalf = (at: number, path: string): Buffer => {
    if (at + width > buffer.length) throw new Iso8583Error(Iso8583ErrorCode.Truncated, path, at, `needs ${width} bytes, ${buffer.length - at} left`);
    const raw = buffer.subarray(at, at + width);
    if (encoding === 'binary') return raw;
    const text = raw.toString('latin1');
    if (!/^[0-9A-Fa-f]+$/.test(text)) throw new Iso8583Error(Iso8583ErrorCode.BadBitmap, path, at, 'not hex characters');
    return Buffer.from(text, 'hex');
  };
  const primary = readHalf(offset, 'bitmap');
  const hasSecondary = (primary[0] & 0x80) !== 0;
  const bits = hasSecondary ? Buffer.concat([primary, readHalf(offset + width, 'secondary bitmap')]) : primary;
  const fields: number[] = [];
  for (let number = 2; number <= bits.length * 8; number++) {
    if (number === 65) continue;
    if (bits[(number - 1) >> 3] & (0x80 >> ((number - 1) & 7))) fields.push(number);
  }
  if (hasSecondary && (bits[8] & 0x80) !== 0) throw new Iso8583Error(Iso8583ErrorCode.BadBitmap, 'secondary bitmap', offset + width, 'a tertiary bitmap (bit 65) is not supported');
  return { fields, read: hasSecondary ? width * 2 : width };
}
