import { bcdTrack2, ContentEncoding, EncodingName, encodings } from './encodings';
import { Iso8583Error, Iso8583ErrorCode } from './errors';
import { checkCharset, defaultPadding, FieldType, PadSide } from './field-type';
import { FrameHeaderSpec } from './framing';
import { LengthPrefix, lengthPrefix, LengthType, PrefixEncodingName } from './length-prefix';
import { NETWORK_HEADER_NAMES, NetworkHeaderName } from './network-header';
import { ISO_8583_1987, StandardField } from './standard-1987';

/** What a length prefix counts: the value's own units (characters, digits, bytes), or, for a `hex` field, the hex characters on the wire (two per byte). */
export type PrefixCounts = 'units' | 'hexChars';

/** One data element as written in a spec file. `length` is the fixed length or the maximum, in characters, digits or (for `b`) bytes. */
export interface FieldSpecJson {
  description: string;
  type: FieldType;
  length: number;
  lengthType: LengthType;
  encoding: EncodingName;
  /** Required unless `lengthType` is `fixed`. */
  prefixEncoding?: PrefixEncodingName;
  /** Default `units`; `hexChars` only for a variable `hex` field. */
  prefixCounts?: PrefixCounts;
  /** Overrides the type's default padding of short fixed values. */
  pad?: { side: PadSide; char?: string };
  /** `tlv`: the value (type `b`) must be well-formed BER-TLV, checked by pack and unpack (field 55). */
  format?: 'tlv';
}

/** The network framing of a spec file: length header, and whether a 5-byte TPDU follows it. */
export interface HeaderSpecJson {
  length: NetworkHeaderName;
  tpdu: boolean;
}

/** The first slice's header form; read as `{ length: 'binary2', tpdu: false }`. */
export interface LegacyHeaderSpecJson {
  type: 'binary-length';
  size: 2;
}

/** A message format as data: a JSON file per format (see `specs/` and the README). */
export interface MessageSpecJson {
  name: string;
  description?: string;
  mti: { encoding: 'ascii' | 'ebcdic' | 'bcd' };
  bitmap: { encoding: 'binary' | 'hex' };
  /** Network framing; absent means `{ length: 'binary2', tpdu: false }`. */
  header?: HeaderSpecJson | LegacyHeaderSpecJson;
  fields: Record<string, FieldSpecJson>;
  /** How the host of this format answers (approval and reversal codes); absent keys take the defaults of {@link DEFAULT_HOST_RULES}. */
  host?: HostSpecJson;
}

/**
 * The `host` section of a spec file: which response codes (field 39) mean what to this host. The
 * codec carries it for the host dialect, which reads answers with it.
 */
export interface HostSpecJson {
  /** Codes that approve a financial request (authorisation, void, refund, capture). Default `00 08 10 11 16`. */
  approvalCodes?: string[];
  /** The approval code for a partial approval, whose approved amount is in `partialAmountField`; null: the host never approves part. Default `10`. */
  partialApprovalCode?: string | null;
  /** The answer's field holding the approved amount of a partial approval. Default 4. */
  partialAmountField?: number;
  /** Codes of a 0410 that acknowledge a reversal (a code other than 00 only while no earlier attempt was refused); any other code leaves it open and retried. Default `00 94`. */
  reversalAcknowledgedCodes?: string[];
  /**
   * Refusals that say nothing of whether the host acted (a system fault, not a decision): a settle
   * does not take them as "the void sent as a reversal did not take". Default `09 19 22 28 68 90 91 92 96`;
   * may be empty; none may approve or acknowledge.
   */
  transientCodes?: string[];
  /** How the host issues the terminal's working key. Default `signOn`; see {@link WorkingKeyIssue}. */
  workingKey?: WorkingKeyIssue;
  /**
   * Network management code (field 70, n 3) of a key exchange 0800. Default `101` (ISO 8583:1987
   * "key change"); some hosts use another code of the 1xx or 8xx ranges (`161`, `811`).
   */
  keyExchangeCode?: string;
  /**
   * How a reconciliation (0500) is laid out. `terminal` (default): processing code 920000 (960000
   * closing a batch upload), currency in 49, batch number in 60, totals where
   * `reconciliationTotals` says. `acquirer`: settlement date 15, settlement currency 50, batch
   * number 60, totals in 74–89 and the net amount in 97.
   */
  reconciliationLayout?: ReconciliationLayout;
  /** Where a terminal-style 0500 and its answer carry the totals: fields 74–89 (default) or field 63 (sales and refunds, count n3 and amount n12 each). `acquirer` takes 74–89 only. */
  reconciliationTotals?: ReconciliationTotals;
  /** The 0510 code that says the totals disagree. Default `95`. */
  outOfBalanceCode?: string;
  /** Whether an out-of-balance answer starts a batch upload (an 0320 per transaction, then a closing 0500 with 960000). Default true. */
  batchUpload?: boolean;
  /**
   * How a void goes out: `reversal` (default), a 0400 (0420 for an advice) reversal of the
   * original with its processing code, as ISO 8583:1987 terminals void; `0200`, a financial
   * request with processing code 02 (void of a sale, capture or pre-authorisation) or 22 (void of
   * a refund), for hosts whose terminal specification asks for that.
   */
  voidAs?: VoidMessage;
  /**
   * Follow-ups that carry the original's card as the connector keeps it after authorisation
   * (fields 2, 14, 23 and 22 = `followUpEntryMode`; never 35, PCI DSS 3.3.1; 55 only on a chip
   * reversal, `reversalIcc`), which
   * card-present hosts match on. Default: all four. `batchupload` (not in the default) gives each
   * 0320 of a batch upload its transaction's kept card too, for hosts that want the PAN on it (the
   * card is kept until the batch is settled).
   */
  followUpCardData?: CardDataOperation[];
  /**
   * Field 22 of a follow-up built from the kept card (PAN and expiry, no chip or track data): the
   * card-not-present entry mode the host expects. Default `010` (01 PAN entered manually, 0 PIN
   * capability unspecified); `790` for hosts that want "key-entered after chip" (Visa 79), `012`
   * for a terminal without PIN entry.
   */
  followUpEntryMode?: string;
  /**
   * Whether the reversal of a chip sale or pre-authorisation (its 0400 and every 0401, and a void
   * sent as one) carries field 55: the original's chip data as sent (the cryptogram and what the
   * issuer checks it with), kept sealed with the card for that purpose, never track-equivalent or
   * cardholder data. Default true; false sends none (and keeps none).
   */
  reversalIcc?: boolean;
}

export type ReconciliationLayout = 'terminal' | 'acquirer';
export type ReconciliationTotals = 'fields74to89' | 'field63';

/**
 * How a host issues working keys (the `host` section's `workingKey`):
 * - `signOn`: an approved 0810 to sign-on may carry the key (field 48); when it carries none, the
 *   connector exchanges keys (0800, field 70 = 101) right after;
 * - `keyExchange`: sign-on never carries the key (field 48 of its 0810 is not read as one); every
 *   approved sign-on is followed by a key exchange;
 * - `none`: the host issues no working keys: sign-on stores none and no key is ever exchanged.
 */
export type WorkingKeyIssue = 'signOn' | 'keyExchange' | 'none';
export const WORKING_KEY_ISSUES: readonly WorkingKeyIssue[] = ['signOn', 'keyExchange', 'none'];

/** How a void is sent (`host.voidAs`). */
export type VoidMessage = 'reversal' | '0200';
export const VOID_MESSAGES: readonly VoidMessage[] = ['reversal', '0200'];
/** The follow-up operations of the host protocol. */
export type FollowUpOperation = 'reverse' | 'void' | 'refund' | 'capture';
export const FOLLOW_UP_OPERATIONS: readonly FollowUpOperation[] = ['reverse', 'void', 'refund', 'capture'];
/** What `host.followUpCardData` may name: the follow-ups, and the batch upload's 0320s. */
export type CardDataOperation = FollowUpOperation | 'batchupload';
export const CARD_DATA_OPERATIONS: readonly CardDataOperation[] = [...FOLLOW_UP_OPERATIONS, 'batchupload'];

/** The compiled `host` section: every key set. */
export interface HostRules {
  readonly approvalCodes: readonly string[];
  readonly partialApprovalCode: string | null;
  readonly partialAmountField: number;
  readonly reversalAcknowledgedCodes: readonly string[];
  readonly transientCodes: readonly string[];
  readonly workingKey: WorkingKeyIssue;
  readonly keyExchangeCode: string;
  readonly reconciliationLayout: ReconciliationLayout;
  readonly reconciliationTotals: ReconciliationTotals;
  readonly outOfBalanceCode: string;
  readonly batchUpload: boolean;
  readonly voidAs: VoidMessage;
  readonly followUpCardData: readonly CardDataOperation[];
  readonly followUpEntryMode: string;
  readonly reversalIcc: boolean;
}

/**
 * What a spec without a `host` section (or a key of it) means: ISO 8583:1987 approvals 00, 08, 10
 * (partial, amount in field 4), 11, 16; reversals acknowledged by 00 and 94; the working key on sign-on,
 * exchanged (0800, field 70 = 101) right after a sign-on that brought none; terminal-style reconciliation (920000, totals
 * in 74–89), out of balance 95, answered with a batch upload; a void is a reversal of the
 * original; every follow-up carries the original's kept card (PAN, expiry), entry mode 010; a chip
 * sale's or pre-authorisation's reversal carries its original's field 55 too.
 */
export const DEFAULT_HOST_RULES: HostRules = Object.freeze({
  approvalCodes: Object.freeze(['00', '08', '10', '11', '16']),
  partialApprovalCode: '10',
  partialAmountField: 4,
  reversalAcknowledgedCodes: Object.freeze(['00', '94']),
  // ISO 8583:1987: request in progress, re-enter transaction, suspected malfunction, file temporarily unavailable, response received too late,
  // cutoff in progress, issuer or switch inoperative, routing not found, system malfunction (review r16h: 09, 22, 28).
  transientCodes: Object.freeze(['09', '19', '22', '28', '68', '90', '91', '92', '96']),
  workingKey: 'signOn',
  keyExchangeCode: '101',
  reconciliationLayout: 'terminal',
  reconciliationTotals: 'fields74to89',
  outOfBalanceCode: '95',
  batchUpload: true,
  voidAs: 'reversal',
  followUpCardData: Object.freeze([...FOLLOW_UP_OPERATIONS]),
  followUpEntryMode: '010',
  reversalIcc: true,
});

const RECONCILIATION_LAYOUTS: readonly ReconciliationLayout[] = ['terminal', 'acquirer'];
const RECONCILIATION_TOTALS: readonly ReconciliationTotals[] = ['fields74to89', 'field63'];
/** The fields each reconciliation layout needs of the spec. */
const RECONCILIATION_FIELDS: Record<ReconciliationLayout | ReconciliationTotals, readonly number[]> = {
  terminal: [3, 49, 60],
  acquirer: [15, 50, 60, 97],
  fields74to89: [74, 76, 86, 88],
  field63: [63],
};

/** A field ready to use: its spec plus the encoder and length prefix it names. */
export interface CompiledField {
  readonly number: number;
  /** `field N`, the path its errors carry. */
  readonly path: string;
  readonly spec: FieldSpecJson;
  readonly encoding: ContentEncoding;
  readonly prefix: LengthPrefix;
  /** Length prefix value per unit of value: 1, or 2 when the prefix counts hex characters. */
  readonly prefixFactor: 1 | 2;
  readonly pad: { side: PadSide; char: string };
  /** Whether the value must be well-formed BER-TLV. */
  readonly tlv: boolean;
}

/** A checked spec, made by `compileSpec`; `pack`, `unpack` and `framerFor` take this. */
export interface MessageSpec {
  readonly name: string;
  readonly description?: string;
  readonly mtiEncoding: ContentEncoding;
  readonly bitmapEncoding: 'binary' | 'hex';
  /** Network framing (length header and TPDU); `framerFor(spec)` frames and deframes with it. */
  readonly header: FrameHeaderSpec;
  readonly fields: ReadonlyMap<number, CompiledField>;
  /** The same fields indexed by number (0 to 128), for the codec's hot path. */
  readonly fieldTable: ReadonlyArray<CompiledField | undefined>;
  /** The `host` section with its defaults applied. */
  readonly host: HostRules;
  /**
   * For each field the spec lacks (by number): its ISO 8583:1987 definition encoded like the
   * spec's own fields of that type, which `unpack` reads an answer's extra field with; or, when
   * the spec gives nothing to model it on, why it cannot be read. `undefined` for the spec's own
   * fields, 0, 1 and 65.
   */
  readonly standardFallback: ReadonlyArray<CompiledField | string | undefined>;
}

const FIELD_TYPES: readonly FieldType[] = ['n', 'an', 'ans', 'b', 'z'];
const LENGTH_TYPES: readonly LengthType[] = ['fixed', 'LL', 'LLL', 'LLLL'];
const PREFIX_ENCODINGS: readonly PrefixEncodingName[] = ['ascii', 'ebcdic', 'bcd', 'binary'];
const MAX_BY_LENGTH_TYPE: Record<LengthType, number> = { fixed: 65535, LL: 99, LLL: 999, LLLL: 9999 };
const SPEC_KEYS = ['name', 'description', 'mti', 'bitmap', 'header', 'fields', 'host'];
const HOST_KEYS = [
  'approvalCodes',
  'partialApprovalCode',
  'partialAmountField',
  'reversalAcknowledgedCodes',
  'transientCodes',
  'workingKey',
  'keyExchangeCode',
  'reconciliationLayout',
  'reconciliationTotals',
  'outOfBalanceCode',
  'batchUpload',
  'voidAs',
  'followUpCardData',
  'followUpEntryMode',
  'reversalIcc',
];
const RESPONSE_CODE = /^[0-9A-Za-z]{2}$/;
const FIELD_KEYS = ['description', 'type', 'length', 'lengthType', 'encoding', 'prefixEncoding', 'prefixCounts', 'pad', 'format'];
const DEFAULT_HEADER: FrameHeaderSpec = Object.freeze({ length: 'binary2', tpdu: false });

function specError(path: string, detail: string): Iso8583Error {
  return new Iso8583Error(Iso8583ErrorCode.BadSpec, path, -1, detail);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Refuses keys the format does not define, so a typo in an operator's file is an error, not a silent default. */
function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], path: string): void {
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) throw specError(path, `unknown key ${unknown.map((key) => `"${key}"`).join(', ')}`);
}

function compileField(number: number, raw: unknown): CompiledField {
  const path = `spec field ${number}`;
  if (!isRecord(raw)) throw specError(path, 'must be an object');
  onlyKeys(raw, FIELD_KEYS, path);
  const { type, length, lengthType, encoding, prefixEncoding, prefixCounts, pad, format } = raw as Partial<FieldSpecJson>;
  if (!FIELD_TYPES.includes(type as FieldType)) throw specError(path, `unknown type ${String(type)}`);
  if (!LENGTH_TYPES.includes(lengthType as LengthType)) throw specError(path, `unknown lengthType ${String(lengthType)}`);
  const fieldType = type as FieldType;
  const kind = lengthType as LengthType;
  const counts = prefixCounts ?? 'units';
  if (counts !== 'units' && counts !== 'hexChars') throw specError(path, `unknown prefixCounts ${String(counts)}`);
  const prefixFactor = counts === 'hexChars' ? 2 : 1;
  const maxLength = Math.floor(MAX_BY_LENGTH_TYPE[kind] / prefixFactor);
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 1 || length > maxLength) {
    throw specError(path, `length must be an integer from 1 to ${maxLength}`);
  }
  if (typeof encoding !== 'string' || !Object.prototype.hasOwnProperty.call(encodings, encoding)) throw specError(path, `unknown encoding ${String(encoding)}`);
  let contentEncoding = encodings[encoding];
  if ((fieldType === 'b') === contentEncoding.textual) throw specError(path, `encoding ${contentEncoding.name} does not fit type ${fieldType}`);
  if (contentEncoding.name === 'bcd' && fieldType !== 'n' && fieldType !== 'z') throw specError(path, 'BCD content is supported for n and z fields only');
  if (contentEncoding.name === 'bcd' && fieldType === 'z') contentEncoding = bcdTrack2;
  if (kind !== 'fixed' && !PREFIX_ENCODINGS.includes(prefixEncoding as PrefixEncodingName)) throw specError(path, 'a variable field needs a prefixEncoding');
  if (counts === 'hexChars' && (kind === 'fixed' || contentEncoding.name !== 'hex'))
    throw specError(path, 'prefixCounts hexChars needs a variable field with hex encoding');
  if (format !== undefined && format !== 'tlv') throw specError(path, `unknown format ${String(format)}`);
  if (format === 'tlv' && fieldType !== 'b') throw specError(path, 'format tlv needs a b field');
  if (pad !== undefined && (!isRecord(pad) || !['left', 'right', 'none'].includes(pad.side as string)))
    throw specError(path, 'pad.side must be left, right or none');
  const padding = pad === undefined ? defaultPadding(fieldType) : { side: pad.side, char: pad.char ?? '' };
  if (padding.side !== 'none' && (typeof padding.char !== 'string' || padding.char.length !== 1)) throw specError(path, 'padding needs exactly one character');
  if (padding.side !== 'none') checkCharset(fieldType, padding.char, path, -1);
  return {
    number,
    path: `field ${number}`,
    spec: raw as unknown as FieldSpecJson,
    encoding: contentEncoding,
    prefix: lengthPrefix(kind, (prefixEncoding ?? 'ascii') as PrefixEncodingName),
    prefixFactor,
    pad: padding,
    tlv: format === 'tlv',
  };
}

function compileHeader(raw: unknown): FrameHeaderSpec {
  if (raw === undefined) return DEFAULT_HEADER;
  if (!isRecord(raw)) throw specError('spec header', 'must be an object');
  if (raw.type === 'binary-length' && raw.size === 2 && Object.keys(raw).length === 2) return DEFAULT_HEADER;
  onlyKeys(raw, ['length', 'tpdu'], 'spec header');
  if (!NETWORK_HEADER_NAMES.includes(raw.length as NetworkHeaderName)) throw specError('spec header', `length must be ${NETWORK_HEADER_NAMES.join(', ')}`);
  if (typeof raw.tpdu !== 'boolean') throw specError('spec header', 'tpdu must be true or false');
  return Object.freeze({ length: raw.length as NetworkHeaderName, tpdu: raw.tpdu });
}

function responseCodes(raw: unknown, key: string, fallback: readonly string[]): readonly string[] {
  if (raw === undefined) return fallback;
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every((code) => typeof code === 'string' && RESPONSE_CODE.test(code)))
    throw specError(`spec host ${key}`, 'must be a non-empty list of 2-character response codes');
  return Object.freeze([...new Set(raw as string[])]);
}

function compileHost(raw: unknown, fields: ReadonlyMap<number, CompiledField>): HostRules {
  if (raw === undefined) return DEFAULT_HOST_RULES;
  if (!isRecord(raw)) throw specError('spec host', 'must be an object');
  onlyKeys(raw, HOST_KEYS, 'spec host');
  const json = raw as HostSpecJson;
  const approvalCodes = responseCodes(json.approvalCodes, 'approvalCodes', DEFAULT_HOST_RULES.approvalCodes);
  const reversalAcknowledgedCodes = responseCodes(json.reversalAcknowledgedCodes, 'reversalAcknowledgedCodes', DEFAULT_HOST_RULES.reversalAcknowledgedCodes);
  // 00 approves and acknowledges on every ISO 8583 host: a list without it would decline approved sales and retry acknowledged reversals for ever.
  if (!approvalCodes.includes('00')) throw specError('spec host approvalCodes', 'must include 00');
  if (!reversalAcknowledgedCodes.includes('00')) throw specError('spec host reversalAcknowledgedCodes', 'must include 00');
  const approvesOrAcknowledges = (code: string) => approvalCodes.includes(code) || reversalAcknowledgedCodes.includes(code);
  // The defaults a spec's own approval or acknowledging codes take over are not transient for it; a list the spec gives must not clash.
  const transientCodes =
    json.transientCodes === undefined
      ? Object.freeze(DEFAULT_HOST_RULES.transientCodes.filter((code) => !approvesOrAcknowledges(code)))
      : Array.isArray(json.transientCodes) && json.transientCodes.length === 0
        ? Object.freeze([] as string[])
        : Array.isArray(json.transientCodes)
          ? (() => {
              try {
                return responseCodes(json.transientCodes, 'transientCodes', DEFAULT_HOST_RULES.transientCodes);
              } catch {
                throw specError('spec host transientCodes', 'must be a list of 2-character response codes (may be empty)');
              }
            })()
          : (() => {
              throw specError('spec host transientCodes', 'must be a list of 2-character response codes (may be empty)');
            })();
  if (transientCodes.some(approvesOrAcknowledges)) throw specError('spec host transientCodes', 'must not hold an approval or acknowledging code');
  const partial = json.partialApprovalCode === undefined ? (approvalCodes.includes('10') ? DEFAULT_HOST_RULES.partialApprovalCode : null) : json.partialApprovalCode;
  if (partial !== null && (typeof partial !== 'string' || !approvalCodes.includes(partial)))
    throw specError('spec host partialApprovalCode', 'must be null or one of the approvalCodes');
  const amountField = json.partialAmountField ?? DEFAULT_HOST_RULES.partialAmountField;
  const amountSpec = typeof amountField === 'number' ? fields.get(amountField)?.spec : undefined;
  // An amount field (4, 5, 6: n 12 fixed); another would never read as an amount (54's structured
  // entries), or could be the PAN (2).
  if (amountSpec === undefined || amountSpec.type !== 'n' || amountSpec.lengthType !== 'fixed' || amountSpec.length !== 12)
    throw specError('spec host partialAmountField', 'must be an amount field the spec defines (n 12, fixed: 4, 5 or 6)');
  const workingKey = json.workingKey === undefined ? DEFAULT_HOST_RULES.workingKey : json.workingKey;
  if (!WORKING_KEY_ISSUES.includes(workingKey)) throw specError('spec host workingKey', `must be ${WORKING_KEY_ISSUES.join(', ')}`);
  const keyExchangeCode = json.keyExchangeCode ?? DEFAULT_HOST_RULES.keyExchangeCode;
  // Not a sign-on (001), sign-off (002) or echo (301): the host would read the exchange as one of those.
  if (typeof keyExchangeCode !== 'string' || !/^[0-9]{3}$/.test(keyExchangeCode) || ['001', '002', '301'].includes(keyExchangeCode))
    throw specError('spec host keyExchangeCode', 'must be 3 digits, other than 001, 002 and 301');
  const voidAs = json.voidAs ?? DEFAULT_HOST_RULES.voidAs;
  if (!VOID_MESSAGES.includes(voidAs)) throw specError('spec host voidAs', `must be ${VOID_MESSAGES.join(' or ')}`);
  const cardData = json.followUpCardData ?? DEFAULT_HOST_RULES.followUpCardData;
  if (!Array.isArray(cardData) || !cardData.every((operation) => CARD_DATA_OPERATIONS.includes(operation)))
    throw specError('spec host followUpCardData', `must be a list of ${CARD_DATA_OPERATIONS.join(', ')}`);
  const followUpEntryMode = json.followUpEntryMode ?? DEFAULT_HOST_RULES.followUpEntryMode;
  if (typeof followUpEntryMode !== 'string' || !/^[0-9]{3}$/.test(followUpEntryMode))
    throw specError('spec host followUpEntryMode', 'must be 3 digits (field 22)');
  const reversalIcc = json.reversalIcc === undefined ? DEFAULT_HOST_RULES.reversalIcc : json.reversalIcc;
  if (typeof reversalIcc !== 'boolean') throw specError('spec host reversalIcc', 'must be true or false');
  return Object.freeze({
    approvalCodes,
    partialApprovalCode: partial,
    partialAmountField: amountField,
    reversalAcknowledgedCodes,
    transientCodes,
    workingKey,
    keyExchangeCode,
    voidAs,
    followUpCardData: Object.freeze([...new Set(cardData)]),
    followUpEntryMode,
    reversalIcc,
    ...compileReconciliation(json, fields),
  });
}

function compileReconciliation(
  json: HostSpecJson,
  fields: ReadonlyMap<number, CompiledField>,
): Pick<HostRules, 'reconciliationLayout' | 'reconciliationTotals' | 'outOfBalanceCode' | 'batchUpload'> {
  const layout = json.reconciliationLayout ?? DEFAULT_HOST_RULES.reconciliationLayout;
  if (!RECONCILIATION_LAYOUTS.includes(layout)) throw specError('spec host reconciliationLayout', `must be ${RECONCILIATION_LAYOUTS.join(' or ')}`);
  const totals = json.reconciliationTotals ?? DEFAULT_HOST_RULES.reconciliationTotals;
  if (!RECONCILIATION_TOTALS.includes(totals)) throw specError('spec host reconciliationTotals', `must be ${RECONCILIATION_TOTALS.join(' or ')}`);
  if (layout === 'acquirer' && totals !== 'fields74to89')
    throw specError('spec host reconciliationTotals', 'an acquirer-style reconciliation carries its totals in fields74to89');
  const outOfBalanceCode = json.outOfBalanceCode ?? DEFAULT_HOST_RULES.outOfBalanceCode;
  if (typeof outOfBalanceCode !== 'string' || !RESPONSE_CODE.test(outOfBalanceCode) || outOfBalanceCode === '00')
    throw specError('spec host outOfBalanceCode', 'must be a 2-character response code other than 00');
  const batchUpload = json.batchUpload ?? DEFAULT_HOST_RULES.batchUpload;
  if (typeof batchUpload !== 'boolean') throw specError('spec host batchUpload', 'must be true or false');
  // Checked when the file speaks of reconciliation; otherwise a spec without the fields refuses settle when it is built.
  const named = json.reconciliationLayout !== undefined || json.reconciliationTotals !== undefined || json.batchUpload !== undefined;
  const missing = !named
    ? []
    : [...RECONCILIATION_FIELDS[layout], ...RECONCILIATION_FIELDS[totals], ...(batchUpload ? [3, 4, 90] : [])].filter((number) => !fields.has(number));
  if (missing.length > 0)
    throw specError(
      'spec host reconciliationLayout',
      `a ${layout}-style reconciliation${batchUpload ? ' with batch upload' : ''} needs field ${[...new Set(missing)].join(', ')} in the spec`,
    );
  return { reconciliationLayout: layout, reconciliationTotals: totals, outOfBalanceCode, batchUpload };
}

/** Checks a spec (usually parsed JSON) and prepares its encoders; throws `Iso8583Error` (BAD_SPEC) on any inconsistency. */
export function compileSpec(raw: unknown): MessageSpec {
  if (!isRecord(raw)) throw specError('spec', 'must be an object');
  onlyKeys(raw, SPEC_KEYS, 'spec');
  const json = raw as Partial<MessageSpecJson>;
  if (typeof json.name !== 'string' || json.name === '') throw specError('spec', 'needs a name');
  if (json.description !== undefined && typeof json.description !== 'string') throw specError('spec', 'description must be text');
  const mtiEncoding = json.mti?.encoding;
  if (mtiEncoding !== 'ascii' && mtiEncoding !== 'ebcdic' && mtiEncoding !== 'bcd') throw specError('spec mti', 'encoding must be ascii, ebcdic or bcd');
  const bitmapEncoding = json.bitmap?.encoding;
  if (bitmapEncoding !== 'binary' && bitmapEncoding !== 'hex') throw specError('spec bitmap', 'encoding must be binary or hex');
  const header = compileHeader(json.header);
  if (!isRecord(json.fields)) throw specError('spec fields', 'must be an object');
  const fields = new Map<number, CompiledField>();
  const fieldTable: Array<CompiledField | undefined> = new Array<CompiledField | undefined>(129).fill(undefined);
  for (const [key, value] of Object.entries(json.fields)) {
    const number = Number(key);
    if (!/^[0-9]+$/.test(key) || number < 2 || number > 128 || number === 65)
      throw specError(`spec field ${key}`, 'field numbers run from 2 to 128 (1 and 65 are bitmaps)');
    const field = compileField(number, value);
    fields.set(number, field);
    fieldTable[number] = field;
  }
  const sorted = new Map([...fields].sort(([a], [b]) => a - b));
  return {
    name: json.name,
    ...(json.description === undefined ? {} : { description: json.description }),
    mtiEncoding: encodings[mtiEncoding],
    bitmapEncoding,
    header,
    fields: sorted,
    fieldTable,
    host: compileHost(json.host, fields),
    standardFallback: ISO_8583_1987.map((standard) =>
      standard === undefined || fieldTable[standard.number] !== undefined
        ? undefined
        : standardFallbackField(json.name as string, standard, [...sorted.values()]),
    ),
  };
}

/** Types whose encoding a fallback field of `type` may borrow, best first: an/ans text alike, track data like digits. */
const KIN: Record<FieldType, readonly FieldType[]> = { n: ['n'], z: ['z', 'n'], an: ['ans', 'an'], ans: ['ans', 'an'], b: ['b'] };

/**
 * A field the spec lacks, compiled from its ISO 8583:1987 definition and encoded like the
 * spec's own fields: content encoding from the first field of the same type (or its kin),
 * length prefix encoding from the first variable field of that type with the same length type,
 * else of that type, else any variable text field. Returns why not when the spec has no such
 * field to model it on.
 */
function standardFallbackField(specName: string, standard: StandardField, own: readonly CompiledField[]): CompiledField | string {
  const { number, type, lengthType, length } = standard;
  const kin = KIN[type];
  const ofKin = own.filter((field) => kin.includes(field.spec.type)).sort((a, b) => kin.indexOf(a.spec.type) - kin.indexOf(b.spec.type));
  const content = ofKin[0];
  if (content === undefined) return `and has no ${type} field to read its ISO 8583:1987 definition like`;
  let prefixEncoding: PrefixEncodingName | undefined;
  if (lengthType !== 'fixed') {
    const variable = (fields: readonly CompiledField[]) => fields.filter((field) => field.spec.lengthType !== 'fixed' && field.prefixFactor === 1);
    const donor =
      variable(ofKin).find((field) => field.spec.lengthType === lengthType) ??
      variable(ofKin)[0] ??
      variable(own.filter((field) => field.spec.type !== 'b'))[0];
    if (donor === undefined) return `and has no variable field to read the length of its ISO 8583:1987 definition like`;
    prefixEncoding = donor.spec.prefixEncoding;
  }
  try {
    const field = compileField(number, {
      description: `${standard.description} (ISO 8583:1987; not in the ${specName} spec)`,
      type,
      length,
      lengthType,
      encoding: content.spec.encoding,
      ...(prefixEncoding === undefined ? {} : { prefixEncoding }),
    });
    return { ...field, path: `field ${number} (not in the ${specName} spec, read as ISO 8583:1987 defines it)` };
  } catch (error) {
    return `and its ISO 8583:1987 definition does not fit: ${error instanceof Error ? error.message : String(error)}`;
  }
}
