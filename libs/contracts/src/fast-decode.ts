import { isBoolean, isIn, isInt, isNotEmpty, isObject, max, maxLength, min } from 'class-validator';
import { HOST_ACQUIRER_ID_PATTERN, HOST_MESSAGE_FORMATS, HOST_MID_PATTERN, HOST_TID_PATTERN } from './host-formats';
import {
  HOST_ACPT_ID_PATTERN,
  HOST_CARD_EMV_TLV_PATTERN,
  HOST_CONN_URL_PATTERN,
  HOST_ICC_RESPONSE_PATTERN,
  HOST_MINOR_PATTERN,
  HOST_RECONCILIATIONS,
  HOST_REQUEST_ID_PATTERN,
  HOST_RESULTS,
  HOST_REVERSAL_CAUSES,
  HOST_REVERSAL_EFFECTS,
  HOST_REVERSAL_STATES,
  OPERATOR_NOTE_PATTERN,
  HOST_TOTAL_MINOR_PATTERN,
  HostAmountV1,
  HostAuthorizeRequestV1,
  HostCardV1,
  HostMerchantV1,
  HostQueuedReversalV1,
  HostResponseV1,
  HostTargetV1,
  HostTotalsV1,
} from './host.v1';
import { decodeContract, registerFastDecoder, unsafeShapeOf } from './decode-contract';
import {
  ACQUIRER_KEY_MAX_LENGTH,
  ACTION_ID_PATTERN,
  GATEWAY_ACTION_STATUSES,
  GATEWAY_ACTION_TYPES,
  GATEWAY_SETTLE_STATES,
  GATEWAY_TRAN_STATUSES,
  GATEWAY_TRAN_TYPES,
  GatewayActionV1,
  GatewayAmountV1,
  GatewayHostReferenceV1,
  GatewayReversalV1,
  GatewayTransactionUpdatedV1,
  GatewayTransactionV1,
  TRAN_ID_PATTERN,
} from './gateway-transaction.v1';
import { isIanaTimeZone, isIsoCountry, isIsoCurrency } from './iso-codes';
import { DECIMAL_AMOUNT_PATTERN } from './money';

/**
 * Hand-written decoders of hot contracts (docs/decisions.md, "A cheaper decode of
 * gateway.transaction.updated.v1"): the same rules as the contract's class-validator decorators
 * under {@link decodeContract}'s options, checked field by field without class-transformer's
 * copy and class-validator's metadata walk. A decoder answers the decoded instance or
 * {@link REFUSED}; it never says why: {@link decodeGatewayTransactionUpdatedV1} then asks
 * {@link decodeContract}, so a refusal (rare: a producer bug) is named in exactly its words.
 * `fast-decode.spec.ts` proves with generated payloads that both accept and refuse the same.
 */

/** What a decoder answers for a value its contract refuses. */
export const REFUSED: unique symbol = Symbol('refused');
type Decoded<T> = T | typeof REFUSED;
type FieldDecoder = (value: unknown) => unknown;

// The class-validator rules, as the decorators apply them (its own functions where one check is not obvious).
const string = (value: unknown): boolean => typeof value === 'string';
/** `@IsString() @MaxLength(n)`; class-validator counts a surrogate pair (and a variation selector) as one, so only a longer string needs its count. */
const text =
  (max: number): FieldDecoder =>
  (value) =>
    typeof value === 'string' && (value.length <= max || maxLength(value, max)) ? value : REFUSED;
/** `@IsString() @Matches(pattern)` (no pattern here has the g flag, so `test` is `match`). */
const matching =
  (pattern: RegExp): FieldDecoder =>
  (value) =>
    typeof value === 'string' && pattern.test(value) ? value : REFUSED;
const anyString: FieldDecoder = (value) => (string(value) ? value : REFUSED);
const oneOf =
  (values: readonly unknown[]): FieldDecoder =>
  (value) =>
    isIn(value, values as unknown[]) ? value : REFUSED;
const intAtLeast =
  (least: number): FieldDecoder =>
  (value) =>
    isInt(value) && min(value, least) ? value : REFUSED;
const intBetween =
  (least: number, most: number): FieldDecoder =>
  (value) =>
    isInt(value) && min(value, least) && max(value, most) ? value : REFUSED;
const boolean: FieldDecoder = (value) => (isBoolean(value) ? value : REFUSED);
const rule =
  (test: (value: unknown) => boolean): FieldDecoder =>
  (value) =>
    test(value) ? value : REFUSED;
const notEmptyText =
  (max: number): FieldDecoder =>
  (value) =>
    isNotEmpty(value) ? text(max)(value) : REFUSED;

/** `@NullableButPresent()`: null is kept, undefined (absent) runs the rules and fails them. */
const nullable =
  (decode: FieldDecoder): FieldDecoder =>
  (value) =>
    value === null ? null : decode(value);
/** `@IsOptional()`: null and absent skip the rules. */
const optional =
  (decode: FieldDecoder): FieldDecoder =>
  (value) =>
    value === null || value === undefined ? value : decode(value);

/**
 * `@IsObject()` without a class: kept as class-transformer copies it. {@link unsafeShapeOf} has
 * refused every key that names a member of all objects (`constructor`, `toString`, …), which
 * class-transformer would take for the class or drop.
 */
function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (const item of value) {
      const decoded = copyJson(item);
      if (decoded === REFUSED) return REFUSED;
      copy.push(decoded);
    }
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const decoded = copyJson((value as Record<string, unknown>)[key]);
    if (decoded === REFUSED) return REFUSED;
    copy[key] = decoded;
  }
  return copy;
}
const plainObject: FieldDecoder = (value) => (isObject(value) ? copyJson(value) : REFUSED);

/** The fields each hand-decoded class knows, by class: `fast-decode.spec.ts` holds them to the decorators' (a field added to a contract and not here would send every payload that has it to class-validator). */
const DECODED_FIELDS = new Map<abstract new () => object, readonly string[]>();

/** Every class a hand-written decoder builds, with the fields it knows (for fast-decode.spec.ts). */
export function handDecodedFields(): ReadonlyMap<abstract new () => object, readonly string[]> {
  return DECODED_FIELDS;
}

/**
 * `@IsObject() @ValidateNested() @Type(() => type)` (a plain object; arrays are not objects to
 * class-validator) with `forbidNonWhitelisted`: every field decoded, an unknown one refused
 * (prototype keys never get here: {@link unsafeShapeOf} refuses them).
 */

function instanceOf<T extends object>(type: abstract new () => T, fields: Record<string, FieldDecoder>): (value: unknown) => Decoded<T> {
  const names = Object.keys(fields);
  DECODED_FIELDS.set(type, names);
  const decoders = names.map((name) => fields[name]);
  const known = new Set(names);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return REFUSED;
    const source = value as Record<string, unknown>;
    for (const key in source) if (!known.has(key)) return REFUSED;
    const instance = Object.create(type.prototype) as Record<string, unknown>;
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      const field = Object.prototype.hasOwnProperty.call(source, name) ? source[name] : undefined;
      const decoded = decoders[i](field);
      if (decoded === REFUSED) return REFUSED;
      if (decoded !== undefined) instance[name] = decoded;
    }
    return instance as T;
  };
}

/** `@IsArray() @ArrayMaxSize(max) @IsObject({ each: true }) @ValidateNested({ each: true })`. */
const arrayOf =
  (max: number, decodeItem: (value: unknown) => unknown): FieldDecoder =>
  (value) => {
    if (!Array.isArray(value) || value.length > max) return REFUSED;
    const items: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = decodeItem(value[i]);
      if (item === REFUSED) return REFUSED;
      items[i] = item;
    }
    return items;
  };

const amount = instanceOf(GatewayAmountV1, { value: matching(DECIMAL_AMOUNT_PATTERN), currency: rule(isIsoCurrency) });

const hostReference = instanceOf(GatewayHostReferenceV1, {
  mti: matching(/^[0-9]{4}$/),
  stan: matching(/^[0-9]{6}$/),
  transmittedAt: matching(/^[0-9]{10}$/),
});

const reversal = instanceOf(GatewayReversalV1, {
  state: oneOf(HOST_REVERSAL_STATES),
  attempts: intAtLeast(0),
  lastResponseCode: nullable(matching(/^[A-Za-z0-9]{1,4}$/)),
  effect: optional(oneOf(HOST_REVERSAL_EFFECTS)),
  operatorNote: optional(matching(OPERATOR_NOTE_PATTERN)),
  notRecorded: optional(text(256)),
});

const action = instanceOf(GatewayActionV1, {
  actionId: matching(ACTION_ID_PATTERN),
  actionType: oneOf(GATEWAY_ACTION_TYPES),
  actionStatus: oneOf(GATEWAY_ACTION_STATUSES),
  trace: text(12),
  tranId: optional(text(80)),
  requestId: text(64),
  amount,
  reason: text(64),
  hostRespCode: nullable(text(8)),
  hostRespMessage: nullable(text(256)),
  rrn: nullable(text(64)),
  approvalCode: nullable(text(16)),
  hostReference: nullable(hostReference),
  posReference: nullable(text(256)),
  batchNo: optional(matching(/^[0-9]{6}$/)),
  extraData: optional(plainObject),
  reversal: optional(reversal),
  createdAt: anyString,
  updatedAt: nullable(anyString),
});

const transaction = instanceOf(GatewayTransactionV1, {
  tranId: matching(TRAN_ID_PATTERN),
  tranType: oneOf(GATEWAY_TRAN_TYPES),
  tranStatus: oneOf(GATEWAY_TRAN_STATUSES),
  amount,
  approvedAmount: nullable(amount),
  capturedAmount: matching(DECIMAL_AMOUNT_PATTERN),
  refundedAmount: matching(DECIMAL_AMOUNT_PATTERN),
  paymentMethod: text(16),
  entryMode: text(16),
  accountMasked: matching(/^[0-9]{6,8}\*+[0-9]{4}$/),
  accountBin: matching(/^[0-9]{6,8}$/),
  accountLast4: matching(/^[0-9]{4}$/),
  issCountryCode: nullable(matching(/^[0-9]{3}$/)),
  cvmPerformed: text(32),
  cvmSignatureUrl: nullable(text(1024)),
  aid: text(32),
  appName: nullable(text(32)),
  tc: text(32),
  tvr: text(16),
  tsi: nullable(text(8)),
  atc: text(8),
  profileId: text(80),
  acceptanceId: text(80),
  acceptanceName: optional(text(128)),
  timeZone: optional(rule(isIanaTimeZone)),
  sdkId: notEmptyText(64),
  posReference: nullable(text(256)),
  trace: text(12),
  description: nullable(text(512)),
  callbackUrl: nullable(text(2048)),
  merchantName: text(128),
  merchantAddr: nullable(text(512)),
  mcc: nullable(text(4)),
  primaryMid: text(32),
  primaryTid: text(32),
  subMid: nullable(text(32)),
  subTid: nullable(text(32)),
  hostMessageFormat: oneOf(HOST_MESSAGE_FORMATS),
  providerReference: nullable(text(128)),
  linkedTranId: nullable(text(80)),
  preferredAcceptanceTag: optional(text(64)),
  extraData: optional(plainObject),
  transStatusInfo: optional(text(256)),
  rrn: nullable(text(64)),
  approvalCode: nullable(text(16)),
  batchNo: nullable(matching(/^[0-9]{6}$/)),
  settleState: oneOf(GATEWAY_SETTLE_STATES),
  iccResponse: nullable(text(2048)),
  actions: arrayOf(1000, action),
  createdAt: anyString,
  updatedAt: nullable(anyString),
});

const transactionUpdated = instanceOf(GatewayTransactionUpdatedV1, {
  groupId: notEmptyText(64),
  merchantId: nullable(text(64)),
  version: intAtLeast(1),
  transaction,
  acquirerKey: optional(text(ACQUIRER_KEY_MAX_LENGTH)),
});

/**
 * `gateway.transaction.updated.v1` decoded by hand: the instance {@link decodeContract} would
 * answer, or {@link REFUSED} where it would throw. The payload's shape is checked first by the
 * same walk (depth, prototype keys, safe text).
 */
export function fastDecodeGatewayTransactionUpdatedV1(payload: unknown): Decoded<GatewayTransactionUpdatedV1> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return REFUSED;
  if (unsafeShapeOf(payload) !== undefined) return REFUSED;
  return transactionUpdated(payload);
}

/**
 * `decodeContract(GatewayTransactionUpdatedV1, payload)` at a fraction of its cost: the
 * hand-written decoder, and class-validator only for a payload it refuses, to name the reason
 * (the same {@link ContractViolationError}).
 */
export function decodeGatewayTransactionUpdatedV1(payload: unknown): GatewayTransactionUpdatedV1 {
  // decodeContract runs the hand-written decoder (registered below) after the same shape walk, and class-validator only for a payload it refuses.
  return decodeContract(GatewayTransactionUpdatedV1, payload);
}

// host.*.v1 (host.v1.ts): the authorisation request the connector decodes for every sale, and the
// reply the gateway decodes. Registered with decodeContract, which every NATS handler's pipe and
// the gateway's HostClient call: they get the hand-written decoder without naming it.

const hostTarget = instanceOf(HostTargetV1, {
  hostMessageFormat: oneOf(HOST_MESSAGE_FORMATS),
  connUrl: nullable((value) => (typeof value === 'string' && (value.length <= 512 || maxLength(value, 512)) && HOST_CONN_URL_PATTERN.test(value) ? value : REFUSED)),
  acptId: matching(HOST_ACPT_ID_PATTERN),
  mid: matching(HOST_MID_PATTERN),
  tid: matching(HOST_TID_PATTERN),
  acquirerId: optional(matching(HOST_ACQUIRER_ID_PATTERN)),
  groupId: optional(notEmptyText(64)),
});

const hostAmount = instanceOf(HostAmountV1, { minor: matching(HOST_MINOR_PATTERN), currency: matching(/^[0-9]{3}$/) });

const hostMerchant = instanceOf(HostMerchantV1, {
  timeZone: rule(isIanaTimeZone),
  name: notEmptyText(128),
  city: nullable(text(64)),
  country: nullable(rule(isIsoCountry)),
  mcc: nullable(matching(/^[0-9]{4}$/)),
  subMerchantName: optional(notEmptyText(128)),
});

const hostAuthorizeRequest = instanceOf(HostAuthorizeRequestV1, {
  requestId: matching(HOST_REQUEST_ID_PATTERN),
  target: hostTarget,
  timeoutMs: optional(intBetween(100, 60_000)),
  kind: oneOf(['SALE', 'PREAUTH']),
  amount: hostAmount,
  card: instanceOf(HostCardV1, { emvTlv: matching(HOST_CARD_EMV_TLV_PATTERN), entryMode: oneOf(['NFC']) }),
  merchant: hostMerchant,
});

const hostTotals = instanceOf(HostTotalsV1, {
  saleCount: intAtLeast(0),
  saleMinor: matching(HOST_TOTAL_MINOR_PATTERN),
  refundCount: intAtLeast(0),
  refundMinor: matching(HOST_TOTAL_MINOR_PATTERN),
});

const hostQueuedReversal = instanceOf(HostQueuedReversalV1, {
  state: oneOf(HOST_REVERSAL_STATES),
  attempts: intAtLeast(0),
  lastResponseCode: nullable(matching(/^[A-Za-z0-9]{1,4}$/)),
  effect: optional(oneOf(HOST_REVERSAL_EFFECTS)),
  operatorNote: optional(matching(OPERATOR_NOTE_PATTERN)),
  reversalId: matching(/^[0-9a-f-]{36}$/),
  queuedAt: matching(/^\d{4}-\d{2}-\d{2}T/),
});

const hostResponse = instanceOf(HostResponseV1, {
  requestId: text(64),
  result: oneOf(HOST_RESULTS),
  hostRespCode: nullable(matching(/^[0-9A-Za-z]{2}$/)),
  hostRespMessage: anyString,
  mti: nullable(matching(/^[0-9]{4}$/)),
  stan: nullable(matching(/^[0-9]{6}$/)),
  transmittedAt: nullable(matching(/^[0-9]{10}$/)),
  rrn: nullable(anyString),
  approvalCode: nullable(anyString),
  orderId: optional(matching(HOST_REQUEST_ID_PATTERN)),
  partial: optional(boolean),
  reversedFor: optional(oneOf(HOST_REVERSAL_CAUSES)),
  reversal: optional(hostQueuedReversal),
  approvedAmount: optional(hostAmount),
  iccResponse: optional(matching(HOST_ICC_RESPONSE_PATTERN)),
  keyCheckValue: optional(matching(/^[0-9A-Fa-f]{6}$/)),
  hostTotals: optional(hostTotals),
  reconciliation: optional(oneOf(HOST_RECONCILIATIONS)),
  uploadedCount: optional(intAtLeast(0)),
  settlementDate: optional(matching(/^[0-9]{4}$/)),
});

/** `host.authorize.v1`'s request decoded by hand: what {@link decodeContract} answers, or {@link REFUSED}; the payload's shape is checked first. */
export function fastDecodeHostAuthorizeRequestV1(payload: unknown): Decoded<HostAuthorizeRequestV1> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return REFUSED;
  if (unsafeShapeOf(payload) !== undefined) return REFUSED;
  return hostAuthorizeRequest(payload);
}

/** A `host.*.v1` reply decoded by hand: what {@link decodeContract} answers, or {@link REFUSED}; the payload's shape is checked first. */
export function fastDecodeHostResponseV1(payload: unknown): Decoded<HostResponseV1> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return REFUSED;
  if (unsafeShapeOf(payload) !== undefined) return REFUSED;
  return hostResponse(payload);
}

const orUndefined =
  <T>(decode: (value: unknown) => Decoded<T>) =>
  (payload: object): T | undefined => {
    const decoded = decode(payload);
    return decoded === REFUSED ? undefined : decoded;
  };
// gateway.transaction.updated.v1 too: the order consumer calls decodeGatewayTransactionUpdatedV1, and the gateway's webhook
// intake (a NATS handler typed with the contract) gets it through its pipe; it was class-validator there, for every event.
registerFastDecoder(GatewayTransactionUpdatedV1, orUndefined(transactionUpdated));
registerFastDecoder(HostAuthorizeRequestV1, orUndefined(hostAuthorizeRequest));
registerFastDecoder(HostResponseV1, orUndefined(hostResponse));
