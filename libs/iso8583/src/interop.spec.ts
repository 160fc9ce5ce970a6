import iso8583Json from '../specs/iso8583.json';
import { pack, unpack } from './codec';
import { framerFor } from './framing';
import { Iso8583Message } from './message';
import { ISO8583 } from './presets';
import { compileSpec } from './spec';
import { ISO_8583_1987 } from './standard-1987';
import { ISO_8583_JS_ICC_FORMAT, Iso8583Js, Iso8583JsFields, orThrow } from './test/iso-8583-js';
import { iccData } from './test-factories';
import { decodeTlv } from './tlv';

/**
 * Interoperability with the independent npm package `iso_8583`. Its wire format: ASCII MTI, a
 * binary bitmap that always carries the secondary bitmap (bit 1 set even with no field above
 * 64), ASCII length digits, fixed `b` fields as raw bytes, and a 2-byte binary length header:
 * our ISO8583 preset reads and writes that as it is. It has no binary variable field, so field 55
 * travels as hex text whose LLL counts characters: `ISO8583_ICC_HEX` below is ISO8583 with field
 * 55 declared that way, for these tests only.
 */
const ISO8583_ICC_HEX = compileSpec({
  ...iso8583Json,
  name: 'ISO8583_ICC_HEX',
  fields: {
    ...iso8583Json.fields,
    55: {
      description: 'ICC data as hex text, LLL counting characters',
      type: 'b',
      length: 499,
      lengthType: 'LLL',
      encoding: 'hex',
      prefixEncoding: 'ascii',
      prefixCounts: 'hexChars',
      format: 'tlv',
    },
  },
});

const sale: Iso8583Message = {
  mti: '0200',
  fields: {
    2: '4761739001010119',
    3: '000000',
    4: '000000001000',
    7: '0911131411',
    11: '000001',
    12: '131411',
    13: '0911',
    14: '2212',
    22: '051',
    35: '4761739001010119=22122011758928889',
    41: 'TERM0001',
    42: 'MERCHANT0000001',
    49: '504',
  },
};

/** The sale as `iso_8583` holds it: field 0 the MTI, every field text (bytes as hex). */
function asTheirs(message: Iso8583Message): Iso8583JsFields {
  const fields: Iso8583JsFields = { 0: message.mti };
  for (const [number, value] of Object.entries(message.fields)) fields[number] = Buffer.isBuffer(value) ? value.toString('hex').toUpperCase() : value;
  return fields;
}

describe('interoperability with iso_8583', () => {
  it('should let iso_8583 read a sale our ISO8583 preset packed', () => {
    expect(orThrow(new Iso8583Js().getIsoJSON(pack(ISO8583, sale), { lenHeader: false }))).toEqual(asTheirs(sale));
  });

  it('should let iso_8583 read a sale we framed with the 2-byte length header', () => {
    expect(orThrow(new Iso8583Js().getIsoJSON(framerFor(ISO8583).frame(pack(ISO8583, sale))))).toEqual(asTheirs(sale));
  });

  it('should read a sale iso_8583 framed and packed, secondary bitmap and all', () => {
    const framed = orThrow(new Iso8583Js(asTheirs(sale)).getBufferMessage());
    expect(framed[6] & 0x80).toBe(0x80); // its bit 1: a secondary bitmap, all zero
    expect(unpack(ISO8583, framerFor(ISO8583).deframe(framed).payload)).toEqual(sale);
  });

  describe('field 55', () => {
    const icc = iccData();
    const withIcc: Iso8583Message = { mti: '0200', fields: { ...sale.fields, 55: icc } };

    it('should let iso_8583 read our ICC data as hex text', () => {
      const theirs = orThrow(new Iso8583Js(undefined, ISO_8583_JS_ICC_FORMAT).getIsoJSON(pack(ISO8583_ICC_HEX, withIcc), { lenHeader: false }));
      expect(theirs).toEqual(asTheirs(withIcc));
      expect(decodeTlv(Buffer.from(theirs[55], 'hex'))).toHaveLength(20);
    });

    it('should read the ICC data iso_8583 packed back into its 20 tags', () => {
      const raw = orThrow(new Iso8583Js(asTheirs(withIcc), ISO_8583_JS_ICC_FORMAT).getRawMessage());
      const ours = unpack(ISO8583_ICC_HEX, raw);
      expect(ours).toEqual(withIcc);
      expect(decodeTlv(ours.fields[55] as Buffer).map(({ tag }) => tag)).toContain('9F26');
    });

    it('should not get binary field 55 of the ISO8583 preset back from iso_8583, which reads every field as UTF-8 text', () => {
      const message = { mti: '0200', fields: { ...withIcc.fields, 62: 'PRIVATE DATA' } };
      const theirs = orThrow(new Iso8583Js().getIsoJSON(pack(ISO8583, message), { lenHeader: false }));
      expect(Buffer.from(theirs[55], 'utf8').equals(icc)).toBe(false);
      // It still steps over the field by its byte count, so the field after it survives.
      expect(theirs[62]).toBe('PRIVATE DATA');
    });
  });

  describe('fields our spec lacks', () => {
    it('should read a 0210 iso_8583 packed with capture date (17) and transaction fee (28), which the ISO8583 preset lacks', () => {
      const answer = {
        0: '0210',
        3: '000000',
        4: '000000001500',
        7: '1123101500',
        11: '000042',
        17: '1123',
        28: 'C00000150',
        37: '000000123456',
        38: 'A1B2C3',
        39: '00',
        41: 'TERM0001',
        49: '504',
      };
      const framed = orThrow(new Iso8583Js(answer).getBufferMessage());

      const ours = unpack(ISO8583, framerFor(ISO8583).deframe(framed).payload);

      const { 0: mti, ...fields } = answer;
      expect(ours).toEqual({ mti, fields, fallbackFields: [17, 28] });
    });

    it('should define the 1987 fields as iso_8583 does, but where the standard and it differ', () => {
      const formats = require('iso_8583/lib/formats.js') as Record<string, { ContentType: string; LenType: string; MaxLen: number }>;
      const lengthTypes: Record<string, string> = { fixed: 'fixed', llvar: 'LL', lllvar: 'LLL', llllllvar: 'LLLLLL' };
      const differing: number[] = [];
      for (const standard of ISO_8583_1987) {
        // b lengths: iso_8583 counts hex characters for some and bytes for others.
        if (standard === undefined || standard.type === 'b') continue;
        const theirs = formats[standard.number];
        if (lengthTypes[theirs.LenType] !== standard.lengthType || theirs.MaxLen !== standard.length) differing.push(standard.number);
      }
      // 53: n 16 (theirs b); 58, 59: ans...999 (theirs national layouts); 127: ans...999 (theirs Postilion's LLLLLL).
      expect(differing).toEqual([53, 58, 59, 127]);
    });
  });
});
