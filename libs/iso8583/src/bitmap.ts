import { Iso8583Error, Iso8583ErrorCode } from './errors';

/** Sets the bits of `fieldNumbers` (and bit 1 when `secondary`) in the 8 or 16 zeroed bytes at `offset`. */
function writeBits(fieldNumbers: readonly number[], secondary: boolean, out: Buffer, offset: number): void {
  if (secondary) out[offset] |= 0x80;
  for (const number of fieldNumbers) out[offset + ((number - 1) >> 3)] |= 0x80 >> ((number - 1) & 7);
}

/** Wire size of the bitmap(s) in an encoding. */
export function bitmapSize(secondary: boolean, encoding: 'binary' | 'hex'): number {
  return (secondary ? 16 : 8) * (encoding === 'binary' ? 1 : 2);
}

const HEX_DIGITS = '0123456789ABCDEF';

/** Writes the bitmap(s) of `fieldNumbers` at `offset` in their wire encoding; returns the bytes written. */
export function writeBitmap(fieldNumbers: readonly number[], secondary: boolean, encoding: 'binary' | 'hex', out: Buffer, offset: number): number {
  const width = secondary ? 16 : 8;
  if (encoding === 'binary') {
    out.fill(0, offset, offset + width);
    writeBits(fieldNumbers, secondary, out, offset);
    return width;
  }
  const bits = Buffer.alloc(width);
  writeBits(fieldNumbers, secondary, bits, 0);
  for (let i = 0; i < width; i++) {
    out[offset + 2 * i] = HEX_DIGITS.charCodeAt(bits[i] >> 4);
    out[offset + 2 * i + 1] = HEX_DIGITS.charCodeAt(bits[i] & 0x0f);
  }
  return width * 2;
}

const HEX_VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_VALUE[HEX_DIGITS.charCodeAt(i)] = i;
  HEX_VALUE[HEX_DIGITS.toLowerCase().charCodeAt(i)] = i;
}

/** Reads the bitmap(s) at `offset`; returns the present field numbers (bitmap bits excluded) and the bytes read. */
export function decodeBitmap(buffer: Buffer, offset: number, encoding: 'binary' | 'hex'): { fields: number[]; read: number } {
  const width = encoding === 'binary' ? 8 : 16;
  // Raw bitmap bytes: the message itself when binary, decoded hex otherwise.
  let bits = buffer;
  let base = offset;
  const readHalf = (at: number, path: string, into: Buffer | null, intoOffset: number): void => {
    if (at + width > buffer.length) throw new Iso8583Error(Iso8583ErrorCode.Truncated, path, at, `needs ${width} bytes, ${buffer.length - at} left`);
    if (into === null) return;
    for (let i = 0; i < 8; i++) {
      const high = HEX_VALUE[buffer[at + 2 * i]];
      const low = HEX_VALUE[buffer[at + 2 * i + 1]];
      if (high < 0 || low < 0) throw new Iso8583Error(Iso8583ErrorCode.BadBitmap, path, at, 'not hex characters');
      into[intoOffset + i] = (high << 4) | low;
    }
  };
  if (encoding === 'hex') {
    bits = Buffer.alloc(16);
    base = 0;
  }
  readHalf(offset, 'bitmap', encoding === 'hex' ? bits : null, 0);
  const hasSecondary = (bits[base] & 0x80) !== 0;
  if (hasSecondary) readHalf(offset + width, 'secondary bitmap', encoding === 'hex' ? bits : null, 8);
  if (hasSecondary && (bits[base + 8] & 0x80) !== 0)
    throw new Iso8583Error(Iso8583ErrorCode.BadBitmap, 'secondary bitmap', offset + width, 'a tertiary bitmap (bit 65) is not supported');
  const fields: number[] = [];
  const bytes = hasSecondary ? 16 : 8;
  for (let index = 0; index < bytes; index++) {
    const byte = bits[base + index];
    if (byte === 0) continue;
    for (let bit = 0; bit < 8; bit++) {
      if (byte & (0x80 >> bit)) {
        const number = index * 8 + bit + 1;
        if (number !== 1 && number !== 65) fields.push(number);
      }
    }
  }
  return { fields, read: hasSecondary ? width * 2 : width };
}
