import { DomainError } from '@app/common';
import { currencyInfo, minorToDecimal } from '@app/contracts';
import type { Transaction } from '../transaction';
import { MaskedAccount, maskAccount } from './account-mask';
import { CvmPerformed, cvmPerformedOf } from './cvm';
import { calendarDateOf, defectOf, emvDataElement, panOf5A, readTrack2, tagLabel, Track2 } from './emv-data-elements';
import { readCardObjects } from './emv-objects';

/** One EMV object a sale needs: its tag, or the tags that may stand for each other in order of preference. */
interface RequiredObject {
  tags: readonly string[];
  name: string;
}

/** The card and kernel data a sale must carry (issue 13): what the host and the issuer need to authorise it and to verify the cryptogram. */
export const REQUIRED_EMV_OBJECTS: readonly RequiredObject[] = [
  { tags: ['5A', '57'], name: 'PAN or track 2 equivalent' },
  { tags: ['5F24'], name: 'application expiration date' },
  { tags: ['4F', '9F06'], name: 'application identifier' },
  { tags: ['9F26'], name: 'application cryptogram' },
  { tags: ['9F27'], name: 'cryptogram information data' },
  { tags: ['9F10'], name: 'issuer application data' },
  { tags: ['9F37'], name: 'unpredictable number' },
  { tags: ['9F36'], name: 'application transaction counter' },
  { tags: ['95'], name: 'terminal verification results' },
  { tags: ['9A'], name: 'transaction date' },
  { tags: ['9C'], name: 'transaction type' },
  { tags: ['9F02'], name: 'amount, authorised' },
  { tags: ['5F2A'], name: 'transaction currency code' },
  { tags: ['82'], name: 'application interchange profile' },
  { tags: ['9F1A'], name: 'terminal country code' },
  { tags: ['9F33'], name: 'terminal capabilities' },
  { tags: ['9F34'], name: 'cardholder verification method results' },
];

/**
 * What the gateway keeps of a card's EMV data for a sale: the masked account and the chip data
 * a receipt and a dispute need (see {@link Transaction} for each). No PAN, no track 2: those stay
 * in the request's `emvData`, which goes to the host connector and nowhere else.
 */
export interface SaleEmv extends Pick<Transaction, 'aid' | 'appName' | 'tc' | 'tvr' | 'tsi' | 'atc' | 'issCountryCode'> {
  account: MaskedAccount;
  cvmPerformed: CvmPerformed;
  /** The read's identity, digested by `digest` (a keyed HMAC): the PAN never leaves here in clear. */
  cardRead(digest: (identity: string) => string): string;
}

/**
 * What makes a card read single-use: the card (PAN), its counter (9F36) and its cryptogram (9F26).
 * A chip raises its ATC and computes a new ARQC for every transaction, so the same three twice are
 * one read sent twice (a retry without its Idempotency-Key, or a replay).
 */
export function cardReadIdentity(pan: string, atc: string, cryptogram: string): string {
  return `card-read:v1:${pan}:${atc.toUpperCase()}:${cryptogram.toUpperCase()}`;
}

/** What the request asks the card to have signed: the amount as given, in minor units, and its currency. */
export interface SignedSale {
  amount: { value: string; currency: string };
  amountMinor: string;
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

function refusal(tag: string, rule: string): DomainError {
  return DomainError.validation(`emvData ${tagLabel(tag)} ${rule}`);
}

/** Every known data element present has its EMV format and keeps its element's rule; the first that does not is refused. */
function checkFormats(objects: ReadonlyMap<string, Buffer>): void {
  for (const [tag, value] of objects) {
    const element = emvDataElement(tag);
    const defect = element && defectOf(element, value);
    if (defect) throw refusal(tag, defect);
  }
}

/**
 * The rules between data elements that each have their format: one card (5A and 57), one expiry
 * (57 and 5F24), a card valid on the transaction date (5F24, 5F25 against 9A), one application
 * (4F, 84 and 9F06). Answers the card number.
 */
function checkConsistency(objects: ReadonlyMap<string, Buffer>): string {
  const track = objects.has('57') ? (readTrack2(objects.get('57')!) as Track2) : undefined;
  const pan = objects.has('5A') ? panOf5A(objects.get('5A')!)! : track!.pan;
  if (track && track.pan !== pan) throw refusal('57', 'names another PAN than tag 5A (PAN)');
  const expiry = calendarDateOf(objects.get('5F24')!)!;
  if (track && track.expiry !== expiry.slice(2, 6)) throw refusal('57', 'names another expiry month than tag 5F24 (application expiration date)');
  const transactionDate = calendarDateOf(objects.get('9A')!)!;
  if (expiry < transactionDate) throw refusal('5F24', 'is before tag 9A (transaction date): the card has expired');
  const effective = objects.has('5F25') ? calendarDateOf(objects.get('5F25')!)! : undefined;
  if (effective !== undefined && effective > transactionDate) throw refusal('5F25', 'is after tag 9A (transaction date): the card is not valid yet');
  if (effective !== undefined && effective > expiry) throw refusal('5F25', 'is after tag 5F24 (application expiration date)');

  const cardAid = objects.get('4F');
  const dfName = objects.get('84');
  if (cardAid && dfName && !dfName.equals(cardAid)) throw refusal('84', 'is not the application identifier of tag 4F');
  const selected = cardAid ?? dfName;
  const terminalAid = objects.get('9F06');
  if (selected && terminalAid && !selected.subarray(0, terminalAid.length).equals(terminalAid)) {
    throw refusal('9F06', `is not the application identifier of tag ${cardAid ? '4F' : '84'} nor the beginning of it (partial selection)`);
  }
  return pan;
}

/** 9F02 and 5F2A are the request's amount and currency: the card signed what the merchant asks for. */
function checkSigned(objects: ReadonlyMap<string, Buffer>, sale: SignedSale): void {
  const currency = currencyInfo(sale.amount.currency)!;
  const signedMinor = BigInt(objects.get('9F02')!.toString('hex')).toString();
  if (signedMinor !== sale.amountMinor) {
    const signed = minorToDecimal(signedMinor, currency.minorUnits);
    throw refusal('9F02', `is ${signed}, not amount.value ${sale.amount.value}: the card signed another amount`);
  }
  const signedCurrency = objects.get('5F2A')!.toString('hex').slice(1);
  if (signedCurrency !== currency.numeric) {
    throw refusal('5F2A', `is ${signedCurrency}, not ${currency.numeric} of amount.currency ${currency.alpha}: the card signed another currency`);
  }
}

/**
 * Reads and checks the EMV data of a sale (hex BER-TLV as the SDK read it from the card and the
 * kernel), in one step before anything is stored or sent: its structure (BER-TLV, templates,
 * each tag once), every required object present, every known data element in its EMV format
 * with its own rule (a date is a calendar date, the PAN passes the Luhn check, an ARQC, a
 * purchase), the elements consistent with each other, and the card signing the request's amount
 * and currency. Each refusal is a validation error naming the tag and the rule, never a value of
 * the card (docs/decisions.md, "The card read is checked as EMV defines it").
 */
export function readSaleEmv(emvData: string, sale: SignedSale): SaleEmv {
  const objects = readCardObjects(emvData);
  for (const required of REQUIRED_EMV_OBJECTS) {
    if (!required.tags.some((tag) => objects.has(tag))) throw DomainError.validation(`emvData lacks tag ${required.tags.join(' or ')} (${required.name})`);
  }
  checkFormats(objects);
  const pan = checkConsistency(objects);
  checkSigned(objects, sale);
  const tsi = objects.get('9B');
  const atc = hex(objects.get('9F36')!);
  const tc = hex(objects.get('9F26')!);
  return {
    account: maskAccount(pan),
    aid: hex(objects.get('4F') ?? objects.get('9F06')!),
    appName: printable(objects.get('50')) ?? printable(objects.get('9F12')),
    tc,
    tvr: hex(objects.get('95')!),
    tsi: tsi ? hex(tsi) : null,
    atc,
    issCountryCode: numericCode(objects.get('5F28')),
    cvmPerformed: cvmPerformedOf(objects.get('9F34')!, objects.get('9F6C')),
    cardRead: (digest) => digest(cardReadIdentity(pan, atc, tc)),
  };
}
