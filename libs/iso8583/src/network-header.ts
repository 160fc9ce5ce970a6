import { Iso8583Error, Iso8583ErrorCode } from './errors';

/** How a frame announces its length: 2-byte big-endian binary, 4 ASCII digits, or 2 bytes of packed BCD (4 digits). */
export type NetworkHeaderName = 'binary2' | 'ascii4' | 'bcd2';

export const NETWORK_HEADER_NAMES: readonly NetworkHeaderName[] = ['binary2', 'ascii4', 'bcd2'];

/**
 * The length header in front of each message on a TCP stream. The number it carries counts
 * what follows it (TPDU, if any, plus the message), never the header itself.
 */
export interface NetworkLengthHeader {
  readonly name: NetworkHeaderName;
  /** Wire size of the header in bytes. */
  readonly size: number;
  /** Largest length the header can announce. */
  readonly max: number;
  /** Writes `length` at `offset`; the caller has checked `length <= max`. */
  write(length: number, out: Buffer, offset: number): void;
  /** Reads the header at `offset` (`size` bytes are there); `streamOffset` is where it sits in the stream, for the error. */
  read(buffer: Buffer, offset: number, streamOffset: number): number;
}

function badHeader(streamOffset: number, detail: string): Iso8583Error {
  return new Iso8583Error(Iso8583ErrorCode.BadFrame, 'frame header', streamOffset, detail);
}

const binary2: NetworkLengthHeader = {
  name: 'binary2',
  size: 2,
  max: 0xffff,
  write: (length, out, offset) => void out.writeUInt16BE(length, offset),
  read: (buffer, offset) => buffer.readUInt16BE(offset),
};

const ascii4: NetworkLengthHeader = {
  name: 'ascii4',
  size: 4,
  max: 9999,
  write(length, out, offset) {
    out.write(String(length).padStart(4, '0'), offset, 4, 'latin1');
  },
  read(buffer, offset, streamOffset) {
    let length = 0;
    for (let i = offset; i < offset + 4; i++) {
      const digit = buffer[i] - 0x30;
      if (digit < 0 || digit > 9) throw badHeader(streamOffset, `"${buffer.toString('latin1', offset, offset + 4)}" is not 4 ASCII digits`);
      length = length * 10 + digit;
    }
    return length;
  },
};

const bcd2: NetworkLengthHeader = {
  name: 'bcd2',
  size: 2,
  max: 9999,
  write(length, out, offset) {
    const thousands = Math.floor(length / 1000);
    const hundreds = Math.floor(length / 100) % 10;
    const tens = Math.floor(length / 10) % 10;
    out[offset] = (thousands << 4) | hundreds;
    out[offset + 1] = (tens << 4) | (length % 10);
  },
  read(buffer, offset, streamOffset) {
    let length = 0;
    for (let i = offset; i < offset + 2; i++) {
      const high = buffer[i] >> 4;
      const low = buffer[i] & 0x0f;
      if (high > 9 || low > 9) throw badHeader(streamOffset, `0x${buffer.toString('hex', offset, offset + 2)} is not 4 BCD digits`);
      length = length * 100 + high * 10 + low;
    }
    return length;
  },
};

const HEADERS: Readonly<Record<NetworkHeaderName, NetworkLengthHeader>> = { binary2, ascii4, bcd2 };

/** The length header of that name. */
export function networkHeader(name: NetworkHeaderName): NetworkLengthHeader {
  return HEADERS[name];
}
