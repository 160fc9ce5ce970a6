import { decodeTlv } from '@app/iso8583';
import fc from 'fast-check';
import { readCardData } from './card-data';
import { TEST_CARD_SCHEMES, TEST_CARDS, testCardEmv, TestCardScheme } from './test-cards';

/** The Luhn check a terminal and every scheme run on a PAN. */
function luhnValid(pan: string): boolean {
  let sum = 0;
  [...pan].reverse().forEach((char, index) => {
    let digit = Number(char);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  });
  return sum % 10 === 0;
}

/** What each scheme's PAN starts with (its IIN range) and how long it is. */
const IIN: Record<TestCardScheme, { prefix: RegExp; length: number; aid: string }> = {
  visa: { prefix: /^4/, length: 16, aid: 'A0000000031010' },
  mastercard: { prefix: /^5[1-5]/, length: 16, aid: 'A0000000041010' },
  unionpay: { prefix: /^62/, length: 16, aid: 'A000000333010101' },
  amex: { prefix: /^3[47]/, length: 15, aid: 'A00000002501' },
  jcb: { prefix: /^35(2[89]|[3-8][0-9])/, length: 16, aid: 'A0000000651010' },
  discover: { prefix: /^6011/, length: 16, aid: 'A0000001523010' },
};

const TAG_ORDER = [
  '5A',
  '57',
  '5F24',
  '5F34',
  '5F28',
  '4F',
  '50',
  '82',
  '84',
  '95',
  '9A',
  '9C',
  '9F02',
  '5F2A',
  '9F1A',
  '9F10',
  '9F26',
  '9F27',
  '9F33',
  '9F34',
  '9F36',
  '9F37',
];

const options = () =>
  fc.record({
    card: fc.constantFrom(...TEST_CARD_SCHEMES),
    amountMinor: fc.bigInt({ min: 0n, max: 999_999_999_999n }),
    currencyNumeric: fc.stringMatching(/^[0-9]{3}$/),
    countryNumeric: fc.stringMatching(/^[0-9]{3}$/),
    date: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2096-12-31T23:59:59Z'), noInvalidDate: true }),
  });

function tags(hex: string): Map<string, string> {
  return new Map(decodeTlv(Buffer.from(hex, 'hex'), 'test card').map((item) => [item.tag, item.value.toString('hex').toUpperCase()]));
}

describe('test cards', () => {
  it.each(TEST_CARD_SCHEMES)('should give %s a PAN with a valid Luhn digit in its scheme range, and its AID', (scheme) => {
    const card = TEST_CARDS[scheme];

    expect(luhnValid(card.pan)).toBe(true);
    expect(card.pan).toMatch(IIN[scheme].prefix);
    expect(card.pan).toHaveLength(IIN[scheme].length);
    expect(card.aid).toBe(IIN[scheme].aid);
    expect(card.paymentMethod).toBe(scheme.toUpperCase());
  });

  it('should tell a PAN with a wrong check digit from a valid one (the Luhn check itself can fail)', () => {
    expect(luhnValid('4761739001010118')).toBe(false);
  });

  it("should date the tap (9A) in the terminal's time zone, as the host's 12/13 are (review r16c L2)", () => {
    // Zones without daylight saving: the local date is the UTC date of the instant moved by the offset.
    const zones = fc.constantFrom(['Asia/Kuala_Lumpur', 8 * 60], ['Asia/Kolkata', 5 * 60 + 30], ['Pacific/Kiritimati', 14 * 60], ['Etc/GMT+12', -12 * 60], ['UTC', 0]) as fc.Arbitrary<[string, number]>;
    fc.assert(
      fc.property(options(), zones, ({ card, amountMinor, currencyNumeric, countryNumeric, date }, [timeZone, offsetMinutes]) => {
        const local = new Date(date.getTime() + offsetMinutes * 60_000);
        const two = (value: number) => String(value).padStart(2, '0');
        const yymmdd = `${two(local.getUTCFullYear() % 100)}${two(local.getUTCMonth() + 1)}${two(local.getUTCDate())}`;
        expect(tags(testCardEmv({ card, amountMinor, currencyNumeric, countryNumeric, date, timeZone })).get('9A')).toBe(yymmdd);
      }),
    );
  });

  it('should encode every tag a contactless kernel gives the SDK, in order, with the values asked for', () => {
    fc.assert(
      fc.property(options(), ({ card, amountMinor, currencyNumeric, countryNumeric, date }) => {
        const hex = testCardEmv({ card, amountMinor, currencyNumeric, countryNumeric, date });
        const test = TEST_CARDS[card];
        const year = date.getUTCFullYear();
        const expiry = String((year + 3) % 100).padStart(2, '0');
        const yymmdd = `${String(year % 100).padStart(2, '0')}${String(date.getUTCMonth() + 1).padStart(2, '0')}${String(date.getUTCDate()).padStart(2, '0')}`;
        const padded = (digits: string) => (digits.length % 2 === 1 ? `${digits}F` : digits);

        expect(hex).toMatch(/^[0-9A-F]+$/);
        expect(decodeTlv(Buffer.from(hex, 'hex')).map((item) => item.tag)).toEqual(TAG_ORDER);
        const values = tags(hex);
        expect(Object.fromEntries(values)).toEqual({
          '5A': padded(test.pan),
          '57': padded(`${test.pan}D${expiry}122010000000000`),
          '5F24': `${expiry}1231`,
          '5F34': '01',
          '5F28': countryNumeric.padStart(4, '0'),
          '4F': test.aid,
          '50': Buffer.from(test.label, 'ascii').toString('hex').toUpperCase(),
          '82': test.aip,
          '84': test.aid,
          '95': '0000000000',
          '9A': yymmdd,
          '9C': '00',
          '9F02': String(amountMinor).padStart(12, '0'),
          '5F2A': currencyNumeric.padStart(4, '0'),
          '9F1A': countryNumeric.padStart(4, '0'),
          '9F10': test.issuerApplicationData,
          '9F26': expect.stringMatching(/^[0-9A-F]{16}$/),
          '9F27': '80',
          '9F33': 'E0F8C8',
          '9F34': '1F0302',
          '9F36': expect.stringMatching(/^[0-9A-F]{4}$/),
          '9F37': expect.stringMatching(/^[0-9A-F]{8}$/),
        });
        expect(values.get('9F36')).not.toBe('0000');
      }),
    );
  });

  it('should read back as the host messages read card data: PAN, track 2, expiry, PAN sequence, and field 55 without card data', () => {
    fc.assert(
      fc.property(options(), (input) => {
        const hex = testCardEmv(input);
        const test = TEST_CARDS[input.card];
        const expiry = `${String((input.date.getUTCFullYear() + 3) % 100).padStart(2, '0')}12`;

        const card = readCardData(hex, 'ISO8583');

        expect({ pan: card.pan, track2: card.track2, expiry: card.expiry, panSequence: card.panSequence }).toEqual({
          pan: test.pan,
          track2: `${test.pan}=${expiry}2010000000000`,
          expiry,
          panSequence: '001',
        });
        const icc = decodeTlv(card.iccData).map((item) => item.tag);
        expect(icc).toEqual(['5F34', '4F', '82', '84', '95', '9A', '9C', '9F02', '5F2A', '9F1A', '9F10', '9F26', '9F27', '9F33', '9F34', '9F36', '9F37']);
        expect(card.iccData.toString('hex').toUpperCase()).not.toContain(test.pan);
      }),
    );
  });

  it('should draw a fresh cryptogram and unpredictable number for every tap', () => {
    const tap = () =>
      tags(testCardEmv({ card: 'visa', amountMinor: 1250, currencyNumeric: '458', countryNumeric: '458', date: new Date('2026-05-01T00:00:00Z') }));
    const [first, second] = [tap(), tap()];

    expect(first.get('9F26')).not.toBe(second.get('9F26'));
    expect(first.get('9F37')).not.toBe(second.get('9F37'));
  });

  it('should take the randomness it is given, so a tap can be replayed', () => {
    const random = (size: number) => Buffer.alloc(size, 0xab);

    const hex = testCardEmv({ card: 'amex', amountMinor: '0', currencyNumeric: '0840', countryNumeric: '840', date: new Date('2026-05-01T00:00:00Z'), random });

    expect(Object.fromEntries([...tags(hex)].filter(([tag]) => ['9F26', '9F36', '9F37', '9F02', '5F2A'].includes(tag)))).toEqual({
      '9F26': 'ABABABABABABABAB',
      '9F36': 'ABAB',
      '9F37': 'ABABABAB',
      '9F02': '000000000000',
      '5F2A': '0840',
    });
  });

  it.each([
    [{ amountMinor: '-1' }, /amountMinor/],
    [{ amountMinor: '12.50' }, /amountMinor/],
    [{ amountMinor: '1234567890123' }, /amountMinor/],
    [{ currencyNumeric: 'MYR' }, /currencyNumeric/],
    [{ currencyNumeric: '1458' }, /currencyNumeric/],
    [{ countryNumeric: '45' }, /countryNumeric/],
    [{ date: new Date('not a date') }, /date/],
    [{ card: 'diners' as TestCardScheme }, /no test card for "diners"/],
  ])('should refuse %p naming what is wrong', (override, message) => {
    expect(() => testCardEmv({ card: 'visa', amountMinor: 100, currencyNumeric: '458', countryNumeric: '458', date: new Date(), ...override })).toThrow(
      message,
    );
  });
});
