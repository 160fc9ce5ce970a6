import { Iso8583Error, Iso8583ErrorCode } from './errors';
import { networkHeader, NetworkHeaderName, NetworkLengthHeader } from './network-header';
import { checkTpdu, TPDU_ID, TPDU_LENGTH } from './tpdu';

/** A spec's network framing: the length header and whether a 5-byte TPDU follows it. */
export interface FrameHeaderSpec {
  readonly length: NetworkHeaderName;
  readonly tpdu: boolean;
}

/** One message taken off the wire: its TPDU (null when the framing has none) and the ISO 8583 message bytes. */
export interface DeframedMessage {
  tpdu: Buffer | null;
  payload: Buffer;
}

/**
 * Splits a TCP byte stream into messages: feed it chunks as they arrive (a frame may span
 * chunks, a chunk may hold several frames) and it returns the complete ones. A malformed header
 * (not digits, more than the limit, TPDU missing or not 0x60) throws `Iso8583Error` (BAD_FRAME)
 * with the offset in the stream, and empties the buffer: the stream is out of step after that,
 * so close the connection.
 */
export interface StreamDeframer {
  push(chunk: Buffer): DeframedMessage[];
  /** Bytes received but not yet returned as a message. */
  readonly bufferedBytes: number;
}

/** Frames and deframes messages for one spec's network framing (see `framerFor`). */
export interface Framer {
  readonly header: FrameHeaderSpec;
  /** Largest message (without TPDU) the header can carry. */
  readonly maxPayload: number;
  /** Header + TPDU + payload. `tpdu` is required when the framing has one and refused when it has none. */
  frame(payload: Buffer, tpdu?: Buffer): Buffer;
  /** Strips header and TPDU from exactly one complete frame. */
  deframe(frame: Buffer): DeframedMessage;
  /** A stream deframer that refuses frames announcing a message larger than `maxPayload` bytes (default: what the header can carry). */
  deframer(maxPayload?: number): StreamDeframer;
}

const EMPTY = Buffer.alloc(0);

function frameError(code: Iso8583ErrorCode, fieldPath: string, offset: number, detail: string): Iso8583Error {
  return new Iso8583Error(code, fieldPath, offset, detail);
}

class LengthDeframer implements StreamDeframer {
  private pending: Buffer = EMPTY;
  /** Stream offset of `pending[0]`. */
  private consumed = 0;

  constructor(
    private readonly header: NetworkLengthHeader,
    private readonly tpduLength: number,
    private readonly maxPayload: number,
  ) {}

  get bufferedBytes(): number {
    return this.pending.length;
  }

  push(chunk: Buffer): DeframedMessage[] {
    const buffer = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const messages: DeframedMessage[] = [];
    const { size } = this.header;
    let at = 0;
    try {
      while (buffer.length - at >= size) {
        const length = this.header.read(buffer, at, this.consumed + at);
        this.checkLength(length, this.consumed + at);
        const body = at + size;
        if (this.tpduLength > 0 && buffer.length > body && buffer[body] !== TPDU_ID) {
          throw frameError(Iso8583ErrorCode.BadFrame, 'tpdu', this.consumed + body, `TPDU starts 0x${buffer[body].toString(16).padStart(2, '0')}, not 0x60`);
        }
        if (buffer.length - body < length) break;
        // Copies, so a message does not pin the whole receive buffer.
        messages.push({
          tpdu: this.tpduLength > 0 ? Buffer.from(buffer.subarray(body, body + this.tpduLength)) : null,
          payload: Buffer.from(buffer.subarray(body + this.tpduLength, body + length)),
        });
        at = body + length;
      }
    } catch (error) {
      this.consumed += buffer.length;
      this.pending = EMPTY;
      throw error;
    }
    this.consumed += at;
    this.pending = at === buffer.length ? EMPTY : Buffer.from(buffer.subarray(at));
    return messages;
  }

  private checkLength(length: number, streamOffset: number): void {
    if (length - this.tpduLength > this.maxPayload) {
      throw frameError(
        Iso8583ErrorCode.BadFrame,
        'frame header',
        streamOffset,
        `announces ${length} bytes, more than the limit ${this.maxPayload + this.tpduLength}`,
      );
    }
    if (length < this.tpduLength)
      throw frameError(Iso8583ErrorCode.BadFrame, 'tpdu', streamOffset, `frame of ${length} bytes has no room for its ${this.tpduLength}-byte TPDU`);
  }
}

class SpecFramer implements Framer {
  private readonly lengthHeader: NetworkLengthHeader;
  private readonly tpduLength: number;
  readonly maxPayload: number;

  constructor(readonly header: FrameHeaderSpec) {
    this.lengthHeader = networkHeader(header.length);
    this.tpduLength = header.tpdu ? TPDU_LENGTH : 0;
    this.maxPayload = this.lengthHeader.max - this.tpduLength;
  }

  frame(payload: Buffer, tpdu?: Buffer): Buffer {
    if (this.header.tpdu) {
      if (tpdu === undefined) throw frameError(Iso8583ErrorCode.BadFrame, 'tpdu', -1, `the ${this.header.length} + TPDU framing needs a TPDU`);
      checkTpdu(tpdu);
    } else if (tpdu !== undefined) {
      throw frameError(Iso8583ErrorCode.BadFrame, 'tpdu', -1, `the ${this.header.length} framing has no TPDU`);
    }
    if (payload.length > this.maxPayload)
      throw frameError(Iso8583ErrorCode.BadFrame, 'frame header', -1, `payload of ${payload.length} bytes exceeds ${this.maxPayload}`);
    const { size } = this.lengthHeader;
    const out = Buffer.allocUnsafe(size + this.tpduLength + payload.length);
    this.lengthHeader.write(this.tpduLength + payload.length, out, 0);
    if (tpdu !== undefined) tpdu.copy(out, size);
    payload.copy(out, size + this.tpduLength);
    return out;
  }

  deframe(frame: Buffer): DeframedMessage {
    const { size } = this.lengthHeader;
    if (frame.length < size) throw frameError(Iso8583ErrorCode.Truncated, 'frame header', 0, `needs ${size} bytes, ${frame.length} left`);
    const length = this.lengthHeader.read(frame, 0, 0);
    if (frame.length - size < length)
      throw frameError(Iso8583ErrorCode.Truncated, 'frame', size, `header announces ${length} bytes, ${frame.length - size} present`);
    if (frame.length - size > length)
      throw frameError(Iso8583ErrorCode.TrailingBytes, 'frame', size + length, `${frame.length - size - length} bytes after the frame`);
    if (length < this.tpduLength)
      throw frameError(Iso8583ErrorCode.BadFrame, 'tpdu', 0, `frame of ${length} bytes has no room for its ${this.tpduLength}-byte TPDU`);
    if (this.tpduLength === 0) return { tpdu: null, payload: frame.subarray(size) };
    const tpdu = frame.subarray(size, size + this.tpduLength);
    checkTpdu(tpdu, size);
    return { tpdu, payload: frame.subarray(size + this.tpduLength) };
  }

  deframer(maxPayload: number = this.maxPayload): StreamDeframer {
    // A NaN limit would compare false and let any header through.
    if (!Number.isInteger(maxPayload) || maxPayload < 0)
      throw frameError(Iso8583ErrorCode.BadFrame, 'frame header', -1, `the limit ${maxPayload} is not a byte count`);
    return new LengthDeframer(this.lengthHeader, this.tpduLength, Math.min(maxPayload, this.maxPayload));
  }
}

/** The framer of a spec's `header` (a compiled `MessageSpec` has one). */
export function framerFor(spec: { readonly header: FrameHeaderSpec }): Framer {
  return new SpecFramer(spec.header);
}
