import { HostTotalsV1 } from '@app/contracts';
import { Iso8583Message, MessageSpec } from '@app/iso8583';
import * as countries from 'i18n-iso-countries';

/**
 * The simulator's own reading of ISO 8583:1987, written from the standard rather than taken from
 * the connector's dialect (`libs/host-protocol`), so that the two sides of the wire check each
 * other: a field the connector maps wrongly is answered as a host would answer it (12, 30, 25 …),
 * not understood by the same mistake (`docs/decisions.md`, "One packing per request, and the
 * simulator's own field mapping").
 */

/** Field numbers the simulator reads and answers with. */
export const FIELD = {
  processingCode: 3,
  amount: 4,
  transmittedAt: 7,
  stan: 11,
  pan: 2,
  track2: 35,
  rrn: 37,
  approvalCode: 38,
  responseCode: 39,
  tid: 41,
  localTime: 12,
  localDate: 13,
  settlementDate: 15,
  merchantType: 18,
  acquirerCountry: 19,
  acquirerId: 32,
  cardAcceptor: 43,
  /** Sign-on and key exchange answers: the working key under the ZMK and its check value. */
  workingKey: 48,
  networkCode: 70,
  /** Reconciliation: credits (refunds) and debits (sales) as counts and amounts. */
  creditsCount: 74,
  debitsCount: 76,
  creditsAmount: 86,
  debitsAmount: 88,
  originalData: 90,
} as const;

/**
 * Field 3 positions 1–2, the transaction type: 00 goods and services, 02 debit adjustment and 22
 * credit adjustment (a void of a sale and of a refund, for hosts that void with a 0200), 20 refund.
 */
export type TransactionType = 'PURCHASE' | 'VOID' | 'REFUND';

export function transactionTypeOf(processingCode: string): TransactionType | undefined {
  switch (processingCode.slice(0, 2)) {
    case '00':
      return 'PURCHASE';
    case '02':
    case '22':
      return 'VOID';
    case '20':
      return 'REFUND';
    default:
      return undefined;
  }
}

/** Field 70 network management codes. */
export type NetworkFunction = 'SIGN_ON' | 'SIGN_OFF' | 'KEY_EXCHANGE' | 'ECHO';

/** `keyExchangeCode`: the spec's `host.keyExchangeCode` (default 101). */
export function networkFunctionOf(code: string | undefined, keyExchangeCode = '101'): NetworkFunction | undefined {
  if (code !== undefined && code === keyExchangeCode) return 'KEY_EXCHANGE';
  switch (code) {
    case '001':
      return 'SIGN_ON';
    case '002':
      return 'SIGN_OFF';
    case '301':
      return 'ECHO';
    default:
      return undefined;
  }
}

/** MTI digit 3 is the function: 0 request, 1 request response, 2 advice, 3 advice response. */
export function isRequest(mti: string): boolean {
  return mti.length === 4 && (mti[2] === '0' || mti[2] === '2');
}

/** The answer's MTI: function digit one up, origin digit 1 (repeat) answered as 0 (0401 → 0410). */
export function answerMti(requestMti: string): string {
  const origin = Number(requestMti[3]);
  return `${requestMti.slice(0, 2)}${Number(requestMti[2]) + 1}${origin - (origin % 2)}`;
}

/** Field 90 (n 42): original MTI, STAN, transmission date and time, then acquirer and forwarder ids. */
export function readOriginalData(value: string | undefined): { mti: string; stan: string; transmittedAt: string } | undefined {
  if (value === undefined) return undefined;
  const match = /^([0-9]{4})([0-9]{6})([0-9]{10})[0-9]{22}$/.exec(value);
  return match ? { mti: match[1], stan: match[2], transmittedAt: match[3] } : undefined;
}

/** Field 48 of an 0810: the working key under the ZMK in hex, then its 6-digit check value. */
export function workingKeyField(keyUnderZmk: Buffer, checkValue: string): string {
  return keyUnderZmk.toString('hex').toUpperCase() + checkValue.toUpperCase();
}

/** Field 3 of an 0500: 920000 settlement, 960000 closing a batch upload (terminal style); absent in acquirer style. */
export const UPLOAD_COMPLETE = '960000';

/**
 * Totals of an 0500 in either layout: field 63 (sales count n3, amount n12, refunds count n3,
 * amount n12) when the request has it, else fields 74/76/86/88; undefined when unreadable.
 */
export function readTotals(message: Iso8583Message): HostTotalsV1 | undefined {
  const field63 = text(message, 63);
  if (field63 !== undefined) {
    const match = /^([0-9]{3})([0-9]{12})([0-9]{3})([0-9]{12})/.exec(field63);
    return match ? { saleCount: Number(match[1]), saleMinor: String(BigInt(match[2])), refundCount: Number(match[3]), refundMinor: String(BigInt(match[4])) } : undefined;
  }
  return readTotals74to89(message);
}

function readTotals74to89(message: Iso8583Message): HostTotalsV1 | undefined {
  const numbers = [FIELD.debitsCount, FIELD.debitsAmount, FIELD.creditsCount, FIELD.creditsAmount].map((number) => text(message, number));
  if (!numbers.every((value): value is string => value !== undefined && /^[0-9]+$/.test(value))) return undefined;
  const [debits, debitsAmount, credits, creditsAmount] = numbers;
  return { saleCount: Number(debits), saleMinor: String(BigInt(debitsAmount)), refundCount: Number(credits), refundMinor: String(BigInt(creditsAmount)) };
}

/** The totals fields of an 0510 in the layout of its 0500 (63, or 74/76/86/88 zero-filled to n 10 counts and n 16 amounts). */
export function totalsFields(totals: HostTotalsV1, request: Iso8583Message): Record<number, string> {
  if (request.fields[63] !== undefined)
    return { 63: `${String(totals.saleCount).padStart(3, '0')}${totals.saleMinor.padStart(12, '0')}${String(totals.refundCount).padStart(3, '0')}${totals.refundMinor.padStart(12, '0')}` };
  return {
    [FIELD.debitsCount]: String(totals.saleCount).padStart(10, '0'),
    [FIELD.debitsAmount]: totals.saleMinor.padStart(16, '0'),
    [FIELD.creditsCount]: String(totals.refundCount).padStart(10, '0'),
    [FIELD.creditsAmount]: totals.refundMinor.padStart(16, '0'),
  };
}

/** The card acceptor a financial request names (fields 12, 13, 18, 19, 32, 43), as the host books it. */
export interface CardAcceptorSeen {
  /** Field 43 positions 1–25, 26–38 and 39–40, trailing spaces dropped. */
  name: string;
  city: string;
  country: string;
  /** Field 18. */
  mcc: string | undefined;
  /** Field 19, ISO 3166 numeric. */
  countryCode: string | undefined;
  /** Field 32. */
  acquirerId: string | undefined;
  /** Fields 13 (MMDD) and 12 (hhmmss): the terminal's local date and time. */
  localDate: string | undefined;
  localTime: string | undefined;
}

/**
 * Fields 12, 13, 18, 19, 32 and 43 of a request, checked as a host checks them: 43 is 40
 * characters (name 25, city 13, country 2 in the 1987 layout), 18 four digits, 19 three digits
 * naming the same country as 43, 12/13 a real time and date. Undefined when 43 is absent (the
 * host then knows the merchant by its id only); a string saying what is wrong when they break the rules.
 */
export function readCardAcceptor(message: Iso8583Message): CardAcceptorSeen | string | undefined {
  const raw = message.fields[FIELD.cardAcceptor];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw.length !== 40) return 'field 43 is not 40 characters';
  const seen: CardAcceptorSeen = {
    name: raw.slice(0, 25).trimEnd(),
    city: raw.slice(25, 38).trimEnd(),
    country: raw.slice(38, 40).trimEnd(),
    mcc: text(message, FIELD.merchantType),
    countryCode: text(message, FIELD.acquirerCountry),
    acquirerId: text(message, FIELD.acquirerId),
    localDate: text(message, FIELD.localDate),
    localTime: text(message, FIELD.localTime),
  };
  if (seen.name === '') return 'field 43 names no merchant';
  if (seen.mcc !== undefined && !/^[0-9]{4}$/.test(seen.mcc)) return 'field 18 is not a 4-digit MCC';
  if (seen.countryCode !== undefined) {
    const alpha2 = /^[0-9]{3}$/.test(seen.countryCode) ? countries.numericToAlpha2(seen.countryCode) : undefined;
    if (alpha2 === undefined) return 'field 19 is not an ISO 3166 numeric country';
    if (seen.country !== '' && alpha2 !== seen.country) return `field 19 (${seen.countryCode}) and field 43 (${seen.country}) name different countries`;
  }
  if (seen.localTime !== undefined && !/^([01][0-9]|2[0-3])[0-5][0-9][0-5][0-9]$/.test(seen.localTime)) return 'field 12 is not hhmmss';
  if (seen.localDate !== undefined && !/^(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])$/.test(seen.localDate)) return 'field 13 is not MMDD';
  return seen;
}

/** A received field as text (bytes as uppercase hex), trailing spaces dropped; undefined when absent. */
export function text(message: Iso8583Message, number: number): string | undefined {
  const value = message.fields[number];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return value.toString('hex').toUpperCase();
  return value.trimEnd();
}

/** A value to answer with, as the spec's field takes it: bytes (from hex) for a binary field, the text otherwise (the codec pads). */
export function answerValue(spec: MessageSpec, number: number, value: string): string | Buffer {
  const field = spec.fields.get(number);
  return field !== undefined && !field.encoding.textual ? Buffer.from(value, 'hex') : value;
}
