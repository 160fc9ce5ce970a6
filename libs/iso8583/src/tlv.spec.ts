import fc from 'fast-check';
import { Iso8583ErrorCode } from './errors';
import { codecError, iccData, iccDataItems } from './test-factories';
import { checkTlv, decodeTlv, decodeTlvTree, encodeTlv, isConstructedTag } from './tlv';

const hex = (text: string): Buffer => Buffer.from(text.replace(/ /g, ''), 'hex');

describe('decodeTlv', () => {
  it('should read one-, two- and three-byte tags', () => {
    // 82 (1 byte), 9F02 (low 5 bits of 9F all set, 02 ends), DF8101 (81 has bit 8 set, so one more byte)
    expect(decodeTlv(hex('82 02 1980  9F02 06 000000001000  DF8101 01 AA'))).toEqual([
      { tag: '82', value: hex('1980') },
      { tag: '9F02', value: hex('000000001000') },
      { tag: 'DF8101', value: hex('AA') },
    ]);
  });

  it('should read the 0x81 and 0x82 long length forms', () => {
    const items = decodeTlv(Buffer.concat([hex('9F10 81 C8'), Buffer.alloc(200, 1), hex('DF01 82 012C'), Buffer.alloc(300, 2)]));
    expect(items.map(({ tag, value }) => [tag, value.length])).toEqual([
      ['9F10', 200],
      ['DF01', 300],
    ]);
  });

  it('should skip 00 and FF padding before, between and after objects', () => {
    expect(decodeTlv(hex('00 FF  9C 01 00  00 00  5F2A 02 0504  FF'))).toEqual([
      { tag: '9C', value: hex('00') },
      { tag: '5F2A', value: hex('0504') },
    ]);
  });

  it('should refuse the indefinite length form and forms longer than 3 bytes', () => {
    expect(codecError(() => decodeTlv(hex('70 80 5A 01 11 00 00')))).toMatchObject({ code: Iso8583ErrorCode.InvalidValue, offset: 1 });
    expect(codecError(() => decodeTlv(hex('9F02 84 00000006 000000001000')))).toMatchObject({ code: Iso8583ErrorCode.InvalidValue, offset: 2 });
  });

  it('should refuse a tag longer than 4 bytes', () => {
    expect(codecError(() => decodeTlv(hex('DF 81 82 83 04 01 AA'))).message).toContain('tag longer than 4 bytes');
  });

  it('should either read the objects before the cut or throw at or before it, for a cut at every position', () => {
    const items = iccDataItems();
    const wire = encodeTlv(items);
    const boundaries = new Map<number, number>();
    let end = 0;
    items.forEach((item, index) => {
      end += encodeTlv([item]).length;
      boundaries.set(end, index + 1);
    });
    for (let cut = 0; cut < wire.length; cut++) {
      const complete = cut === 0 ? 0 : boundaries.get(cut);
      if (complete !== undefined) {
        expect(decodeTlv(wire.subarray(0, cut))).toEqual(items.slice(0, complete));
      } else {
        const error = codecError(() => decodeTlv(wire.subarray(0, cut), 'field 55', 100));
        expect({ code: error.code, fieldPath: error.fieldPath }).toEqual({ code: Iso8583ErrorCode.InvalidValue, fieldPath: 'field 55' });
        expect(error.offset).toBeGreaterThanOrEqual(100);
        expect(error.offset).toBeLessThanOrEqual(100 + cut);
      }
    }
  });

  it('should name the offset of a truncated value in the message', () => {
    // 9F02 06 + 6 bytes (9 bytes), then 5F2A 02 with one value byte: the value starts at index 12.
    const error = codecError(() => decodeTlv(hex('9F02 06 000000001000  5F2A 02 05'), 'field 55', 15));
    expect({ offset: error.offset, message: error.message }).toEqual({ offset: 27, message: 'field 55 at offset 27: value of tag 5F2A needs 2 bytes, 1 left' });
  });

  it('should refuse more than 256 objects', () => {
    expect(() => decodeTlv(Buffer.concat(Array.from({ length: 257 }, () => hex('9C 01 00'))))).toThrow('more than 256 TLV objects');
  });
});

describe('templates', () => {
  // Response message template format 2 (77) and a READ RECORD template (70), as EMV Book 3 lays them out.
  const template77 = hex('77 1A  9F27 01 80  9F36 02 0047  9F26 08 8E19EB1A3C1D3B8C  9F10 03 060A03');
  const template70 = hex('70 1A  5A 08 4761739001010119  5F24 03 251231  57 08 4761739001010119');

  it('should keep a template as one object at the top level, its value holding the children', () => {
    const [item] = decodeTlv(template77);
    expect(item.tag).toBe('77');
    expect(decodeTlv(item.value).map(({ tag }) => tag)).toEqual(['9F27', '9F36', '9F26', '9F10']);
  });

  it('should open templates 70 and 77 in the tree', () => {
    expect(decodeTlvTree(Buffer.concat([template70, template77, hex('91 02 3030')]))).toEqual([
      {
        tag: '70',
        value: template70.subarray(2),
        children: [
          { tag: '5A', value: hex('4761739001010119') },
          { tag: '5F24', value: hex('251231') },
          { tag: '57', value: hex('4761739001010119') },
        ],
      },
      {
        tag: '77',
        value: template77.subarray(2),
        children: [
          { tag: '9F27', value: hex('80') },
          { tag: '9F36', value: hex('0047') },
          { tag: '9F26', value: hex('8E19EB1A3C1D3B8C') },
          { tag: '9F10', value: hex('060A03') },
        ],
      },
      { tag: '91', value: hex('3030') },
    ]);
  });

  it('should tell constructed tags from primitive ones', () => {
    expect(['70', '77', '71', '9F02', '5A'].map(isConstructedTag)).toEqual([true, true, true, false, false]);
  });

  it('should find a defect inside a template, at its offset', () => {
    // 70 04 | 5A 05 1122: 5A announces 5 bytes, the template leaves 2; the value starts at index 4.
    const error = codecError(() => checkTlv(hex('70 04 5A 05 1122'), 'field 55', 10));
    expect({ offset: error.offset, message: error.message }).toEqual({ offset: 14, message: 'field 55 at offset 14: value of tag 5A needs 5 bytes, 2 left' });
  });

  it('should refuse templates nested deeper than 8', () => {
    let nested = hex('9C 01 00');
    for (let depth = 0; depth < 9; depth++) nested = Buffer.concat([hex('70'), Buffer.from([nested.length]), nested]);
    expect(() => checkTlv(nested)).toThrow('nested deeper than 8');
  });
});

describe('encodeTlv', () => {
  it('should write the short, 0x81 and 0x82 length forms', () => {
    expect(encodeTlv([{ tag: '9c', value: hex('00') }]).toString('hex')).toBe('9c0100');
    expect(
      encodeTlv([{ tag: '9F10', value: Buffer.alloc(128) }])
        .subarray(0, 4)
        .toString('hex'),
    ).toBe('9f108180');
    expect(
      encodeTlv([{ tag: 'DF01', value: Buffer.alloc(256) }])
        .subarray(0, 5)
        .toString('hex'),
    ).toBe('df01820100');
  });

  it.each(['9F', '5A01', '00', 'FF', '9F8001FF', 'ZZ', ''])('should refuse the tag "%s", which would not read back as itself', (tag) => {
    expect(codecError(() => encodeTlv([{ tag, value: hex('00') }])).fieldPath).toBe('field 55');
  });

  it('should write the ICC data a sale carries and read its tags again', () => {
    expect(decodeTlv(iccData()).find((item) => item.tag === '9F02')?.value).toEqual(hex('000000001000'));
  });

  it('should read back what it wrote, for any well-formed tags and values', () => {
    const tagArb = fc.oneof(
      fc.integer({ min: 0x01, max: 0xfe }).filter((byte) => (byte & 0x1f) !== 0x1f),
      fc
        .tuple(
          fc.integer({ min: 0, max: 6 }).map((top) => (top << 5) | 0x1f),
          fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 2 }),
          fc.integer({ min: 0, max: 0x7f }),
        )
        .map(([first, middle, last]) => [first, ...middle, last]),
    );
    const itemArb = fc.record({
      tag: tagArb.map((bytes) =>
        Buffer.from(Array.isArray(bytes) ? bytes : [bytes])
          .toString('hex')
          .toUpperCase(),
      ),
      value: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    });
    fc.assert(
      fc.property(fc.array(itemArb, { maxLength: 12 }), (items) => {
        expect(decodeTlv(encodeTlv(items))).toEqual(items);
      }),
      { numRuns: 300 },
    );
  });
});
