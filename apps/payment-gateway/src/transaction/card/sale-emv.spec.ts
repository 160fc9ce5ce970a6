import { DomainError } from '@app/common';
import { readCardData, TEST_CARD_SCHEMES, TEST_CARDS, testCardEmv as kernelTestCardEmv } from '@app/host-protocol';
import { encodeTlv, TlvItem } from '@app/iso8583';
import fc from 'fast-check';
import { tagLabel } from './emv-data-elements';
import { cardReadIdentity, REQUIRED_EMV_OBJECTS, readSaleEmv, SignedSale } from './sale-emv';
import { cardReadHex, cardReads, luhnPans, mutationsOf, TEST_CURRENCIES, testCardObjects, testTrack2Hex, TEST_VISA_PAN } from './testing/test-card';

const hexOf = (objects: TlvItem[]): string => encodeTlv(objects).toString('hex').toUpperCase();

/** What the test cards of {@link testCardObjects} sign by default. */
const TEN_MYR: SignedSale = { amount: { value: '10.00', currency: 'MYR' }, amountMinor: '1000' };

/** The validation message readSaleEmv throws for `emvData`, or a note that it did not throw one. */
function refusalOf(emvData: string, sale: SignedSale = TEN_MYR): string {
  try {
    readSaleEmv(emvData, sale);
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
  return 'accepted';
}

const pans = luhnPans(12);

describe('readSaleEmv', () => {
  it('should keep the masked account and the chip data of a card, never its number', () => {
    fc.assert(
      fc.property(pans, (pan) => {
        const emv = readSaleEmv(hexOf(testCardObjects({ pan, amountMinor: '1250', currencyNumeric: '458' })), { ...TEN_MYR, amountMinor: '1250' });

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
        expect(emv.tc).toMatch(/^[0-9A-F]{16}$/);
        expect(JSON.stringify(emv)).not.toContain(pan);
      }),
    );
  });

  it('should read the PAN from track 2 when 5A is absent, and the AID from 9F06 when 4F is', () => {
    const objects = testCardObjects({ withoutPan: true }).map((object) => (object.tag === '4F' ? { ...object, tag: '9F06' } : object));

    expect(readSaleEmv(hexOf(objects), TEN_MYR)).toMatchObject({
      account: { accountBin: TEST_VISA_PAN.slice(0, 6), accountLast4: TEST_VISA_PAN.slice(-4) },
      aid: 'A0000000031010',
    });
  });

  it('should name a read by its card, counter and cryptogram alone, however it is encoded', () => {
    fc.assert(
      fc.property(cardReads(), fc.integer({ min: 1, max: 0xffff }), (read, atc) => {
        const identityOf = (elements: TlvItem[], wrap: typeof read.wrap): string => readSaleEmv(cardReadHex(elements, wrap), read.sale).cardRead((identity) => identity);
        const valueOf = (tag: string): string => read.elements.find((element) => element.tag === tag)!.value.toString('hex').toUpperCase();
        const otherAtc = (atc === read.elements.find((element) => element.tag === '9F36')!.value.readUInt16BE(0) ? (atc % 0xffff) + 1 : atc)
          .toString(16)
          .padStart(4, '0');
        const recounted = read.elements.map((element) => (element.tag === '9F36' ? { tag: '9F36', value: Buffer.from(otherAtc, 'hex') } : element));

        const identity = identityOf(read.elements, read.wrap);

        expect(identity).toBe(cardReadIdentity(read.pan, valueOf('9F36'), valueOf('9F26')));
        // Another order, no template: the same read.
        expect(identityOf([...read.elements].reverse(), null)).toBe(identity);
        // Another counter: another read.
        expect(identityOf(recounted, read.wrap)).not.toBe(identity);
      }),
      { numRuns: 200 },
    );
  });

  it('should take every valid card read, and read the card number the host connector reads from it', () => {
    fc.assert(
      fc.property(cardReads(), (read) => {
        const emvData = cardReadHex(read.elements, read.wrap);

        const emv = readSaleEmv(emvData, read.sale);

        expect(emv.account.accountMasked).toBe(`${read.pan.slice(0, 6)}${'*'.repeat(read.pan.length - 10)}${read.pan.slice(-4)}`);
        expect(readCardData(emvData, 'ISO8583').pan).toBe(read.pan);
        expect(readCardData(emvData, 'ISO8583').expiry).toBe(
          read.elements
            .find((element) => element.tag === '5F24')!
            .value.toString('hex')
            .slice(0, 4),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("should take the CLI's test cards of every scheme, on any day", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TEST_CARD_SCHEMES),
        fc.constantFrom(...TEST_CURRENCIES),
        fc.bigInt({ min: 1n, max: 999_999_999n }),
        // The card expires three years after the day: the last day whose expiry EMV still reads as 20YY is in 2046.
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2046-12-31T23:59:59Z'), noInvalidDate: true }),
        (card, currency, minor, date) => {
          const emvData = kernelTestCardEmv({ card, amountMinor: minor, currencyNumeric: currency.numeric, countryNumeric: '458', date });
          const digits = String(minor).padStart(currency.exponent + 1, '0');
          const value = currency.exponent === 0 ? digits : `${digits.slice(0, -currency.exponent)}.${digits.slice(-currency.exponent)}`;

          const emv = readSaleEmv(emvData, { amount: { value, currency: currency.alpha }, amountMinor: String(minor) });

          expect(emv.account.accountLast4).toBe(TEST_CARDS[card].pan.slice(-4));
        },
      ),
    );
  });

  it('should refuse a card read with any one element made into what no card gives, naming the tag and the rule, never the card number', () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(
        cardReads().chain((read) => mutationsOf(read).map((mutation) => ({ read, mutation }))),
        ({ read, mutation }) => {
          kinds.add(mutation.kind);
          const refusal = refusalOf(mutation.emvData, read.sale);
          const named = `emvData ${tagLabel(mutation.tag)} `;

          expect([mutation.kind, refusal.slice(0, named.length)]).toEqual([mutation.kind, named]);
          expect([mutation.kind, refusal.slice(named.length)]).toEqual([mutation.kind, expect.stringMatching(mutation.reason)]);
          expect(refusal).not.toContain(read.pan);
        },
      ),
      { numRuns: 1500 },
    );
    // Every class of mutation was drawn (27 classes; 1500 runs draw each about 55 times).
    expect(kinds.size).toBe(27);
  });

  it('should refuse data that lacks any one required tag, naming it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...REQUIRED_EMV_OBJECTS), (required) => {
        const objects = testCardObjects().filter((object) => !required.tags.includes(object.tag));

        expect(refusalOf(hexOf(objects))).toBe(`emvData lacks tag ${required.tags.join(' or ')} (${required.name})`);
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
