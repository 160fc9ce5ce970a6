/**
 * The EMV data elements a sale's card read may carry, with their formats (EMV Book 3 annex A):
 * what the gateway checks each value of before anything is stored or sent. A refusal names the
 * tag and the rule; it never shows a value of the card.
 */

/** EMV data formats: `b` binary, `n` BCD digits right-justified with leading zeros, `cn` BCD digits left-justified with a trailing F pad, `an` letters and digits, `ans` printable characters. */
export type EmvFormat = 'b' | 'n' | 'cn' | 'an' | 'ans';

export interface EmvDataElement {
  tag: string;
  name: string;
  format: EmvFormat;
  /** Length of the value in bytes, least and most. */
  bytes: readonly [number, number];
  /** Of a fixed-length `n` element: how many digits (`n 3` in 2 bytes: the first nibble is 0). */
  digits?: number;
  /** What else a value of the right format must be: what is wrong with it, or undefined. */
  rule?: (value: Buffer) => string | undefined;
}

/**
 * The calendar date of a YYMMDD BCD value as `YYYYMMDD` digits, which compare as dates; undefined
 * when it is not one. Years as EMV reads them for date comparisons (Book 4, "Date Management"):
 * YY 00 to 49 is 20YY, 50 to 99 is 19YY.
 */
export function calendarDateOf(value: Buffer): string | undefined {
  const digits = value.toString('hex');
  const match = /^([0-9]{2})([0-9]{2})([0-9]{2})$/.exec(digits);
  if (!match) return undefined;
  const [yy, month, day] = match.slice(1).map(Number);
  const year = yy < 50 ? 2000 + yy : 1900 + yy;
  if (month < 1 || month > 12 || day < 1) return undefined;
  // Day 0 of the next month is the last day of this one.
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= lastDay ? `${year}${digits.slice(2)}` : undefined;
}

const date = (value: Buffer): string | undefined => (calendarDateOf(value) === undefined ? 'is not a calendar date (YYMMDD)' : undefined);

const timeOfDay = (value: Buffer): string | undefined => {
  const match = /^([0-9]{2})([0-9]{2})([0-9]{2})$/.exec(value.toString('hex'));
  return match && Number(match[1]) < 24 && Number(match[2]) < 60 && Number(match[3]) < 60 ? undefined : 'is not a time of day (HHMMSS)';
};

/** The sum of the Luhn (mod 10) digits of `digits`, the rightmost counted as a check digit when `withCheckDigit`. */
function luhnSum(digits: string, withCheckDigit: boolean): number {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    const digit = Number(digits[digits.length - 1 - index]);
    const doubled = index % 2 === (withCheckDigit ? 1 : 0);
    sum += doubled ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit;
  }
  return sum;
}

/** Whether a card number's last digit is its Luhn check digit (ISO/IEC 7812-1). */
export function passesLuhn(pan: string): boolean {
  return luhnSum(pan, true) % 10 === 0;
}

/** The Luhn check digit that completes `body` into a card number. */
export function luhnCheckDigit(body: string): string {
  return String((10 - (luhnSum(body, false) % 10)) % 10);
}

/** The PAN of tag 5A (cn, 12 to 19 digits); undefined when the value is not one. */
export function panOf5A(value: Buffer): string | undefined {
  const match = /^([0-9]{12,19})F?$/.exec(value.toString('hex').toUpperCase());
  return match ? match[1] : undefined;
}

/** What tag 57 (track 2 equivalent data) holds: PAN, expiry YYMM, service code. */
export interface Track2 {
  pan: string;
  expiry: string;
  serviceCode: string;
}

/**
 * Reads tag 57: PAN (12 to 19 digits), separator D, expiry YYMM, service code (3 digits,
 * ISO/IEC 7813), discretionary digits, 37 characters at most, an F pad to whole bytes. Answers the track, or what is
 * wrong with it (never a digit of it).
 */
export function readTrack2(value: Buffer): Track2 | string {
  const digits = value.toString('hex').toUpperCase();
  const pan = /^[0-9]*/.exec(digits)![0];
  if (pan.length < 12 || pan.length > 19) return 'must begin with a PAN of 12 to 19 digits';
  if (digits[pan.length] !== 'D') return 'must have the separator D after the PAN';
  const rest = /^D([0-9]{2})([0-9]{2})([0-9]{3})([0-9]*)(F?)$/.exec(digits.slice(pan.length));
  if (!rest) return 'must have an expiry YYMM, a service code and discretionary digits after the separator, padded with one F';
  const [, year, month, serviceCode, , pad] = rest;
  // ISO/IEC 7813: track 2 holds at most 40 characters, 37 between the start sentinel and the end sentinel and LRC.
  if (digits.length - pad.length > 37) return 'must be at most 37 characters: PAN, separator, expiry, service code and discretionary data (ISO/IEC 7813)';
  if (Number(month) < 1 || Number(month) > 12) return 'must have an expiry YYMM after the separator';
  // ISO/IEC 7813: interchange 1, 2, 5, 6, 7 or 9; authorisation 0, 2 or 4; services 0 to 7.
  if (!/^[125679][024][0-7]$/.test(serviceCode)) return 'must have a service code of ISO/IEC 7813 after the expiry';
  return { pan, expiry: `${year}${month}`, serviceCode };
}

const luhn = (value: Buffer): string | undefined => (passesLuhn(panOf5A(value)!) ? undefined : 'fails the Luhn check (ISO/IEC 7812)');

const track2 = (value: Buffer): string | undefined => {
  const track = readTrack2(value);
  if (typeof track === 'string') return track;
  return passesLuhn(track.pan) ? undefined : 'has a PAN that fails the Luhn check (ISO/IEC 7812)';
};

const purchase = (value: Buffer): string | undefined =>
  value[0] === 0x00
    ? undefined
    : `is ${value.toString('hex')}, not 00 (goods and services): a SALE or AUTH is a purchase; refunds, cash and cashback are not taken here`;

/** Cryptogram information data (9F27): bits 8-7 say which cryptogram the card gave; only an ARQC asks for online authorisation. */
const onlineRequest = (value: Buffer): string | undefined => {
  switch (value[0] >> 6) {
    case 0b10:
      return undefined;
    case 0b00:
      return 'says AAC (bits 8-7 = 00): the card declined the transaction offline, so there is nothing to authorise online';
    case 0b01:
      return 'says TC (bits 8-7 = 01): the card approved offline, and this gateway takes online authorisations only (ARQC, bits 8-7 = 10)';
    default:
      return 'says bits 8-7 = 11, which EMV reserves: not an ARQC (bits 8-7 = 10)';
  }
};

const noCashback = (value: Buffer): string | undefined => (/^0+$/.test(value.toString('hex')) ? undefined : 'is not zero: cashback is not taken here');

const counted = (value: Buffer): string | undefined =>
  value.readUInt16BE(0) === 0 ? 'is 0: a card raises its counter before every cryptogram, so it is at least 1' : undefined;

const fixed = (length: number): readonly [number, number] => [length, length];

/** Every data element the gateway knows the format of. Tags not listed (proprietary, kernel-specific) are taken as they are. */
export const EMV_DATA_ELEMENTS: readonly EmvDataElement[] = [
  { tag: '4F', name: 'application identifier', format: 'b', bytes: [5, 16] },
  { tag: '50', name: 'application label', format: 'ans', bytes: [1, 16] },
  { tag: '57', name: 'track 2 equivalent data', format: 'b', bytes: [10, 19], rule: track2 },
  { tag: '5A', name: 'PAN', format: 'cn', bytes: [6, 10], rule: luhn },
  { tag: '5F20', name: 'cardholder name', format: 'ans', bytes: [2, 26] },
  { tag: '5F24', name: 'application expiration date', format: 'n', bytes: fixed(3), digits: 6, rule: date },
  { tag: '5F25', name: 'application effective date', format: 'n', bytes: fixed(3), digits: 6, rule: date },
  { tag: '5F28', name: 'issuer country code', format: 'n', bytes: fixed(2), digits: 3 },
  { tag: '5F2A', name: 'transaction currency code', format: 'n', bytes: fixed(2), digits: 3 },
  { tag: '5F34', name: 'PAN sequence number', format: 'n', bytes: fixed(1), digits: 2 },
  { tag: '82', name: 'application interchange profile', format: 'b', bytes: fixed(2) },
  { tag: '84', name: 'dedicated file name', format: 'b', bytes: [5, 16] },
  { tag: '95', name: 'terminal verification results', format: 'b', bytes: fixed(5) },
  { tag: '9A', name: 'transaction date', format: 'n', bytes: fixed(3), digits: 6, rule: date },
  { tag: '9B', name: 'transaction status information', format: 'b', bytes: fixed(2) },
  { tag: '9C', name: 'transaction type', format: 'n', bytes: fixed(1), digits: 2, rule: purchase },
  { tag: '9F02', name: 'amount, authorised', format: 'n', bytes: fixed(6), digits: 12 },
  { tag: '9F03', name: 'amount, other', format: 'n', bytes: fixed(6), digits: 12, rule: noCashback },
  { tag: '9F06', name: 'application identifier (terminal)', format: 'b', bytes: [5, 16] },
  { tag: '9F07', name: 'application usage control', format: 'b', bytes: fixed(2) },
  { tag: '9F09', name: 'application version number (terminal)', format: 'b', bytes: fixed(2) },
  { tag: '9F10', name: 'issuer application data', format: 'b', bytes: [1, 32] },
  { tag: '9F12', name: 'application preferred name', format: 'ans', bytes: [1, 16] },
  { tag: '9F1A', name: 'terminal country code', format: 'n', bytes: fixed(2), digits: 3 },
  { tag: '9F1E', name: 'interface device serial number', format: 'an', bytes: fixed(8) },
  { tag: '9F21', name: 'transaction time', format: 'n', bytes: fixed(3), digits: 6, rule: timeOfDay },
  { tag: '9F26', name: 'application cryptogram', format: 'b', bytes: fixed(8) },
  { tag: '9F27', name: 'cryptogram information data', format: 'b', bytes: fixed(1), rule: onlineRequest },
  { tag: '9F33', name: 'terminal capabilities', format: 'b', bytes: fixed(3) },
  { tag: '9F34', name: 'cardholder verification method results', format: 'b', bytes: fixed(3) },
  { tag: '9F35', name: 'terminal type', format: 'n', bytes: fixed(1), digits: 2 },
  { tag: '9F36', name: 'application transaction counter', format: 'b', bytes: fixed(2), rule: counted },
  { tag: '9F37', name: 'unpredictable number', format: 'b', bytes: fixed(4) },
  { tag: '9F39', name: 'POS entry mode', format: 'n', bytes: fixed(1), digits: 2 },
  { tag: '9F41', name: 'transaction sequence counter', format: 'n', bytes: [2, 4] },
  { tag: '9F66', name: 'terminal transaction qualifiers', format: 'b', bytes: fixed(4) },
  { tag: '9F6C', name: 'card transaction qualifiers', format: 'b', bytes: fixed(2) },
  { tag: '9F6E', name: 'form factor indicator or third party data', format: 'b', bytes: [4, 32] },
  { tag: '9F7C', name: 'customer exclusive data', format: 'b', bytes: [1, 32] },
];

const ELEMENT_OF_TAG = new Map(EMV_DATA_ELEMENTS.map((element) => [element.tag, element]));

/** The element of a tag, if the gateway knows its format. */
export function emvDataElement(tag: string): EmvDataElement | undefined {
  return ELEMENT_OF_TAG.get(tag);
}

/** `tag 9F02 (amount, authorised)`, or `tag DF01` for a tag the gateway does not know. */
export function tagLabel(tag: string): string {
  const element = ELEMENT_OF_TAG.get(tag);
  return element ? `tag ${tag} (${element.name})` : `tag ${tag}`;
}

function lengthText([least, most]: readonly [number, number]): string {
  if (least === most) return least === 1 ? '1 byte' : `${least} bytes`;
  return `${least} to ${most} bytes`;
}

/** What a valid value of `element` looks like, for a refusal. */
export function shapeOf(element: EmvDataElement): string {
  const bytes = lengthText(element.bytes);
  switch (element.format) {
    case 'b':
      return `${bytes} (b)`;
    case 'n':
      return element.digits === undefined ? `${bytes} of BCD digits (n)` : `${element.digits} BCD digits in ${bytes} (n ${element.digits})`;
    case 'cn':
      return '12 to 19 digits, padded with one F to whole bytes (cn)';
    case 'an':
      return `${bytes} of letters and digits (an)`;
    case 'ans':
      return `${bytes} of printable characters (ans)`;
    default: {
      const unreachable: never = element.format;
      throw new Error(`unknown EMV format ${String(unreachable)}`);
    }
  }
}

function hasFormat(element: EmvDataElement, value: Buffer): boolean {
  if (value.length < element.bytes[0] || value.length > element.bytes[1]) return false;
  const digits = value.toString('hex').toUpperCase();
  switch (element.format) {
    case 'b':
      return true;
    case 'n':
      return /^[0-9]+$/.test(digits) && (element.digits === undefined || /^0*$/.test(digits.slice(0, digits.length - element.digits)));
    case 'cn':
      return panOf5A(value) !== undefined;
    case 'an':
      return /^[A-Za-z0-9]+$/.test(value.toString('latin1'));
    case 'ans':
      // The common character set of ISO/IEC 8859: printable, no control characters.
      return /^[\x20-\x7E\xA0-\xFF]+$/.test(value.toString('latin1'));
    default: {
      const unreachable: never = element.format;
      throw new Error(`unknown EMV format ${String(unreachable)}`);
    }
  }
}

/** What is wrong with `value` as `element` (its format first, then its rule), or undefined when nothing is. */
export function defectOf(element: EmvDataElement, value: Buffer): string | undefined {
  if (!hasFormat(element, value)) return `must be ${shapeOf(element)}`;
  return element.rule?.(value);
}
