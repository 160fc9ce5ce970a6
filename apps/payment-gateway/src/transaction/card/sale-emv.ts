import { DomainError } from '@app/common';
import { cardDataOf, HostProtocolError, readEmvObjects } from '@app/host-protocol';
import type { TlvItem } from '@app/iso8583';
import type { Transaction } from '../transaction';
import { MaskedAccount, maskAccount } from './account-mask';
import { CvmPerformed, cvmPerformedOf } from './cvm';

/** One EMV object a sale needs: its tag (or the tags that may stand for each other, in order of preference) and the shape of its value. */
interface RequiredObject {
  tags: readonly string[];
  name: string;
  /** What a valid value is, for the error. */
  shape: string;
  valid: (value: Buffer) => boolean;
}

const ofLength =
  (min: number, max = min) =>
  (value: Buffer): boolean =>
    value.length >= min && value.length <= max;
const bcdOf =
  (length: number) =>
  (value: Buffer): boolean =>
    value.length === length && /^[0-9]+$/.test(value.toString('hex'));

/** The card and kernel data a sale must carry (issue 13): what the host and the issuer need to authorise it and to verify the cryptogram. */
export const REQUIRED_EMV_OBJECTS: readonly RequiredObject[] = [
  // The PAN and track 2 are checked by the card-data reader (12 to 19 digits, separator, expiry).
  { tags: ['5A', '57'], name: 'PAN or track 2 equivalent', shape: '', valid: () => true },
  { tags: ['5F24'], name: 'application expiration date', shape: '3 bytes of BCD digits (YYMMDD)', valid: bcdOf(3) },
  { tags: ['4F', '9F06'], name: 'application identifier', shape: '5 to 16 bytes', valid: ofLength(5, 16) },
  { tags: ['9F26'], name: 'application cryptogram', shape: '8 bytes', valid: ofLength(8) },
  { tags: ['9F27'], name: 'cryptogram information data', shape: '1 byte', valid: ofLength(1) },
  { tags: ['9F10'], name: 'issuer application data', shape: '1 to 32 bytes', valid: ofLength(1, 32) },
  { tags: ['9F37'], name: 'unpredictable number', shape: '4 bytes', valid: ofLength(4) },
  { tags: ['9F36'], name: 'application transaction counter', shape: '2 bytes', valid: ofLength(2) },
  { tags: ['95'], name: 'terminal verification results', shape: '5 bytes', valid: ofLength(5) },
  { tags: ['9A'], name: 'transaction date', shape: '3 bytes of BCD digits (YYMMDD)', valid: bcdOf(3) },
  { tags: ['9C'], name: 'transaction type', shape: '1 byte of BCD digits', valid: bcdOf(1) },
  { tags: ['9F02'], name: 'amount, authorised', shape: '6 bytes of BCD digits', valid: bcdOf(6) },
  { tags: ['5F2A'], name: 'transaction currency code', shape: '2 bytes of BCD digits', valid: bcdOf(2) },
  { tags: ['82'], name: 'application interchange profile', shape: '2 bytes', valid: ofLength(2) },
  { tags: ['9F1A'], name: 'terminal country code', shape: '2 bytes of BCD digits', valid: bcdOf(2) },
  { tags: ['9F33'], name: 'terminal capabilities', shape: '3 bytes', valid: ofLength(3) },
  { tags: ['9F34'], name: 'cardholder verification method results', shape: '3 bytes', valid: ofLength(3) },
];

/**
 * What the gateway keeps of a card's EMV data for a sale: the masked account and the chip data
 * a receipt and a dispute need (see {@link Transaction} for each), and what the card signed (9F02
 * in minor units, 5F2A as an ISO 4217 numeric code). No PAN, no track 2: those stay in the
 * request's `emvData`, which goes to the host connector and nowhere else.
 */
export interface SaleEmv extends Pick<Transaction, 'aid' | 'appName' | 'tc' | 'tvr' | 'tsi' | 'atc' | 'issCountryCode'> {
  account: MaskedAccount;
  cvmPerformed: CvmPerformed;
  signedAmountMinor: string;
  signedCurrencyNumeric: string;
}

function firstOf(objects: readonly TlvItem[], tag: string): Buffer | undefined {
  return objects.find((object) => object.tag === tag)?.value;
}

function hex(value: Buffer): string {
  return value.toString('hex').toUpperCase();
}

/** Printable ASCII of a text object (ans), trimmed, at most 32 characters; null when nothing is left. */
function printable(value: Buffer | undefined): string | null {
  if (!value) return null;
  const text = value
    .toString('latin1')
    .replace(/[^\x20-\x7E]/g, '')
    .trim()
    .slice(0, 32);
  return text === '' ? null : text;
}

/** A BCD numeric code of 2 bytes (`0458`) as the 3-digit ISO code (`458`); null when it is not one. */
function numericCode(value: Buffer | undefined): string | null {
  const digits = value?.toString('hex');
  return digits && /^0[0-9]{3}$/.test(digits) ? digits.slice(1) : null;
}

function invalid(detail: string): DomainError {
  return DomainError.validation(`emvData ${detail}`);
}

/**
 * Reads and checks the EMV data of a sale (hex BER-TLV as the SDK read it from the card and the
 * kernel). Malformed TLV, a missing required object or one of the wrong shape is a validation
 * error naming the tag; no error ever carries a value of the card.
 */
export function readSaleEmv(emvData: string): SaleEmv {
  let objects: TlvItem[];
  let pan: string;
  try {
    objects = readEmvObjects(emvData, 'emvData');
  } catch (error) {
    if (error instanceof HostProtocolError) throw DomainError.validation(error.message);
    throw error;
  }
  const values = new Map<string, Buffer>();
  for (const required of REQUIRED_EMV_OBJECTS) {
    const tag = required.tags.find((candidate) => firstOf(objects, candidate) !== undefined);
    if (tag === undefined) throw invalid(`lacks tag ${required.tags.join(' or ')} (${required.name})`);
    const value = firstOf(objects, tag)!;
    if (!required.valid(value)) throw invalid(`tag ${tag} (${required.name}) must be ${required.shape}`);
    values.set(required.tags[0], value);
  }
  try {
    pan = cardDataOf(objects, 'emvData').pan;
  } catch (error) {
    if (error instanceof HostProtocolError) throw DomainError.validation(error.message);
    throw error;
  }
  const signedAmount = values.get('9F02')!.toString('hex');
  return {
    account: maskAccount(pan),
    aid: hex(values.get('4F')!),
    appName: printable(firstOf(objects, '50')) ?? printable(firstOf(objects, '9F12')),
    tc: hex(values.get('9F26')!),
    tvr: hex(values.get('95')!),
    tsi: firstOf(objects, '9B')?.length === 2 ? hex(firstOf(objects, '9B')!) : null,
    atc: hex(values.get('9F36')!),
    issCountryCode: numericCode(firstOf(objects, '5F28')),
    cvmPerformed: cvmPerformedOf(values.get('9F34')!, firstOf(objects, '9F6C')),
    signedAmountMinor: BigInt(signedAmount).toString(),
    signedCurrencyNumeric: values.get('5F2A')!.toString('hex').replace(/^0/, ''),
  };
}
