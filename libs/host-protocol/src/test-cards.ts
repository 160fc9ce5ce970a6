import { wallClockAt } from '@app/contracts/iso-codes';
import { encodeTlv, TlvItem } from '@app/iso8583';
import { randomBytes } from 'node:crypto';

/**
 * Public test cards of the six schemes, and the EMV data a contactless kernel would hand the SDK
 * after tapping one: what the CLI's `sale` and the tests send to the gateway in place of a phone.
 * The PANs are the schemes' and acquirers' published test numbers (valid Luhn digit, no real
 * account); the cryptogram is random, so only a host that does not verify it (the MOCK host, the
 * simulator) approves it.
 */

export const TEST_CARD_SCHEMES = ['visa', 'mastercard', 'unionpay', 'amex', 'jcb', 'discover'] as const;
export type TestCardScheme = (typeof TEST_CARD_SCHEMES)[number];

/** One scheme's test card and the application the kernel selects on it. */
export interface TestCard {
  /** The gateway's payment method name (`docs/decisions.md`, "Enumerations"). */
  paymentMethod: 'VISA' | 'MASTERCARD' | 'UNIONPAY' | 'AMEX' | 'JCB' | 'DISCOVER';
  pan: string;
  /** The scheme's AID (tags 4F and 84). */
  aid: string;
  /** Tag 50, the application label. */
  label: string;
  /** Tag 82, the application interchange profile the card answers for contactless. */
  aip: string;
  /** Tag 9F10, issuer application data in the scheme's layout. */
  issuerApplicationData: string;
}

export const TEST_CARDS: Readonly<Record<TestCardScheme, TestCard>> = {
  visa: { paymentMethod: 'VISA', pan: '4761739001010119', aid: 'A0000000031010', label: 'VISA CREDIT', aip: '2000', issuerApplicationData: '06010A03A00000' },
  mastercard: {
    paymentMethod: 'MASTERCARD',
    pan: '5413330089010434',
    aid: 'A0000000041010',
    label: 'MASTERCARD',
    aip: '1980',
    issuerApplicationData: '0110A00001220000000000000000000000FF',
  },
  unionpay: {
    paymentMethod: 'UNIONPAY',
    pan: '6250947000000014',
    aid: 'A000000333010101',
    label: 'UNIONPAY',
    aip: '7C00',
    issuerApplicationData: '07010103A00000010A0100000000005ED0EF0B',
  },
  amex: { paymentMethod: 'AMEX', pan: '374245455400126', aid: 'A00000002501', label: 'AMERICAN EXPRESS', aip: '1C00', issuerApplicationData: '06020103A40000' },
  jcb: { paymentMethod: 'JCB', pan: '3566002020360505', aid: 'A0000000651010', label: 'JCB CREDIT', aip: '1980', issuerApplicationData: '0105A0400000000000' },
  discover: {
    paymentMethod: 'DISCOVER',
    pan: '6011000990139424',
    aid: 'A0000001523010',
    label: 'DISCOVER',
    aip: '1980',
    issuerApplicationData: '0105A04003220000',
  },
};

export function isTestCardScheme(value: unknown): value is TestCardScheme {
  return typeof value === 'string' && (TEST_CARD_SCHEMES as readonly string[]).includes(value);
}

export interface TestCardEmvOptions {
  card: TestCardScheme;
  /** Amount, authorised (9F02), in minor units: 0 to 12 digits. */
  amountMinor: string | number | bigint;
  /** ISO 4217 numeric code of the transaction currency (5F2A), 3 digits or the terminal's 4 (`0458`). */
  currencyNumeric: string;
  /** ISO 3166 numeric code of the terminal's country (9F1A), 3 or 4 digits. */
  countryNumeric: string;
  /** The instant of the tap; the card expires in December three years later. */
  date: Date;
  /**
   * The terminal's time zone (IANA): the transaction date (9A) is the local date there, as a
   * phone's clock gives it and as the host's fields 12/13 are; UTC when absent.
   */
  timeZone?: string;
  /** Where the cryptogram, unpredictable number and counter come from (default: `crypto.randomBytes`). */
  random?: (size: number) => Buffer;
}

/** Terminal capabilities (9F33): the platform's default `terminalCapability` (docs/decisions.md, "Activation profile"). */
const TERMINAL_CAPABILITIES = 'E0F8C8';
/** Service code 201 (international, chip, normal authorisation) and fixed discretionary data of track 2. */
const TRACK2_TAIL = '2010000000000';

const two = (value: number): string => String(value).padStart(2, '0');

/** `digits` as packed BCD (n format), left-padded with zeros to `length` digits. */
function numeric(digits: string, length: number): Buffer {
  return Buffer.from(digits.padStart(length, '0'), 'hex');
}

/** Compressed numeric (cn): the digits left-justified, padded with F to whole bytes. */
function compressedNumeric(digits: string): Buffer {
  return Buffer.from(digits.length % 2 === 1 ? `${digits}F` : digits, 'hex');
}

function isoNumeric(value: string, what: string): string {
  if (!/^[0-9]{3,4}$/.test(value) || (value.length === 4 && value[0] !== '0'))
    throw new RangeError(`${what} must be an ISO numeric code of 3 digits (or 4 with a leading 0), got "${value}"`);
  return value.padStart(4, '0');
}

/**
 * The BER-TLV (upper-case hex) a contactless kernel gives the SDK for one tap of a test card: PAN
 * (5A), track 2 equivalent (57), expiry (5F24), PAN sequence (5F34), issuer country (5F28, the
 * terminal's: a domestic card), the scheme's AID (4F, 84) and
 * label (50), AIP (82), TVR (95), date (9A), type purchase (9C), amount (9F02), currency (5F2A),
 * country (9F1A), issuer application data (9F10), an ARQC (9F26, 9F27 80), terminal capabilities
 * (9F33), no CVM (9F34 1F0302), the counter (9F36) and the unpredictable number (9F37).
 */
export function testCardEmv(options: TestCardEmvOptions): string {
  const card = TEST_CARDS[options.card];
  if (!card) throw new RangeError(`no test card for "${String(options.card)}": one of ${TEST_CARD_SCHEMES.join(', ')}`);
  const amount = String(options.amountMinor);
  if (!/^[0-9]{1,12}$/.test(amount)) throw new RangeError(`amountMinor must be 0 to 999999999999 minor units, got "${amount}"`);
  const currency = isoNumeric(options.currencyNumeric, 'currencyNumeric');
  const country = isoNumeric(options.countryNumeric, 'countryNumeric');
  if (Number.isNaN(options.date.getTime())) throw new RangeError('date must be a valid date');
  const random = options.random ?? randomBytes;
  const local = wallClockAt(options.date, options.timeZone ?? 'UTC');
  const yymmdd = `${local.year.slice(-2)}${local.month}${local.day}`;
  const expiryYear = two((Number(local.year) + 3) % 100);
  // A counter that a real card would have raised with every tap: never 0.
  const atc = random(2);
  if (atc.readUInt16BE(0) === 0) atc[1] = 1;
  const items: TlvItem[] = [
    { tag: '5A', value: compressedNumeric(card.pan) },
    { tag: '57', value: compressedNumeric(`${card.pan}D${expiryYear}12${TRACK2_TAIL}`) },
    { tag: '5F24', value: Buffer.from(`${expiryYear}1231`, 'hex') },
    { tag: '5F34', value: Buffer.from('01', 'hex') },
    // A domestic card: issued in the terminal's country.
    { tag: '5F28', value: numeric(country, 4) },
    { tag: '4F', value: Buffer.from(card.aid, 'hex') },
    { tag: '50', value: Buffer.from(card.label, 'ascii') },
    { tag: '82', value: Buffer.from(card.aip, 'hex') },
    { tag: '84', value: Buffer.from(card.aid, 'hex') },
    { tag: '95', value: Buffer.from('0000000000', 'hex') },
    { tag: '9A', value: Buffer.from(yymmdd, 'hex') },
    { tag: '9C', value: Buffer.from('00', 'hex') },
    { tag: '9F02', value: numeric(amount, 12) },
    { tag: '5F2A', value: numeric(currency, 4) },
    { tag: '9F1A', value: numeric(country, 4) },
    { tag: '9F10', value: Buffer.from(card.issuerApplicationData, 'hex') },
    { tag: '9F26', value: random(8) },
    { tag: '9F27', value: Buffer.from('80', 'hex') },
    { tag: '9F33', value: Buffer.from(TERMINAL_CAPABILITIES, 'hex') },
    { tag: '9F34', value: Buffer.from('1F0302', 'hex') },
    { tag: '9F36', value: atc },
    { tag: '9F37', value: random(4) },
  ];
  return encodeTlv(items, 'test card EMV data').toString('hex').toUpperCase();
}
