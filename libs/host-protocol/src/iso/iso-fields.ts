import { countryNumeric, HostBatchKindV1, hostText, HostFollowUpRequestV1, HostMerchantV1, HostOriginalKindV1, HostOriginalV1, HostTotalsV1 } from '@app/contracts';
import { DEFAULT_HOST_RULES, HostRules, Iso8583Message, MessageSpec } from '@app/iso8583';
import { HostOperation, HostRequestOf } from '../dialect';

/**
 * The dialect's ISO 8583 field table (README.md, "ISO 8583 field mapping"): how the connector
 * builds requests and reads answers. The host simulator reads requests with a table of its own
 * (`apps/host-simulator/src/iso/iso-fields.ts`), so the two sides check each other.
 */

/**
 * Field 3, positions 1–2 (transaction type) followed by from/to account 0000: 00 goods and
 * services, 20 returns, 02 debit adjustment and 22 credit adjustment (a void sent as a 0200, of a
 * sale and of a refund, by hosts that ask for it: `host.voidAs`).
 */
export const PROCESSING_CODE = { PURCHASE: '000000', VOID: '020000', VOID_REFUND: '220000', REFUND: '200000' } as const;
/** Field 3 of a reconciliation 0500: settlement, and the 0500 closing a batch upload. */
export const RECONCILIATION_CODE = { SETTLEMENT: '920000', UPLOAD_COMPLETE: '960000' } as const;
/** Field 70 on 0800/0810. */
export const NETWORK_CODE = { SIGN_ON: '001', SIGN_OFF: '002', KEY_EXCHANGE: '101', ECHO: '301' } as const;
/** Field 22: 07 = contactless chip (EMV), 1 = terminal can accept a PIN. */
export const POS_ENTRY_MODE_CONTACTLESS_CHIP = '071';
/** Field 25: 00 = normal presentment. */
export const POS_CONDITION_NORMAL = '00';
/** Field 25: 06 = pre-authorisation request, on a pre-authorisation, its completion (capture) and their reversals. */
export const POS_CONDITION_PREAUTH = '06';
/** Field carrying the working key and its check value on 0810 (sign-on and key exchange). */
export const KEY_FIELD = 48;
/** Reconciliation totals (0500 / 0510): credits are refunds, debits are sales and completions. */
export const TOTALS_FIELD = { creditsCount: 74, debitsCount: 76, creditsAmount: 86, debitsAmount: 88 } as const;

/** Field 43 (ans 40, ISO 8583:1987 layout): name 25, city 13, country 2. */
export const CARD_ACCEPTOR_LAYOUT = { name: 25, city: 13, country: 2 } as const;
/** A payment facilitator's part of the name in field 43 before `*` and the sub-merchant's name (card schemes allow 3, 7 or 12). */
export const FACILITATOR_PREFIX_LENGTH = 12;


/**
 * Field 43 of a merchant: name (25), city (13) and ISO 3166 alpha-2 country (2), each cut or
 * space-padded to its width. A payment facilitator's sub-merchant is named
 * `<facilitator, up to 12>*<sub-merchant>`, the form the card schemes ask of facilitators.
 */
export function cardAcceptorNameLocation(merchant: HostMerchantV1): string {
  const name = hostText(merchant.name);
  const displayed =
    merchant.subMerchantName === undefined
      ? name
      : `${name.replace(/\*/g, ' ').slice(0, FACILITATOR_PREFIX_LENGTH).trim()}*${hostText(merchant.subMerchantName)}`;
  return (
    displayed.slice(0, CARD_ACCEPTOR_LAYOUT.name).padEnd(CARD_ACCEPTOR_LAYOUT.name, ' ') +
    hostText(merchant.city ?? '').slice(0, CARD_ACCEPTOR_LAYOUT.city).padEnd(CARD_ACCEPTOR_LAYOUT.city, ' ') +
    (merchant.country ?? '').padEnd(CARD_ACCEPTOR_LAYOUT.country, ' ')
  );
}

/**
 * The merchant fields of a card-acceptor message: 18 (MCC), 19 (country, ISO 3166 numeric; the
 * acquirer's country, which we take to be the merchant's: acquirers acquire in their own country)
 * and 43. A field whose value the merchant lacks is left out.
 */
export function merchantFields(merchant: HostMerchantV1): Record<number, string> {
  const fields: Record<number, string> = { 43: cardAcceptorNameLocation(merchant) };
  if (merchant.mcc !== null) fields[18] = merchant.mcc;
  const numeric = merchant.country === null ? undefined : countryNumeric(merchant.country);
  if (numeric !== undefined) fields[19] = numeric.padStart(3, '0');
  return fields;
}

/**
 * What an original was: the follow-up says so (`original.kind`); a caller older than issue 16
 * does not, and its original is read from the MTI (0100 a pre-authorisation, 022x a capture,
 * anything else a sale).
 */
export function originalKindOf(original: Pick<HostOriginalV1, 'kind' | 'mti'>): HostOriginalKindV1 {
  if (original.kind !== undefined) return original.kind;
  if (original.mti.startsWith('01')) return 'PREAUTH';
  if (original.mti.startsWith('022')) return 'CAPTURE';
  return 'SALE';
}

/** Whether an operation goes out as a reversal of its original (0400/0420): a reversal, and a void when the host voids that way. */
export function sentAsReversal(operation: HostOperation, rules: HostRules = DEFAULT_HOST_RULES): boolean {
  return operation === 'reverse' || (operation === 'void' && rules.voidAs === 'reversal');
}

/**
 * The request MTI of an operation: a reversal (and a void sent as one) is a 0400, or a 0420 when
 * its original was an advice (022x), 0401/0421 when repeated.
 */
export function requestMtiOf<O extends HostOperation>(operation: O, request: HostRequestOf[O], repeat = false, rules: HostRules = DEFAULT_HOST_RULES): string {
  const reversal = (): string => `04${(request as HostFollowUpRequestV1).original.mti.startsWith('022') ? '2' : '0'}${repeat ? '1' : '0'}`;
  switch (operation) {
    case 'authorize':
      return (request as HostRequestOf['authorize']).kind === 'PREAUTH' ? '0100' : '0200';
    case 'void':
      return rules.voidAs === 'reversal' ? reversal() : '0200';
    case 'refund':
      return '0200';
    case 'capture':
      return '0220';
    case 'reverse':
      return reversal();
    case 'settle':
    case 'settleclose':
      return '0500';
    case 'batchupload':
      return '0320';
    case 'signon':
    case 'echo':
    case 'keyexchange':
      return '0800';
  }
  throw new RangeError(`unknown operation ${String(operation)}`);
}

/** Field 3 of a transaction of this kind, as it was sent. */
export function processingCodeOfKind(kind: HostOriginalKindV1): string {
  switch (kind) {
    case 'SALE':
    case 'PREAUTH':
    case 'CAPTURE':
      return PROCESSING_CODE.PURCHASE;
    case 'REFUND':
      return PROCESSING_CODE.REFUND;
    case 'VOID':
      return PROCESSING_CODE.VOID;
    case 'VOID_REFUND':
      return PROCESSING_CODE.VOID_REFUND;
  }
}

/** Field 25 of a transaction of this kind: 06 for a pre-authorisation and its completion, 00 otherwise. */
export function posConditionOfKind(kind: HostOriginalKindV1): string {
  return kind === 'PREAUTH' || kind === 'CAPTURE' ? POS_CONDITION_PREAUTH : POS_CONDITION_NORMAL;
}

/**
 * Field 22 of what a transaction of this kind went out with: an authorisation (sale,
 * pre-authorisation) was read from the card (contactless chip), a follow-up carried the kept card
 * entered as the format's `followUpEntryMode`. What a reversal of it says.
 */
export function entryModeOfKind(kind: HostOriginalKindV1, rules: HostRules): string {
  return kind === 'SALE' || kind === 'PREAUTH' ? POS_ENTRY_MODE_CONTACTLESS_CHIP : rules.followUpEntryMode;
}

/** The kind of transaction a follow-up is, as its own follow-ups (a reversal of it) will name it. */
export function followUpKindOf(operation: 'void' | 'refund' | 'capture', original: Pick<HostOriginalV1, 'kind' | 'mti'>): HostOriginalKindV1 {
  switch (operation) {
    case 'refund':
      return 'REFUND';
    case 'capture':
      return 'CAPTURE';
    case 'void':
      return originalKindOf(original) === 'REFUND' ? 'VOID_REFUND' : 'VOID';
  }
}

/**
 * Field 3 of a financial operation: a reversal (and a void sent as one) carries its original's,
 * so a reversal of a refund is a 20; a void sent as a 0200 is a 02 (22 for a void of a refund).
 */
export function processingCodeOf<O extends HostOperation>(operation: O, request?: HostRequestOf[O], rules: HostRules = DEFAULT_HOST_RULES): string | null {
  const original = (request as HostFollowUpRequestV1 | undefined)?.original;
  if (original !== undefined && sentAsReversal(operation, rules)) return processingCodeOfKind(originalKindOf(original));
  switch (operation) {
    case 'authorize':
    case 'capture':
    case 'reverse':
      return PROCESSING_CODE.PURCHASE;
    case 'void':
      return original !== undefined && originalKindOf(original) === 'REFUND' ? PROCESSING_CODE.VOID_REFUND : PROCESSING_CODE.VOID;
    case 'refund':
      return PROCESSING_CODE.REFUND;
    case 'settle':
    case 'batchupload':
    case 'settleclose':
    case 'signon':
    case 'echo':
    case 'keyexchange':
      return null;
  }
  return null;
}

/** Field 70 of a network operation; a key exchange's is the spec's `host.keyExchangeCode` (default 101). */
export function networkCodeOf(operation: 'signon' | 'echo' | 'keyexchange', rules: Pick<HostRules, 'keyExchangeCode'>): string {
  switch (operation) {
    case 'signon':
      return NETWORK_CODE.SIGN_ON;
    case 'echo':
      return NETWORK_CODE.ECHO;
    case 'keyexchange':
      return rules.keyExchangeCode;
  }
}

/**
 * The response MTI to a request MTI: class digit + 1, a repeat (odd last digit) answered like the
 * first (0401 → 0410, 0221 → 0230).
 */
export function responseMtiOf(requestMti: string): string {
  const functionDigit = Number(requestMti[2]);
  const originDigit = Number(requestMti[3]);
  return `${requestMti.slice(0, 2)}${functionDigit + 1}${originDigit - (originDigit % 2)}`;
}

/**
 * Field 90: the original's MTI, STAN and transmission time (7), then its acquiring institution id
 * (90.4: the field 32 it was sent with, right-justified and zero-filled to 11; zeros when it was
 * sent without one) and its forwarding institution id (90.5: zeros, no field 33 is ever sent).
 */
export function originalDataElements(original: Pick<HostFollowUpRequestV1['original'], 'mti' | 'stan' | 'transmittedAt' | 'acquirerId'>, acquirerId?: string): string {
  const acquirer = original.acquirerId ?? acquirerId ?? '';
  return `${original.mti}${original.stan}${original.transmittedAt}${acquirer.padStart(11, '0')}${'0'.repeat(11)}`;
}

/** Field 48 on 0810: the working key under the ZMK (32 hex digits) followed by its check value (6 hex digits). */
export function formatKeyField(keyUnderZmk: Buffer, checkValue: string): string {
  return `${keyUnderZmk.toString('hex').toUpperCase()}${checkValue.toUpperCase()}`;
}

/** Reads field 48 of an 0810; null when it is not 32 or 48 hex digits of key plus 6 of check value. */
export function parseKeyField(value: string | undefined): { keyUnderZmk: Buffer; keyCheckValue: string } | null {
  if (value === undefined) return null;
  const match = /^([0-9A-Fa-f]{32}|[0-9A-Fa-f]{48})([0-9A-Fa-f]{6})$/.exec(value.trim());
  if (!match) return null;
  return { keyUnderZmk: Buffer.from(match[1], 'hex'), keyCheckValue: match[2].toUpperCase() };
}

/** Field 3 of an 0320: the uploaded transaction's own processing code (a completion is a purchase). */
export function batchProcessingCodeOf(kind: HostBatchKindV1): string {
  return kind === 'REFUND' ? PROCESSING_CODE.REFUND : PROCESSING_CODE.PURCHASE;
}

/** Field 63 totals of a terminal-style 0500 / 0510: sales count (n3) and amount (n12), then refunds count and amount. */
export const FIELD63_TOTALS = { count: 3, amount: 12 } as const;

/** The totals in field 63, or null when a count or amount does not fit its width. */
export function totalsToField63(totals: HostTotalsV1): string | null {
  const count = (value: number) => String(value).padStart(FIELD63_TOTALS.count, '0');
  const amount = (value: string) => value.padStart(FIELD63_TOTALS.amount, '0');
  const text = count(totals.saleCount) + amount(totals.saleMinor) + count(totals.refundCount) + amount(totals.refundMinor);
  return text.length === 2 * (FIELD63_TOTALS.count + FIELD63_TOTALS.amount) ? text : null;
}

/** Totals from field 63 (its first 30 characters; hosts may append more); null when absent or not digits. */
export function totalsFromField63(value: string | undefined): HostTotalsV1 | null {
  const match = /^([0-9]{3})([0-9]{12})([0-9]{3})([0-9]{12})/.exec(value ?? '');
  if (!match) return null;
  return { saleCount: Number(match[1]), saleMinor: BigInt(match[2]).toString(), refundCount: Number(match[3]), refundMinor: BigInt(match[4]).toString() };
}

/** Field 97 (x+n16): the batch's net, `C` when sales are at least the refunds (the merchant is owed), `D` otherwise. */
export function netSettlementOf(totals: HostTotalsV1): string {
  const net = BigInt(totals.saleMinor) - BigInt(totals.refundMinor);
  return `${net >= 0n ? 'C' : 'D'}${(net >= 0n ? net : -net).toString().padStart(16, '0')}`;
}

/** The reconciliation fields of a settle (or its closing) 0500 under the format's rules (README.md, "Reconciliation"). */
export function reconciliationFields(
  rules: HostRules,
  request: { batchNo: string; currency: string; totals: HostTotalsV1 },
  localDate: string,
  closing: boolean,
): Record<number, string> | string {
  const fields: Record<number, string> = { 60: request.batchNo };
  if (rules.reconciliationLayout === 'acquirer') {
    if (closing) fields[3] = RECONCILIATION_CODE.UPLOAD_COMPLETE;
    Object.assign(fields, { 15: localDate, 50: request.currency, 97: netSettlementOf(request.totals) }, totalsToFields(request.totals));
    return fields;
  }
  fields[3] = closing ? RECONCILIATION_CODE.UPLOAD_COMPLETE : RECONCILIATION_CODE.SETTLEMENT;
  fields[49] = request.currency;
  if (rules.reconciliationTotals === 'fields74to89') return Object.assign(fields, totalsToFields(request.totals));
  const field63 = totalsToField63(request.totals);
  if (field63 === null) return `the totals do not fit field 63 (counts up to 999, amounts up to 12 digits)`;
  fields[63] = field63;
  return fields;
}

/** The host's totals in an answer to a 0500, where the format's layout puts them. */
export function hostTotalsOf(rules: HostRules, message: Iso8583Message): HostTotalsV1 | null {
  return rules.reconciliationLayout === 'terminal' && rules.reconciliationTotals === 'field63'
    ? totalsFromField63(textField(message, 63))
    : totalsFromFields(message);
}

/** Fields 74, 76, 86, 88 of a batch's totals. */
export function totalsToFields(totals: HostTotalsV1): Record<number, string> {
  return {
    [TOTALS_FIELD.creditsCount]: String(totals.refundCount).padStart(10, '0'),
    [TOTALS_FIELD.debitsCount]: String(totals.saleCount).padStart(10, '0'),
    [TOTALS_FIELD.creditsAmount]: totals.refundMinor.padStart(16, '0'),
    [TOTALS_FIELD.debitsAmount]: totals.saleMinor.padStart(16, '0'),
  };
}

/** Totals from fields 74, 76, 86, 88; null unless all four are present and numeric. */
export function totalsFromFields(message: Iso8583Message): HostTotalsV1 | null {
  const read = (number: number): string | null => {
    const value = textField(message, number);
    return value !== undefined && /^[0-9]+$/.test(value) ? value : null;
  };
  const credits = read(TOTALS_FIELD.creditsCount);
  const debits = read(TOTALS_FIELD.debitsCount);
  const creditsAmount = read(TOTALS_FIELD.creditsAmount);
  const debitsAmount = read(TOTALS_FIELD.debitsAmount);
  if (credits === null || debits === null || creditsAmount === null || debitsAmount === null) return null;
  return {
    saleCount: Number(debits),
    saleMinor: BigInt(debitsAmount).toString(),
    refundCount: Number(credits),
    refundMinor: BigInt(creditsAmount).toString(),
  };
}

/**
 * A field as text whatever its wire type (binary fields as uppercase hex), trailing pad spaces
 * removed; undefined when absent.
 */
export function textField(message: Iso8583Message, number: number): string | undefined {
  const value = message.fields[number];
  if (value === undefined) return undefined;
  return Buffer.isBuffer(value) ? value.toString('hex').toUpperCase() : value.replace(/ +$/, '');
}

/**
 * A value in the form the spec's field takes: text for character fields (a short fixed-length
 * value padded the way the codec would, so the message is what goes on the wire), bytes for `b`
 * fields (text given as hex), so the same mapping fits presets that type a field differently.
 */
export function fieldValue(spec: MessageSpec, number: number, value: string | Buffer): string | Buffer {
  const field = spec.fields.get(number);
  if (field === undefined) return value;
  if (!field.encoding.textual) return Buffer.isBuffer(value) ? value : Buffer.from(value, 'hex');
  const text = Buffer.isBuffer(value) ? value.toString('hex').toUpperCase() : value;
  if (field.spec.lengthType !== 'fixed' || text.length >= field.spec.length) return text;
  if (field.pad.side === 'left') return text.padStart(field.spec.length, field.pad.char);
  if (field.pad.side === 'right') return text.padEnd(field.spec.length, field.pad.char);
  return text;
}

/** The key a response is matched on: response MTI, STAN and TID. */
export function matchKey(responseMti: string, stan: string | undefined, tid: string | undefined): string {
  return `${responseMti}|${stan ?? ''}|${tid ?? ''}`;
}
