import { pack, unpack } from './codec';
import { describe as describeMessage } from './describe';
import { Iso8583ErrorCode } from './errors';
import { Iso8583Message } from './message';
import { ISO8583, S2M_8583 } from './presets';
import { compileSpec } from './spec';
import { ascii, codecError, fieldJson, iccData, specJson } from './test-factories';

/** What the connector needs from a 0210, and what the hand-built answers below carry. */
const approved: Iso8583Message = {
  mti: '0210',
  fields: { 4: '000000001500', 11: '000042', 17: '1123', 28: 'C00000150', 37: '000000123456', 38: 'A1B2C3', 39: '00', 41: 'TERM0001' },
};

describe('fields the spec lacks, read by their ISO 8583:1987 definition', () => {
  // ISO8583 preset: ASCII numerics, binary bitmap. 17 (n 4) and 28 (x+n 8: 9 characters) are not in it.
  const wire = Buffer.from(
    [
      ascii('0210'),
      // bitmap: byte 0 bit 4 (0x10); byte 1 bit 11 (0x20); byte 2 bit 17 (0x80); byte 3 bit 28 (0x10);
      // byte 4 bits 37, 38, 39 (0x08 | 0x04 | 0x02); byte 5 bit 41 (0x80)
      '102080100E800000',
      ascii('000000001500'), // 4
      ascii('000042'), // 11
      ascii('1123'), // 17 capture date MMDD
      ascii('C00000150'), // 28 transaction fee: C + 8 digits
      ascii('000000123456'), // 37
      ascii('A1B2C3'), // 38
      ascii('00'), // 39
      ascii('TERM0001'), // 41
    ].join(''),
    'hex',
  );

  it('should read a hand-built 0210 carrying capture date (17) and fee (28), naming them as fallback fields', () => {
    expect(unpack(ISO8583, wire)).toEqual({ ...approved, fallbackFields: [17, 28] });
  });

  it('should keep refusing such a field when asked to, and when packing (we never send fields the spec lacks)', () => {
    expect(codecError(() => unpack(ISO8583, wire, { unknownFields: 'refuse' }))).toMatchObject({ code: Iso8583ErrorCode.BadBitmap, fieldPath: 'field 17' });
    expect(codecError(() => pack(ISO8583, approved))).toMatchObject({ code: Iso8583ErrorCode.UnknownField, fieldPath: 'field 17' });
  });

  it('should not report fallback fields for a message within its spec', () => {
    expect(unpack(ISO8583, pack(ISO8583, { mti: '0210', fields: { 11: '000042', 39: '00' } }))).not.toHaveProperty('fallbackFields');
  });

  it('should read them encoded like the spec own fields of their type: BCD numerics for S2M_8583', () => {
    const s2m = Buffer.from(
      [
        '0210', // MTI in BCD
        '102080100E800000',
        '000000001500', // 4 as 6 bytes of BCD
        '000042', // 11 BCD
        '1123', // 17 BCD, like the spec's other n fields
        ascii('D00000020'), // 28 ASCII, like its an/ans fields
        ascii('000000123456'),
        ascii('A1B2C3'),
        ascii('00'),
        ascii('TERM0001'),
      ].join(''),
      'hex',
    );
    const message = unpack(S2M_8583, s2m);
    expect(message.fields).toMatchObject({ 4: '000000001500', 11: '000042', 17: '1123', 28: 'D00000020', 39: '00', 41: 'TERM0001' });
    expect(message.fallbackFields).toEqual([17, 28]);
  });

  it('should read a variable-length field the spec lacks (34, ns..28) with the length prefix of its other text fields', () => {
    const spec = compileSpec(
      specJson({ fields: { 11: fieldJson({ type: 'n', length: 6 }), 44: fieldJson({ type: 'ans', length: 25, lengthType: 'LL', prefixEncoding: 'bcd' }) } }),
    );
    const bytes = Buffer.from([ascii('0210'), '0020000040000000', ascii('000042'), '05', ascii('AB-12')].join(''), 'hex');
    expect(unpack(spec, bytes)).toEqual({ mti: '0210', fields: { 11: '000042', 34: 'AB-12' }, fallbackFields: [34] });
  });

  it('should name the fallback field and its offset when its bytes do not fit the standard definition', () => {
    const bad = Buffer.from(wire);
    const at = 4 + 8 + 12 + 6; // field 17
    bad.write('11X3', at, 'latin1');
    expect(codecError(() => unpack(ISO8583, bad))).toMatchObject({
      code: Iso8583ErrorCode.InvalidValue,
      fieldPath: 'field 17 (not in the ISO8583 spec, read as ISO 8583:1987 defines it)',
      offset: at + 2,
    });
  });

  it('should find the message unreadable, saying why, when the spec has no field of the type to read it like', () => {
    const textOnly = compileSpec(specJson({ fields: { 39: fieldJson({ type: 'an', length: 2 }) } }));
    const bytes = Buffer.from([ascii('0210'), '0000800002000000', ascii('1123'), ascii('00')].join(''), 'hex');
    const error = codecError(() => unpack(textOnly, bytes));
    expect(error).toMatchObject({ code: Iso8583ErrorCode.BadBitmap, fieldPath: 'field 17' });
    expect(error.message).toContain('the TEST spec lacks and has no n field to read its ISO 8583:1987 definition like');
  });

  it('should mask fallback fields in log descriptions, whatever they carry', () => {
    const message = unpack(ISO8583, wire);
    expect(describeMessage(message).fields).toMatchObject({
      17: '[masked text: not in the spec]',
      28: '[masked text: not in the spec]',
      39: '00',
      41: 'TERM0001',
    });
    expect(describeMessage({ ...message, fields: { ...message.fields, 55: iccData() } }).fields[55]).toContain('9F02=000000001000');
  });
});
