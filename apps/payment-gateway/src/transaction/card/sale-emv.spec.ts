import { DomainError } from '@app/common';
import { encodeTlv, TlvItem } from '@app/iso8583';
import fc from 'fast-check';
import { REQUIRED_EMV_OBJECTS, readSaleEmv } from './sale-emv';
import { luhnPans, testCardObjects, testTrack2Hex, TEST_VISA_PAN } from './testing/test-card';

const hexOf = (objects: TlvItem[]): string => encodeTlv(objects).toString('hex').toUpperCase();

/** The validation message readSaleEmv throws for `emvData`, or a note that it did not throw one. */
function refusalOf(emvData: string): string {
  try {
    readSaleEmv(emvData);
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
  return 'accepted';
}

/** Every required tag once (an alternative counts as its own tag: 4F and 9F06 each stand for the AID). */
const REQUIRED_TAGS = REQUIRED_EMV_OBJECTS.flatMap((object) => object.tags.map((tag) => ({ tag, object })));

const pans = luhnPans(12);

describe('readSaleEmv', () => {
  it('should keep the masked account and the chip data of a card, never its number', () => {
    fc.assert(
      fc.property(pans, (pan) => {
        const emv = readSaleEmv(hexOf(testCardObjects({ pan, amountMinor: '1250', currencyNumeric: '458' })));

        expect(emv.account).toEqual({
          accountMasked: `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`,
          accountBin: pan.slice(0, 6),
          accountLast4: pan.slice(-4),
        });
        expect(emv).toMatchObject({
          aid: 'A0000000031010',
          appName: 'CARD CREDIT',
          tvr: '0000008000',
          tsi: 'E800',
          atc: '0001',
          issCountryCode: '458',
          cvmPerformed: 'NO_CVM',
        });
        expect(emv).toMatchObject({ signedAmountMinor: '1250', signedCurrencyNumeric: '458' });
        expect(emv.tc).toMatch(/^[0-9A-F]{16}$/);
        expect(JSON.stringify(emv)).not.toContain(pan);
      }),
    );
  });

  it('should read the PAN from track 2 when 5A is absent, and the AID from 9F06 when 4F is', () => {
    const objects = testCardObjects({ withoutPan: true }).map((object) => (object.tag === '4F' ? { ...object, tag: '9F06' } : object));

    expect(readSaleEmv(hexOf(objects))).toMatchObject({
      account: { accountBin: TEST_VISA_PAN.slice(0, 6), accountLast4: TEST_VISA_PAN.slice(-4) },
      aid: 'A0000000031010',
    });
  });

  it('should refuse data that lacks any one required tag, naming it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...REQUIRED_EMV_OBJECTS), (required) => {
        const objects = testCardObjects().filter((object) => !required.tags.includes(object.tag));

        expect(refusalOf(hexOf(objects))).toBe(`emvData lacks tag ${required.tags.join(' or ')} (${required.name})`);
      }),
    );
  });

  it('should refuse a required tag whose value has the wrong length, naming the tag', () => {
    const shaped = REQUIRED_TAGS.filter(({ object }) => object.shape !== '');
    fc.assert(
      fc.property(fc.constantFrom(...shaped), fc.uint8Array({ maxLength: 40 }), ({ tag, object }, bytes) => {
        const value = Buffer.from(bytes);
        fc.pre(!object.valid(value));
        // The tag under test stands alone for its object: its alternatives are left out.
        const objects = testCardObjects()
          .filter((item) => !object.tags.includes(item.tag))
          .concat({ tag, value });

        expect(refusalOf(hexOf(objects))).toBe(`emvData tag ${tag} (${object.name}) must be ${object.shape}`);
      }),
    );
  });

  it('should refuse a PAN or track 2 that is not a card number, without showing it', () => {
    fc.assert(
      fc.property(fc.constantFrom('5A', '57'), fc.stringMatching(/^[0-9A-E]{8,40}$/), (tag, digits) => {
        const value = Buffer.from(digits.length % 2 === 1 ? `${digits}F` : digits, 'hex');
        fc.pre(
          tag === '5A' ? !/^[0-9]{12,19}F?$/.test(value.toString('hex').toUpperCase()) : !/^[0-9]{12,19}D[0-9]{4}/.test(value.toString('hex').toUpperCase()),
        );
        const objects = testCardObjects({ withoutPan: tag === '5A', withoutTrack2: tag === '57' }).concat({ tag, value });

        const refusal = refusalOf(hexOf(objects));

        expect(refusal).toMatch(tag === '5A' ? /^emvData: tag 5A \(PAN\) is not 12 to 19 digits$/ : /^emvData: tag 57 \(track 2 equivalent\) is not a PAN/);
        expect(refusal).not.toContain(digits);
      }),
    );
  });

  it('should refuse garbled TLV as a validation error, never an unexpected one', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 120 }), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }), (noise, at, cut) => {
        // A valid card with bytes cut or noise spliced in at a random place, or noise alone.
        const card = encodeTlv(testCardObjects());
        const position = at % card.length;
        const garbled = [
          Buffer.from(noise),
          Buffer.concat([card.subarray(0, position), Buffer.from(noise), card.subarray(position)]),
          card.subarray(0, Math.max(1, card.length - cut.length)),
        ];
        for (const data of garbled) {
          const refusal = refusalOf(data.toString('hex'));
          if (refusal !== 'accepted') expect(refusal).toMatch(/^emvData[ :]/);
        }
      }),
    );
  });

  it('should not show the track 2 or the PAN in any refusal', () => {
    fc.assert(
      fc.property(pans, fc.constantFrom(...REQUIRED_EMV_OBJECTS), (pan, required) => {
        const objects = testCardObjects({ pan }).filter((object) => !required.tags.includes(object.tag) || required.tags.includes('5A'));
        const refusal = refusalOf(hexOf(objects));

        expect(refusal).not.toContain(pan);
        expect(refusal).not.toContain(testTrack2Hex(pan));
      }),
    );
  });

  it('should refuse data that is not hex', () => {
    expect(refusalOf('5A08XYZ')).toBe('emvData: card EMV data is not hex');
  });
});
