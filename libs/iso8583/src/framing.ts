import { Iso8583Error, Iso8583ErrorCode } from './errors';

/** Largest payload a 2-byte length header can announce. */
export const MAX_FRAME_PAYLOAD = 0xffff;

/** Prefixes a message with its 2-byte big-endian binary length (the header does not count itself). */
export function frame(payload: Buffer): Buffer {
  if (payload.length > MAX_FRAME_PAYLOAD) throw new Iso8583Error(Iso8583ErrorCode.BadFrame, 'frame header', -1, `payload of ${payload.length} bytes exceeds ${MAX_FRAME_PAYLOAD}`);
  const header = Buffer.alloc(2);
  header.writeUInt16BE(payload.length, 0);
  return Buffer.concat([header, payload]);
}

/** Strips the header from exactly one complete frame. */
export function deframe(buffer: Buffer): Buffer {
  if (buffer.length < 2) throw new Iso8583Error(Iso8583ErrorCode.Truncated, 'frame header', 0, `needs 2 bytes, ${buffer.length} left`);
  const length = buffer.readUInt16BE(0);
  if (buffer.length - 2 < length) throw new Iso8583Error(Iso8583ErrorCode.Truncated, 'frame', 2, `header announces ${length} bytes, ${buffer.length - 2} present`);
  if (buffer.length - 2 > length) throw new Iso8583Error(Iso8583ErrorCode.TrailingBytes, 'frame', 2 + length, `${buffer.length - 2 - length} bytes after the frame`);
  return buffer.subarray(2);
}

/**
 * Splits a TCP byte stream into messages framed by a 2-byte binary length: feed it chunks as they
 * arrive (a frame may span chunks, a chunk may hold several frames) and it returns the complete
 * payloads. A header announcing more than `maxPayload` bytes is an error, so a corrupt stream
 * cannot make it buffer without bound.
 */
export class LengthHeaderDeframer {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly maxPayload: number = MAX_FRAME_PAYLOAD) {}

  /** Bytes received but not yet returned as a payload. */
  get bufferedBytes(): number {
    return this.pending.length;
  }

  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const payloads: Buffer[] = [];
    let offset = 0;
    while (this.pending.length - offset >= 2) {
      const length = this.pending.readUInt16BE(offset);
      if (length > this.maxPayload) {
        this.pending = Buffer.alloc(0);
        throw new Iso8583Error(Iso8583ErrorCode.BadFrame, 'frame header', offset, `announces ${length} bytes, more than the limit ${this.maxPayload}`);
      }
      if (this.pending.length - offset - 2 < length) break;
      // Copy so a payload does not pin the whole receive buffer.
      payloads.push(Buffer.from(this.pending.subarray(offset + 2, offset + 2 + length)));
      offset += 2 + length;
    }
    this.pending = Buffer.from(this.pending.subarray(offset));
    return payloads;
  }
}
