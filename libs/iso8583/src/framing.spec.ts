import fc from 'fast-check';
import { Iso8583Error, Iso8583ErrorCode } from './errors';
import { framerFor } from './framing';
import { codecError } from './test-factories';
import { buildTpdu, responseTpdu } from './tpdu';

const payload = (size: number, fill: number): Buffer => Buffer.alloc(size, fill);

/** The ISO8583 preset's framing: a 2-byte binary length, no TPDU. */
const binary2 = framerFor({ header: { length: 'binary2', tpdu: false } });
const frame = (message: Buffer): Buffer => binary2.frame(message);
const deframe = (buffer: Buffer): Buffer => binary2.deframe(buffer).payload;
/** The stream deframer of that framing, returning payloads only. */
function payloadDeframer(maxPayload?: number) {
  const inner = binary2.deframer(maxPayload);
  return {
    push: (chunk: Buffer): Buffer[] => inner.push(chunk).map((message) => message.payload),
    get bufferedBytes(): number {
      return inner.bufferedBytes;
    },
  };
}

describe('2-byte binary length framing', () => {
  it('should prefix the payload length big-endian, not counting the header', () => {
    expect(frame(Buffer.from('0800', 'latin1')).toString('hex')).toBe('0004' + '30383030');
    expect(frame(payload(300, 1)).subarray(0, 2).toString('hex')).toBe('012c');
  });

  it('should strip the header of a complete frame', () => {
    expect(deframe(Buffer.from('00023031', 'hex')).toString('latin1')).toBe('01');
  });

  it('should reject a frame shorter than its header announces', () => {
    expect(() => deframe(Buffer.from('00053031', 'hex'))).toThrow(expect.objectContaining({ fieldPath: 'frame', offset: 2 }));
  });

  it('should reject a payload too large for the header', () => {
    expect(() => frame(payload(0x10000, 0))).toThrow(Iso8583Error);
  });
});

describe('2-byte binary length stream deframer', () => {
  it('should reassemble a frame split across chunks, even inside the header', () => {
    const wire = frame(payload(10, 7));
    const deframer = payloadDeframer();
    expect(deframer.push(wire.subarray(0, 1))).toEqual([]);
    expect(deframer.push(wire.subarray(1, 5))).toEqual([]);
    expect(deframer.push(wire.subarray(5))).toEqual([payload(10, 7)]);
    expect(deframer.bufferedBytes).toBe(0);
  });

  it('should split concatenated frames and keep the partial rest', () => {
    const wire = Buffer.concat([frame(payload(3, 1)), frame(payload(0, 0)), frame(payload(4, 2)), frame(payload(5, 3))]);
    const deframer = payloadDeframer();
    expect(deframer.push(wire.subarray(0, wire.length - 2))).toEqual([payload(3, 1), payload(0, 0), payload(4, 2)]);
    expect(deframer.push(wire.subarray(wire.length - 2))).toEqual([payload(5, 3)]);
  });

  it('should deliver every frame when fed one byte at a time', () => {
    const frames = [payload(2, 9), payload(70, 8)];
    const wire = Buffer.concat(frames.map(frame));
    const deframer = payloadDeframer();
    const received = [...wire].flatMap((byte) => deframer.push(Buffer.from([byte])));
    expect(received).toEqual(frames);
  });

  it('should reject a header above its limit instead of buffering without bound', () => {
    const deframer = payloadDeframer(1024);
    expect(() => deframer.push(Buffer.from('ffff', 'hex'))).toThrow(Iso8583Error);
    expect(deframer.bufferedBytes).toBe(0);
  });
});

describe('framerFor', () => {
  const message = Buffer.from('0800', 'latin1');
  const tpdu = Buffer.from('6000030011', 'hex');
  const binary2Tpdu = framerFor({ header: { length: 'binary2', tpdu: true } });
  const ascii4 = framerFor({ header: { length: 'ascii4', tpdu: false } });
  const bcd2 = framerFor({ header: { length: 'bcd2', tpdu: false } });

  it.each([
    ['binary2', 300, '012c'],
    ['ascii4', 300, '30333030'],
    ['bcd2', 300, '0300'],
    ['bcd2', 1234, '1234'],
  ] as const)('should write a %s header announcing %d bytes as %s', (length, size, header) => {
    expect(
      framerFor({ header: { length, tpdu: false } })
        .frame(payload(size, 7))
        .subarray(0, header.length / 2)
        .toString('hex'),
    ).toBe(header);
  });

  it('should count the TPDU in the length and put it between header and message', () => {
    // 5 TPDU bytes + 4 message bytes = 9.
    expect(binary2Tpdu.frame(message, tpdu).toString('hex')).toBe('0009' + '6000030011' + '30383030');
  });

  it('should give each message its TPDU, or null when the framing has none', () => {
    expect(binary2Tpdu.deframer().push(binary2Tpdu.frame(message, tpdu))).toEqual([{ tpdu, payload: message }]);
    expect(ascii4.deframer().push(Buffer.from('00040800', 'latin1'))).toEqual([{ tpdu: null, payload: message }]);
  });

  it('should reassemble frames split anywhere, even inside the header or the TPDU', () => {
    const frames = [payload(3, 1), payload(0, 0), payload(40, 2)];
    const wire = Buffer.concat(frames.map((each) => binary2Tpdu.frame(each, tpdu)));
    for (const size of [1, 2, 3, 6, 7, 11]) {
      const deframer = binary2Tpdu.deframer();
      const received = [];
      for (let at = 0; at < wire.length; at += size) received.push(...deframer.push(wire.subarray(at, at + size)));
      expect(received.map((each) => each.payload)).toEqual(frames);
      expect(deframer.bufferedBytes).toBe(0);
    }
  });

  it('should return every frame of one chunk and keep the partial rest', () => {
    const wire = Buffer.concat([bcd2.frame(payload(2, 1)), bcd2.frame(payload(3, 2)), bcd2.frame(payload(4, 3))]);
    const deframer = bcd2.deframer();
    expect(deframer.push(wire.subarray(0, wire.length - 1)).map((each) => each.payload)).toEqual([payload(2, 1), payload(3, 2)]);
    expect(deframer.bufferedBytes).toBe(5);
  });

  it('should refuse an ASCII header that is not 4 digits, at its offset in the stream', () => {
    const deframer = ascii4.deframer();
    const error = codecError(() => deframer.push(Buffer.concat([ascii4.frame(message), Buffer.from('00A4', 'latin1')])));
    expect({ code: error.code, fieldPath: error.fieldPath, offset: error.offset }).toEqual({
      code: Iso8583ErrorCode.BadFrame,
      fieldPath: 'frame header',
      offset: 8,
    });
    expect(deframer.bufferedBytes).toBe(0);
  });

  it('should refuse a BCD header with a nibble above 9', () => {
    expect(codecError(() => bcd2.deframer().push(Buffer.from('0a00', 'hex')))).toMatchObject({ code: Iso8583ErrorCode.BadFrame, offset: 0 });
  });

  it('should refuse a header announcing more than the limit before the bytes arrive', () => {
    expect(codecError(() => binary2Tpdu.deframer(100).push(Buffer.from('006a', 'hex')))).toMatchObject({
      code: Iso8583ErrorCode.BadFrame,
      fieldPath: 'frame header',
    });
    // 105 = 5 TPDU bytes + 100 message bytes is still allowed.
    expect(binary2Tpdu.deframer(100).push(Buffer.from('0069', 'hex'))).toEqual([]);
  });

  it('should refuse a limit that is not a byte count rather than deframe without one', () => {
    expect(codecError(() => ascii4.deframer(Number.NaN)).code).toBe(Iso8583ErrorCode.BadFrame);
  });

  it('should refuse a frame too short to hold its TPDU', () => {
    expect(codecError(() => binary2Tpdu.deframer().push(Buffer.from('000460000300', 'hex')))).toMatchObject({
      code: Iso8583ErrorCode.BadFrame,
      fieldPath: 'tpdu',
    });
  });

  it('should refuse a frame whose TPDU does not start 0x60 as soon as that byte arrives', () => {
    // The message follows the header directly: the TPDU is missing.
    expect(codecError(() => binary2Tpdu.deframer().push(Buffer.from('000930', 'hex')))).toMatchObject({
      code: Iso8583ErrorCode.BadFrame,
      fieldPath: 'tpdu',
      offset: 2,
    });
  });

  it('should refuse to frame without the TPDU the spec wants, or with one it does not', () => {
    expect(codecError(() => binary2Tpdu.frame(message)).fieldPath).toBe('tpdu');
    expect(codecError(() => binary2Tpdu.frame(message, Buffer.from('7000030011', 'hex'))).fieldPath).toBe('tpdu');
    expect(codecError(() => ascii4.frame(message, tpdu)).fieldPath).toBe('tpdu');
  });

  it('should refuse a message larger than the header can announce', () => {
    expect(ascii4.frame(payload(9999, 0))).toHaveLength(10003);
    expect(codecError(() => ascii4.frame(payload(10000, 0))).code).toBe(Iso8583ErrorCode.BadFrame);
    expect(codecError(() => binary2Tpdu.frame(payload(0xffff - 4, 0), tpdu)).code).toBe(Iso8583ErrorCode.BadFrame);
  });

  it('should strip header and TPDU from one complete frame', () => {
    expect(binary2Tpdu.deframe(Buffer.from('0009600003001130383030', 'hex'))).toEqual({ tpdu, payload: message });
    expect(codecError(() => binary2Tpdu.deframe(Buffer.from('0009600003001130383030ff', 'hex'))).code).toBe(Iso8583ErrorCode.TrailingBytes);
  });

  it('should throw only Iso8583Error on random bytes, whatever the framing', () => {
    fc.assert(
      fc.property(fc.constantFrom(binary2Tpdu, ascii4, bcd2), fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }), (framer, chunks) => {
        const deframer = framer.deframer(256);
        for (const chunk of chunks) {
          try {
            deframer.push(Buffer.from(chunk));
          } catch (error) {
            if (!(error instanceof Iso8583Error) || error.code !== Iso8583ErrorCode.BadFrame) throw error;
          }
          expect(deframer.bufferedBytes).toBeLessThanOrEqual(2 + 5 + 256);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('TPDU', () => {
  it('should swap destination and source NII for the answer', () => {
    expect(responseTpdu(Buffer.from('6000030011', 'hex')).toString('hex')).toBe('6000110003');
  });

  it('should write NIIs as BCD', () => {
    expect(buildTpdu(3, 120).toString('hex')).toBe('6000030120');
  });

  it('should refuse to answer a TPDU that is not one', () => {
    expect(() => responseTpdu(Buffer.from('60000300', 'hex'))).toThrow(Iso8583Error);
  });
});
