import { Iso8583Error } from './errors';
import { deframe, frame, LengthHeaderDeframer } from './framing';

const payload = (size: number, fill: number): Buffer => Buffer.alloc(size, fill);

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

describe('LengthHeaderDeframer', () => {
  it('should reassemble a frame split across chunks, even inside the header', () => {
    const wire = frame(payload(10, 7));
    const deframer = new LengthHeaderDeframer();
    expect(deframer.push(wire.subarray(0, 1))).toEqual([]);
    expect(deframer.push(wire.subarray(1, 5))).toEqual([]);
    expect(deframer.push(wire.subarray(5))).toEqual([payload(10, 7)]);
    expect(deframer.bufferedBytes).toBe(0);
  });

  it('should split concatenated frames and keep the partial rest', () => {
    const wire = Buffer.concat([frame(payload(3, 1)), frame(payload(0, 0)), frame(payload(4, 2)), frame(payload(5, 3))]);
    const deframer = new LengthHeaderDeframer();
    expect(deframer.push(wire.subarray(0, wire.length - 2))).toEqual([payload(3, 1), payload(0, 0), payload(4, 2)]);
    expect(deframer.push(wire.subarray(wire.length - 2))).toEqual([payload(5, 3)]);
  });

  it('should deliver every frame when fed one byte at a time', () => {
    const frames = [payload(2, 9), payload(70, 8)];
    const wire = Buffer.concat(frames.map(frame));
    const deframer = new LengthHeaderDeframer();
    const received = [...wire].flatMap((byte) => deframer.push(Buffer.from([byte])));
    expect(received).toEqual(frames);
  });

  it('should reject a header above its limit instead of buffering without bound', () => {
    const deframer = new LengthHeaderDeframer(1024);
    expect(() => deframer.push(Buffer.from('ffff', 'hex'))).toThrow(Iso8583Error);
    expect(deframer.bufferedBytes).toBe(0);
  });
});
