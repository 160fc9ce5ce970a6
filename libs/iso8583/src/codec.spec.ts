import { pack, unpack } from './codec';
import { Iso8583Error, Iso8583ErrorCode } from './errors';
import { ISO8583 } from './presets';
import { compileSpec } from './spec';
import { ascii, fieldJson, specJson } from './test-factories';

function expectCodecError(run: () => unknown, code: Iso8583ErrorCode, fieldPath: string, offset?: number): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(Iso8583Error);
  const error = caught as Iso8583Error;
  expect({ code: error.code, fieldPath: error.fieldPath }).toEqual({ code, fieldPath });
  if (offset !== undefined) expect(error.offset).toBe(offset);
}

describe('ISO8583 preset golden vectors', () => {
  const sale = {
    mti: '0200',
    fields: { 2: '4761739001010119', 3: '000000', 4: '000000001000', 11: '000001', 22: '051', 41: 'TERM0001', 49: '504' },
  };
  const saleHex = [
    '30323030', // MTI "0200" in ASCII
    '7020040000808000', // bitmap: byte 0 = bits 2,3,4 (0x70); byte 1 = bit 11 (0x20); byte 2 = bit 22 (0x04); byte 5 = bit 41 (0x80); byte 6 = bit 49 (0x80)
    '3136', // field 2 LL prefix "16"
    ascii('4761739001010119'), // field 2 PAN, 16 ASCII digits
    ascii('000000'), // field 3 processing code n6
    ascii('000000001000'), // field 4 amount n12 = 10.00
    ascii('000001'), // field 11 STAN n6
    ascii('051'), // field 22 POS entry mode n3
    ascii('TERM0001'), // field 41 terminal id ans8
    ascii('504'), // field 49 currency MAD n3
  ].join('');

  it('should pack an 0200 sale byte for byte as the standard lays it out', () => {
    expect(pack(ISO8583, sale).toString('hex')).toBe(saleHex);
  });

  it('should unpack the hand-built 0200 sale', () => {
    expect(unpack(ISO8583, Buffer.from(saleHex, 'hex'))).toEqual(sale);
  });

  const signOnHex = [
    '30383030', // MTI "0800"
    '8220000000000000', // primary bitmap: bit 1 (secondary present) + bit 7 = 0x82; bit 11 = 0x20 in byte 1
    '0400000000000000', // secondary bitmap: bit 70 is the 6th bit of its first byte (0x04)
    ascii('0101120000'), // field 7 transmission date/time MMDDhhmmss
    ascii('000123'), // field 11 STAN
    ascii('001'), // field 70 network management code: sign-on
  ].join('');

  it('should pack an 0800 sign-on with a secondary bitmap', () => {
    expect(pack(ISO8583, { mti: '0800', fields: { 7: '0101120000', 11: '000123', 70: '001' } }).toString('hex')).toBe(signOnHex);
  });

  it('should unpack an 0800 sign-on with a secondary bitmap', () => {
    expect(unpack(ISO8583, Buffer.from(signOnHex, 'hex'))).toEqual({ mti: '0800', fields: { 7: '0101120000', 11: '000123', 70: '001' } });
  });

  it('should pack field 55 as an LLL ASCII length followed by raw bytes', () => {
    const packed = pack(ISO8583, { mti: '0200', fields: { 55: Buffer.from('9F02060000000010009F270180', 'hex') } });
    // MTI, bitmap with only bit 55 (byte 6, 7th bit = 0x02), "013", then the 13 bytes of ICC data (9F02 amount, 9F27 CID).
    expect(packed.toString('hex')).toBe('30323030' + '0000000000000200' + ascii('013') + '9f02060000000010009f270180');
  });

  it('should pad short fixed fields: numbers left with zeros, text right with spaces', () => {
    const packed = pack(ISO8583, { mti: '0210', fields: { 4: '1000', 41: 'T1' } });
    expect(unpack(ISO8583, packed).fields).toEqual({ 4: '000000001000', 41: 'T1      ' });
  });
});

describe('field 55 as BER-TLV', () => {
  // 9F02 06 + 6 bytes, then 5F2A announcing 2 bytes with only 1 left: the defect is at index 12 of the value.
  const malformed = Buffer.from('9F0206000000001000' + '5F2A0205', 'hex');

  it('should refuse to unpack malformed ICC data, naming field 55 and the offset of the defect in the message', () => {
    // MTI (4) + bitmap (8) + "013" (3): the value starts at offset 15, the defect sits at 15 + 12.
    const wire = Buffer.concat([Buffer.from('0200', 'latin1'), Buffer.from('0000000000000200', 'hex'), Buffer.from('013', 'latin1'), malformed]);
    expectCodecError(() => unpack(ISO8583, wire), Iso8583ErrorCode.InvalidValue, 'field 55', 27);
  });

  it('should refuse to pack malformed ICC data, saying where in the value', () => {
    expect(() => pack(ISO8583, { mti: '0200', fields: { 55: malformed } })).toThrow(
      'field 55: value of tag 5F2A needs 2 bytes, 1 left (byte 12 of the TLV data)',
    );
  });

  it('should keep field 55 a Buffer holding the TLV bytes', () => {
    const icc = Buffer.from('9F270180' + '77069F3602004700', 'hex');
    expect(unpack(ISO8583, pack(ISO8583, { mti: '0210', fields: { 55: icc } })).fields[55]).toEqual(icc);
  });

  it('should refuse format tlv on a field that is not binary', () => {
    expectCodecError(
      () => compileSpec(specJson({ fields: { 55: fieldJson({ type: 'ans', length: 999, lengthType: 'LLL', format: 'tlv' }) } })),
      Iso8583ErrorCode.BadSpec,
      'spec field 55',
    );
  });
});

describe('round trip per field type', () => {
  const spec = compileSpec(
    specJson({
      fields: {
        2: fieldJson({ type: 'n', length: 19, lengthType: 'LL' }),
        3: fieldJson({ type: 'n', length: 6 }),
        4: fieldJson({ type: 'an', length: 6 }),
        5: fieldJson({ type: 'ans', length: 30, lengthType: 'LLL' }),
        6: fieldJson({ type: 'b', length: 8 }),
        7: fieldJson({ type: 'b', length: 9999, lengthType: 'LLLL' }),
        8: fieldJson({ type: 'z', length: 37, lengthType: 'LL' }),
        70: fieldJson({ type: 'n', length: 3 }),
      },
    }),
  );
  const cases: Array<[string, number, string | Buffer]> = [
    ['n LL', 2, '5413330089020011'],
    ['n fixed', 3, '003000'],
    ['an fixed', 4, 'AB12 z'],
    ['ans LLL', 5, 'Shop #1, Casablanca {MA}'],
    ['b fixed', 6, Buffer.from('0123456789abcdef', 'hex')],
    ['b LLLL', 7, Buffer.alloc(1200, 0xa5)],
    ['z LL', 8, '5413330089020011=2512101123400001'],
    ['n fixed above 64', 70, '301'],
  ];
  it.each(cases)('should round-trip a %s field', (_label, number, value) => {
    const message = { mti: '0100', fields: { [number]: value } };
    expect(unpack(spec, pack(spec, message))).toEqual(message);
  });
});

describe('other encodings', () => {
  it('should pack a BCD MTI, BCD numerics with BCD LL prefix and a hex bitmap', () => {
    const spec = compileSpec(
      specJson({
        mti: { encoding: 'bcd' },
        bitmap: { encoding: 'hex' },
        fields: {
          2: fieldJson({ type: 'n', length: 19, lengthType: 'LL', encoding: 'bcd', prefixEncoding: 'bcd' }),
          3: fieldJson({ type: 'n', length: 6, encoding: 'bcd' }),
        },
      }),
    );
    const message = { mti: '0200', fields: { 2: '476173900101011', 3: '000000' } };
    const packed = pack(spec, message);
    // MTI 02 00; bitmap "6000000000000000" as ASCII hex; LL 0x15 (15 digits); PAN right-justified 04 76 ... ; 00 00 00
    expect(packed.toString('hex')).toBe('0200' + ascii('6000000000000000') + '15' + '0476173900101011' + '000000');
    expect(unpack(spec, packed)).toEqual(message);
  });

  it('should count hex characters in the length prefix when the spec says so', () => {
    const spec = compileSpec(specJson({ fields: { 55: fieldJson({ type: 'b', length: 499, lengthType: 'LLL', encoding: 'hex', prefixCounts: 'hexChars' }) } }));
    const packed = pack(spec, { mti: '0200', fields: { 55: Buffer.from('9C0100', 'hex') } });
    // 3 bytes travel as 6 hex characters, and the LLL says "006".
    expect(packed.subarray(12).toString('latin1')).toBe('006' + '9C0100');
    expect(unpack(spec, packed).fields[55]).toEqual(Buffer.from('9C0100', 'hex'));
  });

  it('should refuse an odd hex-character count', () => {
    const spec = compileSpec(specJson({ fields: { 55: fieldJson({ type: 'b', length: 499, lengthType: 'LLL', encoding: 'hex', prefixCounts: 'hexChars' }) } }));
    const wire = Buffer.concat([Buffer.from('0200', 'latin1'), Buffer.from('0000000000000200', 'hex'), Buffer.from('0059C0100', 'latin1')]);
    expectCodecError(() => unpack(spec, wire), Iso8583ErrorCode.BadLengthPrefix, 'field 55', 12);
  });

  it('should pack a BCD track 2 with a BCD LL prefix counting characters', () => {
    const spec = compileSpec(specJson({ fields: { 35: fieldJson({ type: 'z', length: 37, lengthType: 'LL', encoding: 'bcd', prefixEncoding: 'bcd' }) } }));
    const packed = pack(spec, { mti: '0200', fields: { 35: '4761739001010119=2512101123' } });
    // MTI, bit 35 (byte 4, 3rd bit = 0x20), LL 0x27 (27 characters), 14 bytes ending in the F pad.
    expect(packed.toString('hex')).toBe(ascii('0200') + '0000000020000000' + '27' + '4761739001010119d2512101123f');
  });

  it('should pack EBCDIC text with an EBCDIC MTI and binary LL prefix', () => {
    const spec = compileSpec(
      specJson({
        mti: { encoding: 'ebcdic' },
        fields: { 43: fieldJson({ type: 'ans', length: 40, lengthType: 'LL', encoding: 'ebcdic', prefixEncoding: 'binary' }) },
      }),
    );
    const message = { mti: '0200', fields: { 43: 'Ab 1' } };
    const packed = pack(spec, message);
    // MTI F0 F2 F0 F0; bitmap bit 43 (byte 5, 3rd bit = 0x20); length byte 04; 'A'=C1 'b'=82 ' '=40 '1'=F1
    expect(packed.toString('hex')).toBe('f0f2f0f0' + '0000000000200000' + '04' + 'c18240f1');
    expect(unpack(spec, packed)).toEqual(message);
  });
});

describe('codec errors', () => {
  const sale = pack(ISO8583, { mti: '0200', fields: { 2: '4761739001010119', 35: '4761739001010119=25121011234', 52: Buffer.alloc(8, 1) } });

  it('should reject a length prefix beyond the field maximum with the field path', () => {
    // MTI (4) + bitmap (8) = field 2 prefix at offset 12; "16" -> "20" (PAN max is 19)
    const bad = Buffer.from(sale);
    bad.write('20', 12, 'latin1');
    expectCodecError(() => unpack(ISO8583, bad), Iso8583ErrorCode.LengthExceedsMax, 'field 2', 12);
  });

  it('should reject a track 2 length prefix beyond 37 in field 35', () => {
    const offset = 4 + 8 + 2 + 16; // after MTI, bitmap and field 2
    const bad = Buffer.from(sale);
    bad.write('99', offset, 'latin1');
    expectCodecError(() => unpack(ISO8583, bad), Iso8583ErrorCode.LengthExceedsMax, 'field 35', offset);
  });

  it('should reject a truncated message naming the field it stopped in', () => {
    expectCodecError(() => unpack(ISO8583, sale.subarray(0, sale.length - 3)), Iso8583ErrorCode.Truncated, 'field 52', sale.length - 8);
  });

  it('should reject a message cut inside the bitmap', () => {
    expectCodecError(() => unpack(ISO8583, sale.subarray(0, 7)), Iso8583ErrorCode.Truncated, 'bitmap', 4);
  });

  it('should reject a message cut inside the MTI', () => {
    expectCodecError(() => unpack(ISO8583, Buffer.from('02', 'latin1')), Iso8583ErrorCode.Truncated, 'mti', 0);
  });

  it('should reject a bitmap bit for a field the spec lacks when told to refuse such fields', () => {
    const bad = Buffer.from(sale);
    bad[4] |= 0x01; // bit 8: not in the ISO8583 preset
    expectCodecError(() => unpack(ISO8583, bad, { unknownFields: 'refuse' }), Iso8583ErrorCode.BadBitmap, 'field 8', 4);
  });

  it('should reject non-numeric data in an n field when unpacking', () => {
    const bad = Buffer.from(sale);
    bad.write('X', 14, 'latin1'); // first PAN digit
    expectCodecError(() => unpack(ISO8583, bad), Iso8583ErrorCode.InvalidValue, 'field 2', 14);
  });

  it('should reject non-numeric data in an n field when packing', () => {
    expectCodecError(() => pack(ISO8583, { mti: '0200', fields: { 4: '10.00' } }), Iso8583ErrorCode.InvalidValue, 'field 4');
  });

  it('should reject a value longer than the field maximum when packing', () => {
    expectCodecError(() => pack(ISO8583, { mti: '0200', fields: { 2: '1'.repeat(20) } }), Iso8583ErrorCode.LengthExceedsMax, 'field 2');
  });

  it('should reject a field the spec lacks when packing', () => {
    expectCodecError(() => pack(ISO8583, { mti: '0200', fields: { 8: '1' } }), Iso8583ErrorCode.UnknownField, 'field 8');
  });

  it('should reject a field given twice under two keys', () => {
    expectCodecError(
      () => pack(ISO8583, { mti: '0200', fields: { 3: '000000', ['03' as unknown as number]: '000000' } }),
      Iso8583ErrorCode.InvalidValue,
      'field 3',
    );
  });

  it('should reject a string for a binary field', () => {
    expectCodecError(() => pack(ISO8583, { mti: '0200', fields: { 52: '1234' } }), Iso8583ErrorCode.InvalidValue, 'field 52');
  });

  it('should reject bytes after the last field', () => {
    expectCodecError(() => unpack(ISO8583, Buffer.concat([sale, Buffer.from([0])])), Iso8583ErrorCode.TrailingBytes, 'message', sale.length);
  });

  it('should reject a non-digit length prefix', () => {
    const bad = Buffer.from(sale);
    bad.write('1A', 12, 'latin1');
    expectCodecError(() => unpack(ISO8583, bad), Iso8583ErrorCode.BadLengthPrefix, 'field 2', 12);
  });

  it('should reject an inconsistent spec', () => {
    expectCodecError(
      () => compileSpec(specJson({ fields: { 3: fieldJson({ type: 'an', length: 3, encoding: 'bcd' }) } })),
      Iso8583ErrorCode.BadSpec,
      'spec field 3',
    );
  });
});
