import { TEST_CARDS } from '@app/host-protocol';
import { encodeTlv, TlvItem } from '@app/iso8583';
import { randomHex } from '@app/testing';
import fc from 'fast-check';
import { luhnCheckDigit } from '../emv-data-elements';
import { CARD_DATA_TEMPLATES } from '../emv-objects';
import type { SignedSale } from '../sale-emv';

/** A public Visa test card number (Luhn-valid); not an account. */
export const TEST_VISA_PAN = '4761739001010119';

export interface TestCardOptions {
  pan?: string;
  /** Card AID (4F), hex; also the DF name (84). */
  aid?: string;
  /** 9F02: what the card signed, in minor units. */
  amountMinor?: string;
  /** 5F2A: ISO 4217 numeric (`458`). */
  currencyNumeric?: string;
  /** 9F34, hex (`1F0302`: no CVM required, successful). */
  cvmResults?: string;
  /** 9A, YYMMDD (default 250115). */
  date?: string;
  /** 5F24, YYMMDD (default 301231); track 2 carries its YYMM. */
  expiry?: string;
  /** Leave out 5A (the PAN then comes from track 2 only). */
  withoutPan?: boolean;
  /** Leave out 57. */
  withoutTrack2?: boolean;
  /** Objects appended after the others (a tag already given is a duplicate, which the gateway refuses). */
  extra?: TlvItem[];
}

/** Compressed numeric (cn): the digits left-justified, padded with F to whole bytes. */
const bytesOf = (hex: string): Buffer => Buffer.from(hex.length % 2 === 1 ? `${hex}F` : hex, 'hex');

/** Track 2 equivalent (57) of a PAN as a card gives it: PAN, D, expiry YYMM, service code, discretionary data, F pad. */
export function testTrack2Hex(pan: string, expiry = '3012', serviceCode = '201', discretionary = '1234567'): string {
  const digits = `${pan}D${expiry}${serviceCode}${discretionary}`;
  return digits.length % 2 === 1 ? `${digits}F` : digits;
}

/**
 * The EMV objects a contactless card and kernel give the SDK for a purchase: everything a sale
 * requires (issue 13) plus 50, 5F28, 5F34, 84, 9B. Cryptogram and unpredictable number come from the test file's seeded stream.
 */
export function testCardObjects(options: TestCardOptions = {}): TlvItem[] {
  const pan = options.pan ?? TEST_VISA_PAN;
  const aid = options.aid ?? 'A0000000031010';
  const expiry = options.expiry ?? '301231';
  const objects: TlvItem[] = [];
  if (!options.withoutPan) objects.push({ tag: '5A', value: bytesOf(pan) });
  if (!options.withoutTrack2) objects.push({ tag: '57', value: Buffer.from(testTrack2Hex(pan, expiry.slice(0, 4)), 'hex') });
  objects.push(
    { tag: '5F24', value: Buffer.from(expiry, 'hex') },
    { tag: '5F34', value: Buffer.from('01', 'hex') },
    { tag: '4F', value: Buffer.from(aid, 'hex') },
    { tag: '50', value: Buffer.from('CARD CREDIT', 'latin1') },
    { tag: '82', value: Buffer.from('2000', 'hex') },
    { tag: '84', value: Buffer.from(aid, 'hex') },
    { tag: '95', value: Buffer.from('0000008000', 'hex') },
    { tag: '9A', value: Buffer.from(options.date ?? '250115', 'hex') },
    { tag: '9B', value: Buffer.from('E800', 'hex') },
    { tag: '9C', value: Buffer.from('00', 'hex') },
    { tag: '9F02', value: Buffer.from((options.amountMinor ?? '1000').padStart(12, '0'), 'hex') },
    { tag: '5F2A', value: Buffer.from((options.currencyNumeric ?? '458').padStart(4, '0'), 'hex') },
    { tag: '5F28', value: Buffer.from('0458', 'hex') },
    { tag: '9F10', value: Buffer.from('06010A03A00000', 'hex') },
    { tag: '9F1A', value: Buffer.from('0458', 'hex') },
    { tag: '9F26', value: Buffer.from(randomHex(16), 'hex') },
    { tag: '9F27', value: Buffer.from('80', 'hex') },
    { tag: '9F33', value: Buffer.from('E0F8C8', 'hex') },
    { tag: '9F34', value: Buffer.from(options.cvmResults ?? '1F0302', 'hex') },
    { tag: '9F36', value: Buffer.from('0001', 'hex') },
    { tag: '9F37', value: Buffer.from(randomHex(8), 'hex') },
    ...(options.extra ?? []),
  );
  return objects;
}

/** {@link testCardObjects} as the SDK sends them: hex BER-TLV, upper case. */
export function testCardEmv(options: TestCardOptions = {}): string {
  return encodeTlv(testCardObjects(options)).toString('hex').toUpperCase();
}

/** Card numbers of `minLength` to 19 digits with a valid Luhn check digit. */
export function luhnPans(minLength = 12): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: minLength - 1, max: 18 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }))
    .map(([length, digits]) => {
      const body = digits.slice(0, length).join('');
      return `${body}${luhnCheckDigit(body)}`;
    });
}

// ---------------------------------------------------------------------------------------------
// Generated card reads, and one element at a time made into something no card gives.
// ---------------------------------------------------------------------------------------------

/** A currency a generated sale may be in: its ISO code, number and exponent. */
export interface TestCurrency {
  alpha: string;
  numeric: string;
  exponent: number;
}

export const TEST_CURRENCIES: readonly TestCurrency[] = [
  { alpha: 'MYR', numeric: '458', exponent: 2 },
  { alpha: 'USD', numeric: '840', exponent: 2 },
  { alpha: 'JPY', numeric: '392', exponent: 0 },
  { alpha: 'KWD', numeric: '414', exponent: 3 },
];

/** One tap as the SDK would send it, and what it holds: the sale it signed and its card number. */
export interface CardRead {
  /** The data objects, flat, in the card's order. */
  elements: TlvItem[];
  /** The template the first `count` elements are wrapped in, or null when all stand alone. */
  wrap: { template: string; count: number } | null;
  sale: SignedSale;
  pan: string;
}

/** A card read whose element `tag` was made into something no card gives, and why the gateway must refuse it. */
export interface CardReadMutation {
  /** What kind of mutation, for a failing case's report. */
  kind: string;
  /** The tag the refusal must name. */
  tag: string;
  /** What the refusal must say about it. */
  reason: RegExp;
  /** The mutated card data, hex BER-TLV. */
  emvData: string;
}

/** The objects of a card read as BER-TLV (hex, upper case), its first elements in its template when it has one. */
export function cardReadHex(elements: readonly TlvItem[], wrap: CardRead['wrap']): string {
  const objects = wrap ? [{ tag: wrap.template, value: encodeTlv(elements.slice(0, wrap.count)) }, ...elements.slice(wrap.count)] : elements;
  return encodeTlv(objects).toString('hex').toUpperCase();
}

const hexBytes = (hex: string): Buffer => Buffer.from(hex, 'hex');
const two = (value: number): string => String(value).padStart(2, '0');
const yymmdd = (date: Date): string => `${two(date.getUTCFullYear() % 100)}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}`;
const DAY_MS = 86_400_000;
const bytes = (length: number): fc.Arbitrary<Buffer> => fc.uint8Array({ minLength: length, maxLength: length }).map((array) => Buffer.from(array));
const bytesBetween = (least: number, most: number): fc.Arbitrary<Buffer> =>
  fc.uint8Array({ minLength: least, maxLength: most }).map((array) => Buffer.from(array));
const digitChars = (characters: string, least: number, most = least): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...characters), minLength: least, maxLength: most });
const digits = (count: number): fc.Arbitrary<string> => digitChars('0123456789', count);
const bcd = (count: number, length: number): fc.Arbitrary<Buffer> => digits(count).map((value) => hexBytes(value.padStart(length * 2, '0')));
/** A value or nothing: an optional element. */
const optional = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arbitrary, { nil: undefined });
const serviceCodes = fc.tuple(fc.constantFrom(...'125679'), fc.constantFrom(...'024'), fc.constantFrom(...'01234567')).map((parts) => parts.join(''));
const printableText = (most: number): fc.Arbitrary<Buffer> =>
  digitChars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ', 1, most).map((text) => Buffer.from(text, 'latin1'));
/** Years YY 50 to 99 are 19YY to EMV: generated dates stay within 2000 to 2049. */
const LAST_DAY = Date.UTC(2049, 11, 31);
/** Dates the generated transactions fall on: the card's expiry and effective date are drawn around them. */
const transactionDates = fc.date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2039-12-31T00:00:00Z'), noInvalidDate: true });

/**
 * Valid card reads of the six schemes: PAN (12 to 19 digits, Luhn) in 5A, 57 or both, the
 * expiry in 5F24 and track 2 after the transaction date, the card's effective date (5F25) before
 * it, the AID as 4F, 9F06 (the whole AID or its beginning) or both with 84, an ARQC, a purchase,
 * random binary elements of their EMV lengths, optional elements and a proprietary one, in any
 * order, perhaps partly inside a template.
 */
export function cardReads(currencies: readonly TestCurrency[] = TEST_CURRENCIES): fc.Arbitrary<CardRead> {
  const card = fc.record({
    pan: luhnPans(12),
    panIn: fc.constantFrom('both' as const, '5A' as const, '57' as const),
    serviceCode: serviceCodes,
    discretionary: digitChars('0123456789', 0, 11),
    date: transactionDates,
    validDays: fc.nat({ max: 3650 }),
    effectiveDaysBefore: optional(fc.nat({ max: 1800 })),
    aid: fc
      .tuple(
        fc.constantFrom(...Object.values(TEST_CARDS).map((testCard) => testCard.aid)),
        fc.constantFrom('4F', '9F06', 'both' as const),
        fc.boolean(),
        fc.nat(),
      )
      .map(([aid, tags, withDfName, cut]) => ({ aid, tags, withDfName, terminalLength: 5 + (cut % (aid.length / 2 - 4)) })),
    currency: fc.constantFrom(...currencies),
    amountMinor: fc.bigInt({ min: 1n, max: 999_999_999n }).map(String),
  });
  // The chip's binary elements and the terminal's country, by tag.
  const chip = fc.record({
    '9F26': bytes(8),
    '9F27': fc.integer({ min: 0x80, max: 0xbf }).map((cid) => Buffer.from([cid])),
    '9F10': bytesBetween(1, 32),
    '9F37': bytes(4),
    '9F36': fc.integer({ min: 1, max: 0xffff }).map((atc) => Buffer.from([atc >> 8, atc & 0xff])),
    '95': bytes(5),
    '82': bytes(2),
    '9F33': bytes(3),
    '9F34': bytes(3),
    '9F1A': bcd(3, 2),
  });
  // Elements a read may carry or not, by tag: label, issuer country, PAN sequence, TSI, no cashback, terminal type, time, a proprietary one.
  const extras = fc.record({
    '50': optional(printableText(16)),
    '5F28': optional(bcd(3, 2)),
    '5F34': optional(bcd(2, 1)),
    '9B': optional(bytes(2)),
    '9F03': optional(fc.constant(hexBytes('000000000000'))),
    '9F35': optional(bcd(2, 1)),
    '9F21': optional(fc.tuple(fc.nat({ max: 23 }), fc.nat({ max: 59 }), fc.nat({ max: 59 })).map(([h, m, s]) => hexBytes(`${two(h)}${two(m)}${two(s)}`))),
    DF8101: optional(bytesBetween(0, 12)),
  });
  return fc.tuple(card, chip, extras).chain(([c, k, x]) => {
    const date = yymmdd(c.date);
    const expiryDate = new Date(Math.min(c.date.getTime() + c.validDays * DAY_MS, LAST_DAY));
    const expiry = yymmdd(expiryDate);
    const elements: TlvItem[] = [];
    const add = (tag: string, value: Buffer | undefined): void => {
      if (value) elements.push({ tag, value });
    };
    if (c.panIn !== '57') add('5A', bytesOf(c.pan));
    // Track 2 holds 37 characters at most: PAN, D, YYMM, service code, discretionary digits.
    if (c.panIn !== '5A') add('57', hexBytes(testTrack2Hex(c.pan, expiry.slice(0, 4), c.serviceCode, c.discretionary.slice(0, 29 - c.pan.length))));
    add('5F24', hexBytes(expiry));
    if (c.effectiveDaysBefore !== undefined)
      add('5F25', hexBytes(yymmdd(new Date(Math.max(c.date.getTime() - c.effectiveDaysBefore * DAY_MS, Date.UTC(2000, 0, 1))))));
    if (c.aid.tags !== '9F06') add('4F', hexBytes(c.aid.aid));
    if (c.aid.tags !== '4F') add('9F06', hexBytes(c.aid.tags === 'both' ? c.aid.aid.slice(0, c.aid.terminalLength * 2) : c.aid.aid));
    if (c.aid.withDfName) add('84', hexBytes(c.aid.aid));
    add('9A', hexBytes(date));
    add('9C', hexBytes('00'));
    add('9F02', hexBytes(c.amountMinor.padStart(12, '0')));
    add('5F2A', hexBytes(c.currency.numeric.padStart(4, '0')));
    for (const [tag, value] of Object.entries({ ...k, ...x })) add(tag, value);
    const minor = c.amountMinor.padStart(c.currency.exponent + 1, '0');
    const value = c.currency.exponent === 0 ? minor : `${minor.slice(0, -c.currency.exponent)}.${minor.slice(-c.currency.exponent)}`;
    const sale: SignedSale = { amount: { value, currency: c.currency.alpha }, amountMinor: c.amountMinor };
    return fc
      .tuple(fc.shuffledSubarray(elements, { minLength: elements.length }), fc.option(fc.tuple(fc.constantFrom(...CARD_DATA_TEMPLATES), fc.nat())))
      .map(([shuffled, wrap]) => ({
        elements: shuffled,
        wrap: wrap ? { template: wrap[0], count: 1 + (wrap[1] % shuffled.length) } : null,
        sale,
        pan: c.pan,
      }));
  });
}

/** The read with element `tag` replaced by `value` (added at the end when the read has none). */
function withElement(read: CardRead, tag: string, value: Buffer): TlvItem[] {
  return read.elements.some((element) => element.tag === tag)
    ? read.elements.map((element) => (element.tag === tag ? { tag, value } : element))
    : [...read.elements, { tag, value }];
}

function valueOf(read: CardRead, tag: string): Buffer | undefined {
  return read.elements.find((element) => element.tag === tag)?.value;
}

/** Replaces the nibble at `index` of `hex` by `nibble`. */
const withNibble = (hex: string, index: number, nibble: string): string => `${hex.slice(0, index)}${nibble}${hex.slice(index + 1)}`;

/** Lengths (bytes) outside [least, most], up to 40. */
const lengthsOutside = (least: number, most: number): fc.Arbitrary<number> =>
  fc.integer({ min: 0, max: 40 }).filter((length) => length < least || length > most);

/** Elements a mutation may give a wrong length or a non-digit: every fixed-format one a card read carries. */
const SHAPED: ReadonlyArray<{ tag: string; bytes: readonly [number, number]; numeric?: number }> = [
  { tag: '4F', bytes: [5, 16] },
  { tag: '50', bytes: [1, 16] },
  { tag: '57', bytes: [10, 19] },
  { tag: '5A', bytes: [6, 10] },
  { tag: '5F24', bytes: [3, 3], numeric: 6 },
  { tag: '5F25', bytes: [3, 3], numeric: 6 },
  { tag: '5F28', bytes: [2, 2], numeric: 3 },
  { tag: '5F2A', bytes: [2, 2], numeric: 3 },
  { tag: '5F34', bytes: [1, 1], numeric: 2 },
  { tag: '82', bytes: [2, 2] },
  { tag: '84', bytes: [5, 16] },
  { tag: '95', bytes: [5, 5] },
  { tag: '9A', bytes: [3, 3], numeric: 6 },
  { tag: '9B', bytes: [2, 2] },
  { tag: '9C', bytes: [1, 1], numeric: 2 },
  { tag: '9F02', bytes: [6, 6], numeric: 12 },
  { tag: '9F03', bytes: [6, 6], numeric: 12 },
  { tag: '9F06', bytes: [5, 16] },
  { tag: '9F10', bytes: [1, 32] },
  { tag: '9F1A', bytes: [2, 2], numeric: 3 },
  { tag: '9F21', bytes: [3, 3], numeric: 6 },
  { tag: '9F26', bytes: [8, 8] },
  { tag: '9F27', bytes: [1, 1] },
  { tag: '9F33', bytes: [3, 3] },
  { tag: '9F34', bytes: [3, 3] },
  { tag: '9F35', bytes: [1, 1], numeric: 2 },
  { tag: '9F36', bytes: [2, 2] },
  { tag: '9F37', bytes: [4, 4] },
];

/** Dates YYMMDD that are no calendar date: month 00 or 13 to 19, day 00 or past the month's last. */
const notCalendarDates = fc.oneof(
  fc.tuple(digits(2), fc.constantFrom('00', '13', '14', '19'), fc.constantFrom('01', '15', '28')).map((parts) => parts.join('')),
  fc.tuple(digits(2), fc.integer({ min: 1, max: 12 })).map(([year, month]) => `${year}${two(month)}00`),
  fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 2 })).map(([year, month, past]) => {
    const last = new Date(Date.UTC(2000 + year, month, 0)).getUTCDate();
    return `${two(year)}${two(month)}${two(Math.min(last + 1 + past, 39))}`;
  }),
);

/**
 * One element of `read` made into a value no card gives, each mutation of a class the gateway
 * must refuse naming that element's tag: wrong length, a non-digit in a numeric, the PAN failing
 * Luhn or of impossible length, track 2 with a bad separator, expiry, service code, padding or
 * another PAN or expiry, impossible dates, an expired card or one not valid yet, a cryptogram
 * other than an ARQC, another transaction type, cashback, a counter of 0, AIDs that disagree,
 * another amount or currency than the sale's, a duplicated tag, a constructed object outside the
 * allowed templates or inside one.
 */
export function mutationsOf(read: CardRead): fc.Arbitrary<CardReadMutation> {
  const mutation = (kind: string, tag: string, reason: RegExp, elements: TlvItem[], wrap = read.wrap): CardReadMutation => ({
    kind,
    tag,
    reason,
    emvData: cardReadHex(elements, wrap && { ...wrap, count: Math.min(wrap.count, elements.length) }),
  });
  const replaced = (kind: string, tag: string, reason: RegExp) => (value: Buffer) => mutation(kind, tag, reason, withElement(read, tag, value));
  const track = valueOf(read, '57')?.toString('hex').toUpperCase();
  const pan = read.pan;
  const expiry = valueOf(read, '5F24')!.toString('hex');
  const date = valueOf(read, '9A')!.toString('hex');
  const dateOf = (text: string): Date => new Date(Date.UTC(2000 + Number(text.slice(0, 2)), Number(text.slice(2, 4)) - 1, Number(text.slice(4, 6))));
  const tracked = (trackHex: string): Buffer => hexBytes(trackHex.length % 2 === 1 ? `${trackHex}F` : trackHex);
  // The card's AID: 4F, or the whole AID the read gave as 9F06 alone (4F is added with it where a mutation needs it).
  const cardAid = valueOf(read, '4F') ?? valueOf(read, '9F06')!;
  const trackTail = track?.slice(pan.length + 5).replace(/F$/, '') ?? '2011234567';
  // A tail that keeps track 2 within its 37 characters whatever the PAN: service code and 5 digits.
  const shortTail = trackTail.padEnd(8, '0').slice(0, 8);
  const classes: Array<fc.Arbitrary<CardReadMutation>> = [
    fc
      .constantFrom(...SHAPED)
      .chain(({ tag, bytes: [least, most] }) => lengthsOutside(least, most).chain((length) => bytes(length).map(replaced('length', tag, /^must be /)))),
    fc.constantFrom(...SHAPED.filter((shaped) => shaped.numeric !== undefined)).chain(({ tag, bytes: [length], numeric }) =>
      fc.tuple(bcd(numeric!, length), fc.nat(), fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F'), fc.boolean()).map(([value, at, letter, leading]) => {
        const hex = value.toString('hex');
        // A numeric of fewer digits than its bytes hold has a leading 0: a digit there is as wrong as a letter anywhere.
        const padding = hex.length - numeric!;
        const mutated = leading && padding > 0 ? withNibble(hex, 0, String(1 + (at % 9))) : withNibble(hex, at % hex.length, letter);
        return replaced('not digits', tag, /^must be /)(hexBytes(mutated));
      }),
    ),
    fc
      .constantFrom('50')
      .chain((tag) =>
        fc
          .tuple(printableText(8), fc.integer({ min: 0, max: 0x1f }))
          .map(([text, control]) => replaced('not printable', tag, /^must be /)(Buffer.concat([text, Buffer.from([control])]))),
      ),
    fc.integer({ min: 1, max: 9 }).map((shift) => {
      const wrong = `${pan.slice(0, -1)}${(Number(pan.slice(-1)) + shift) % 10}`;
      return replaced('PAN fails Luhn', '5A', /^fails the Luhn check/)(bytesOf(wrong));
    }),
    fc
      .oneof(fc.integer({ min: 1, max: 11 }), fc.integer({ min: 20, max: 21 }))
      .chain((length) => digits(length).map((wrong) => replaced('PAN length', '5A', /^must be 12 to 19 digits/)(bytesOf(wrong)))),
    fc.integer({ min: 1, max: 9 }).map((shift) => {
      const wrong = `${pan.slice(0, -1)}${(Number(pan.slice(-1)) + shift) % 10}`;
      return replaced('track 2 PAN fails Luhn', '57', /^has a PAN that fails the Luhn check/)(tracked(`${wrong}D${expiry.slice(0, 4)}${shortTail}`));
    }),
    luhnPans(12)
      .filter((other) => other !== pan)
      .map((other) => {
        // Another card in track 2 than in 5A (5A added when the read had none).
        const elements = withElement({ ...read, elements: withElement(read, '5A', bytesOf(pan)) }, '57', tracked(`${other}D${expiry.slice(0, 4)}${shortTail}`));
        return mutation('track 2 names another PAN', '57', /^names another PAN than tag 5A/, elements);
      }),
    fc.constant(replaced('track 2 too long', '57', /^must be at most 37 characters/)(tracked(`${pan}D${expiry.slice(0, 4)}${trackTail}`.padEnd(38, '7')))),
    fc
      .constantFrom('A', 'B', 'C', 'E', 'F')
      .map((separator) =>
        replaced('track 2 separator', '57', /^must have the separator D after the PAN/)(tracked(`${pan}${separator}${expiry.slice(0, 4)}${trackTail}`)),
      ),
    digits(3)
      .filter((code) => !/^[125679][024][0-7]$/.test(code))
      .map((code) => replaced('track 2 service code', '57', /^must have a service code of ISO\/IEC 7813/)(tracked(`${pan}D${expiry.slice(0, 4)}${code}1234`))),
    fc
      .constantFrom('00', '13', '19', '99')
      .map((month) => replaced('track 2 expiry', '57', /^must have an expiry YYMM/)(tracked(`${pan}D${expiry.slice(0, 2)}${month}${trackTail}`))),
    fc
      .constantFrom('A', 'B', 'C', 'E')
      .map((letter) =>
        replaced(
          'track 2 discretionary data',
          '57',
          /^must have an expiry YYMM, a service code and discretionary digits/,
        )(tracked(`${pan}D${expiry.slice(0, 4)}201${letter}1`)),
      ),
    fc.integer({ min: 1, max: 11 }).map((months) => {
      const moved = new Date(Date.UTC(2000 + Number(expiry.slice(0, 2)), Number(expiry.slice(2, 4)) - 1 + months, 1));
      const yymm = yymmdd(moved).slice(0, 4);
      const elements = withElement(read, '57', tracked(`${pan}D${yymm}${trackTail}`));
      return mutation('track 2 names another expiry', '57', /^names another expiry month than tag 5F24/, elements);
    }),
    fc
      .constantFrom('5F24', '9A', '5F25')
      .chain((tag) => notCalendarDates.map((wrong) => replaced('not a calendar date', tag, /^is not a calendar date/)(hexBytes(wrong)))),
    fc.integer({ min: 1, max: 3000 }).map((daysBefore) => {
      // An expired card: 5F24 and track 2 say the same month, before the transaction date.
      const expired = yymmdd(new Date(Math.max(dateOf(date).getTime() - daysBefore * DAY_MS, Date.UTC(2000, 0, 1))));
      let elements = withElement(read, '5F24', hexBytes(expired));
      if (track) elements = withElement({ ...read, elements }, '57', tracked(`${pan}D${expired.slice(0, 4)}${trackTail}`));
      return mutation('expired', '5F24', /^is before tag 9A \(transaction date\): the card has expired$/, elements);
    }),
    fc.integer({ min: 1, max: 3000 }).map((daysAfter) => {
      // Transaction dates end in 2039: 3000 days after one is still before 2050.
      const notYet = yymmdd(new Date(dateOf(date).getTime() + daysAfter * DAY_MS));
      return replaced('not valid yet', '5F25', /^is after tag 9A \(transaction date\): the card is not valid yet$/)(hexBytes(notYet));
    }),
    fc
      .integer({ min: 0, max: 0xff })
      .filter((cid) => cid >> 6 !== 0b10)
      .map((cid) => replaced('not an ARQC', '9F27', cid >> 6 === 0 ? /^says AAC/ : cid >> 6 === 1 ? /^says TC/ : /^says bits 8-7 = 11/)(Buffer.from([cid]))),
    digits(2)
      .filter((type) => type !== '00')
      .map((type) => replaced('not a purchase', '9C', new RegExp(`^is ${type}, not 00 \\(goods and services\\)`))(hexBytes(type))),
    fc
      .bigInt({ min: 1n, max: 999_999_999_999n })
      .map((other) => replaced('cashback', '9F03', /^is not zero: cashback/)(hexBytes(String(other).padStart(12, '0')))),
    fc.constant(replaced('counter 0', '9F36', /^is 0/)(hexBytes('0000'))),
    bytesBetween(5, 16)
      .filter((aid) => !cardAid.subarray(0, aid.length).equals(aid))
      .map((aid) => {
        // The terminal's AID (9F06) neither the card's (4F) nor its beginning.
        const elements = withElement({ ...read, elements: withElement(read, '4F', cardAid) }, '9F06', aid);
        return mutation('terminal AID disagrees', '9F06', /^is not the application identifier of tag 4F nor the beginning of it/, elements);
      }),
    bytesBetween(5, 16)
      .filter((aid) => !aid.equals(cardAid))
      .map((aid) => {
        // The DF name (84) of another application than the card's AID (4F).
        const elements = withElement({ ...read, elements: withElement(read, '4F', cardAid) }, '84', aid);
        return mutation('DF name disagrees', '84', /^is not the application identifier of tag 4F$/, elements);
      }),
    fc
      .bigInt({ min: 0n, max: 999_999_999_999n })
      .filter((other) => String(other) !== read.sale.amountMinor)
      .map((other) => replaced('another amount', '9F02', /: the card signed another amount$/)(hexBytes(String(other).padStart(12, '0')))),
    digits(3)
      .filter((other) => other !== valueOf(read, '5F2A')!.toString('hex').slice(1))
      .map((other) => replaced('another currency', '5F2A', /: the card signed another currency$/)(hexBytes(`0${other}`))),
    fc.tuple(fc.nat(), fc.boolean(), fc.nat()).map(([which, same, at]) => {
      // A tag twice: the same value or another, beside the first or anywhere, in the template or not.
      const original = read.elements[which % read.elements.length];
      const copy = { tag: original.tag, value: same ? original.value : Buffer.concat([original.value, Buffer.from([0])]) };
      const elements = [...read.elements];
      elements.splice(at % (elements.length + 1), 0, copy);
      return mutation('duplicate', original.tag, /^appears 2 times: each data object may appear once$/, elements);
    }),
    fc.tuple(fc.constantFrom('6F', 'A5', 'E1', '61', 'BF0C', '73'), fc.nat({ max: 4 }), fc.nat()).map(([constructed, count, at]) => {
      // Some elements inside a constructed object that is not a template card data comes in.
      const start = at % read.elements.length;
      const inside = read.elements.slice(start, start + count);
      const outside = [...read.elements.slice(0, start), ...read.elements.slice(start + count)];
      const objects = [...outside, { tag: constructed, value: encodeTlv(inside) }];
      return {
        kind: 'constructed',
        tag: constructed,
        reason: /^is a constructed object: card data comes as data objects/,
        emvData: encodeTlv(objects).toString('hex').toUpperCase(),
      };
    }),
    fc.tuple(fc.constantFrom(...CARD_DATA_TEMPLATES), fc.constantFrom('70', '77', 'A5', 'E1', 'BF0C'), fc.nat({ max: 4 })).map(([outer, inner, count]) => {
      // A constructed object inside a template: templates hold data objects only.
      const objects = [{ tag: outer, value: encodeTlv([...read.elements.slice(count), { tag: inner, value: encodeTlv(read.elements.slice(0, count)) }]) }];
      return {
        kind: 'nested',
        tag: inner,
        reason: new RegExp(`^is a constructed object inside template ${outer}: templates hold data objects only$`),
        emvData: encodeTlv(objects).toString('hex').toUpperCase(),
      };
    }),
  ];
  return fc.oneof(...classes);
}

/**
 * {@link cardReads} that are each a new tap: the generator may draw the same card, counter (9F36)
 * and cryptogram (9F26) twice, which the gateway refuses as a read used before (409
 * card-read-used). Each call has its own memory of the reads drawn.
 */
export function freshCardReads(currencies: readonly TestCurrency[] = TEST_CURRENCIES): fc.Arbitrary<CardRead> {
  const seen = new Set<string>();
  return cardReads(currencies).filter((read) => {
    const identity = [read.pan, ...['9F36', '9F26'].map((tag) => read.elements.find((element) => element.tag === tag)?.value.toString('hex'))].join(':');
    if (seen.has(identity)) return false;
    seen.add(identity);
    return true;
  });
}
