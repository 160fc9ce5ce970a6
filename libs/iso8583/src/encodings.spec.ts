import { bcdTrack2, encodings } from './encodings';
import { Iso8583Error } from './errors';
import { lengthPrefix } from './length-prefix';

const { bcd, ebcdic, hex } = encodings;

describe('content encodings', () => {
  it('should right-justify an odd-length BCD value with a leading 0 nibble', () => {
    expect(bcd.encode('123', 'f').toString('hex')).toBe('0123');
    expect(bcd.decode(Buffer.from('0123', 'hex'), 3, 'f', 0)).toBe('123');
  });

  it('should reject a BCD nibble above 9', () => {
    expect(() => bcd.decode(Buffer.from('1a', 'hex'), 2, 'field 3', 10)).toThrow(Iso8583Error);
  });

  it('should map digits, letters and space to EBCDIC cp037', () => {
    expect(ebcdic.encode('09 AZaz', 'f').toString('hex')).toBe('f0f940c1e981a9');
    expect(ebcdic.decode(Buffer.from('f0f940c1e981a9', 'hex'), 7, 'f', 0)).toBe('09 AZaz');
  });

  it('should pack track 2 left-justified, the separator as nibble D and an odd count padded with F', () => {
    expect(bcdTrack2.encode('4761739001010119=2512101123', 'field 35').toString('hex')).toBe('4761739001010119d2512101123f');
    expect(bcdTrack2.encode('12D4', 'field 35').toString('hex')).toBe('12d4');
  });

  it('should read BCD track 2 back with = as the separator', () => {
    expect(bcdTrack2.decode(Buffer.from('4761739001010119d25121011230', 'hex'), 28, 'field 35', 0)).toBe('4761739001010119=25121011230');
    expect(bcdTrack2.decode(Buffer.from('12d4', 'hex'), 4, 'field 35', 0)).toBe('12=4');
  });

  it('should refuse an odd BCD track 2 whose pad nibble is not F', () => {
    expect(() => bcdTrack2.decode(Buffer.from('1230', 'hex'), 3, 'field 35', 40)).toThrow(expect.objectContaining({ fieldPath: 'field 35', offset: 41 }));
  });

  it('should refuse a character track 2 BCD has no nibble for', () => {
    expect(() => bcdTrack2.encode('12A4', 'field 35')).toThrow(Iso8583Error);
  });

  it('should carry bytes as uppercase ASCII hex', () => {
    expect(hex.encode(Buffer.from([0xab, 0x01]), 'f').toString('latin1')).toBe('AB01');
  });
});

describe('length prefixes', () => {
  it.each([
    ['LL', 'ascii', 5, '3035'],
    ['LLL', 'ascii', 123, '313233'],
    ['LLLL', 'ascii', 42, '30303432'],
    ['LL', 'bcd', 19, '19'],
    ['LLL', 'bcd', 123, '0123'],
    ['LLLL', 'bcd', 1234, '1234'],
    ['LL', 'binary', 37, '25'],
    ['LLL', 'binary', 300, '012c'],
    ['LLLL', 'binary', 9999, '270f'],
    ['LL', 'ebcdic', 12, 'f1f2'],
  ] as const)('should write %s %s length %d as %s and read it back', (type, encoding, length, wire) => {
    const prefix = lengthPrefix(type, encoding);
    expect(prefix.encode(length, 9999, 'f').toString('hex')).toBe(wire);
    expect(prefix.decode(Buffer.from(wire, 'hex'), 0, 9999, 'f')).toBe(length);
  });

  it('should refuse to write a length beyond the field maximum', () => {
    expect(() => lengthPrefix('LL', 'ascii').encode(20, 19, 'field 2')).toThrow(expect.objectContaining({ fieldPath: 'field 2' }));
  });

  it('should refuse a binary LL length beyond 99', () => {
    expect(() => lengthPrefix('LL', 'binary').decode(Buffer.from([200]), 0, 99, 'field 2')).toThrow(Iso8583Error);
  });
});
