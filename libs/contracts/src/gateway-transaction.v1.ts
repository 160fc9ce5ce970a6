// class-transformer's @Type reads design-time metadata: the contract must load without Nest having loaded this first.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { HOST_MESSAGE_FORMATS } from './host-formats';
import { HOST_RECONCILIATIONS, HostReconciliationV1, HostReversalStateV1 } from './host.v1';
import { DECIMAL_AMOUNT_PATTERN } from './money';
import { IsIanaTimeZone, IsIsoCurrency, NullableButPresent } from './validation';

/**
 * The longest acquirer key: how the gateway names the acquirer of a transaction and of a terminal
 * batch. `ref:` and merchant-management's acquirer profile id (the acceptance's `acquirerRef`: a
 * rename or an address edit of the profile keeps it), or, for an acceptance pushed before it
 * carried one, `name:` and the acceptance's name. Opaque to everyone but the gateway, which makes it.
 */
export const ACQUIRER_KEY_MAX_LENGTH = 140;

/**
 * The payment gateway's transactions as other contexts see them (`docs/decisions.md`,
 * "Money moves"). The gateway owns every Transaction and its Actions: it asks the host, applies
 * the money rules under row locks and publishes each change as {@link GatewayTransactionUpdatedV1}
 * through its outbox. transactions (the legacy order API) keeps a read model of those events and
 * asks the gateway to act with the `gateway.transaction.{void,refund,capture}.v1` and
 * `gateway.batch.settle.v1` requests.
 *
 * Amounts are decimal strings in the currency's ISO 4217 exponent (`"12.50"`), as spec 3 shows
 * them. No field ever carries card data beyond `accountMasked` / `accountBin` / `accountLast4`.
 */

export const GATEWAY_TRAN_TYPES = ['SALE', 'AUTH', 'CAPTURE', 'VOID', 'REFUND', 'REVERSAL'] as const;
export type GatewayTranType = (typeof GATEWAY_TRAN_TYPES)[number];
export const GATEWAY_TRAN_STATUSES = ['PENDING', 'APPROVED', 'DECLINED', 'REVERSED', 'VOIDED', 'REFUNDED', 'CLOSED'] as const;
export type GatewayTranStatus = (typeof GATEWAY_TRAN_STATUSES)[number];
export const GATEWAY_ACTION_TYPES = ['NEW', 'CAPTURE', 'VOID', 'REFUND', 'REVERSAL'] as const;
export type GatewayActionType = (typeof GATEWAY_ACTION_TYPES)[number];
export const GATEWAY_ACTION_STATUSES = ['PENDING', 'SUCCESS', 'FAILED'] as const;
export type GatewayActionStatus = (typeof GATEWAY_ACTION_STATUSES)[number];
/** Where a transaction stands in settlement: in the terminal's open batch, in a batch being settled, settled, or its settlement failed. */
export const GATEWAY_SETTLE_STATES = ['OPEN', 'SETTLING', 'SETTLED', 'SETTLE_FAILED'] as const;
export type GatewaySettleState = (typeof GATEWAY_SETTLE_STATES)[number];

export const TRAN_ID_PATTERN = /^tran_[A-Za-z0-9_-]{22}$/;
export const ACTION_ID_PATTERN = /^act_[A-Za-z0-9_-]{22}$/;

/** `{value: "12.50", currency: "MYR"}`: spec 3's amount. */
export class GatewayAmountV1 {
  @IsString()
  @Matches(DECIMAL_AMOUNT_PATTERN, { message: '$property must be a decimal amount such as 12.50' })
  value: string;

  @IsIsoCurrency()
  currency: string;
}

/** What the host connector sent for an action, so a follow-up or a batch upload can reference it. */
export class GatewayHostReferenceV1 {
  @IsString()
  @Matches(/^[0-9]{4}$/)
  mti: string;

  @IsString()
  @Matches(/^[0-9]{6}$/)
  stan: string;

  @IsString()
  @Matches(/^[0-9]{10}$/)
  transmittedAt: string;
}

/**
 * The host connector's reversal of what an action asked (a timeout, an approval it could not take,
 * a late approval): PENDING while the host has not acknowledged it (the acquirer may still hold the
 * money), ACKNOWLEDGED once it has.
 */
export class GatewayReversalV1 extends HostReversalStateV1 {
  /**
   * Set when the host acknowledged a repeat that completes the action (a void sent as a reversal)
   * but the gateway could not record it on the transaction (settled, or refunded, since): why. The
   * host has done it; an operator must reconcile it with the acquirer. Absent otherwise.
   */
  @IsOptional()
  @IsString()
  @MaxLength(256)
  notRecorded?: string;
}

/** What each field of a reversal means, as every API that shows one documents it (the gateway's transaction, the order of `/api/v2`). */
export const GATEWAY_REVERSAL_DOCS = {
  state:
    'PENDING: not yet acknowledged by the host (sent again until it is); ACKNOWLEDGED: the host acknowledged it (or an operator did, having checked with the acquirer: operatorNote), which undid the request (effect UNDOES_REQUEST) or completed it (COMPLETES_REQUEST: a void sent as a reversal is then done, the transaction VOIDED); ABANDONED: an operator stopped it, having found with the acquirer that it is not needed (a void sent as a reversal then did not take: the transaction stands)',
  attempts: 'attempts made so far, the first transmission included, whichever request it reverses: 0 when queued and not yet sent; a void sent as a reversal is queued at 1 (its 0400, the void itself, was the first)',
  lastResponseCode: "the host's code to the last answered attempt (00 or 94 once acknowledged; 12, 25, 96… when refused); null while none was answered",
  effect:
    "what the acknowledgement does to the action's request: UNDOES_REQUEST (the connector's reversal of a request not answered in time or not usable) or COMPLETES_REQUEST (the repeat of a void that went out as a reversal); absent: UNDOES_REQUEST",
  operatorNote: 'set when an operator ended the reversal instead of the host (ACKNOWLEDGED or ABANDONED): what they recorded',
  notRecorded:
    'set when the host acknowledged a repeat that completes this void but the transaction could no longer be voided here (its batch settled, or it was refunded since): why. The host has voided it; an operator must reconcile it with the acquirer',
} as const;

/** One action of a transaction (spec 3 Action): the first is NEW, then CAPTURE, VOID, REFUND, REVERSAL. */
export class GatewayActionV1 {
  @IsString()
  @Matches(ACTION_ID_PATTERN, { message: '$property must look like act_<22 characters>' })
  actionId: string;

  @IsIn(GATEWAY_ACTION_TYPES)
  actionType: GatewayActionType;

  @IsIn(GATEWAY_ACTION_STATUSES)
  actionStatus: GatewayActionStatus;

  /** The STAN the host saw (6 digits), or empty when nothing reached a host. */
  @IsString()
  @MaxLength(12)
  trace: string;

  /** The transaction the action belongs to (spec 3 Action; optional: producers before issue 13 left it out). */
  @IsOptional()
  @IsString()
  @MaxLength(80)
  tranId?: string;

  /**
   * Spec 3's request id: `req_…`, the service request that made the action. Actions stored
   * before that rule carry their `act_…` id (what the host connector was asked with): any string is read.
   */
  @IsString()
  @MaxLength(64)
  requestId: string;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayAmountV1)
  amount: GatewayAmountV1;

  /** `HostSuccess`, `HostDeclined`, `HostTimeout`, `HostOutcomeUnknown`, `HostApprovalReversed`, `HostUnavailable`, … */
  @IsString()
  @MaxLength(64)
  reason: string;

  @NullableButPresent()
  @IsString()
  @MaxLength(8)
  hostRespCode: string | null;

  @NullableButPresent()
  @IsString()
  @MaxLength(256)
  hostRespMessage: string | null;

  @NullableButPresent()
  @IsString()
  @MaxLength(64)
  rrn: string | null;

  @NullableButPresent()
  @IsString()
  @MaxLength(16)
  approvalCode: string | null;

  @NullableButPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayHostReferenceV1)
  hostReference: GatewayHostReferenceV1 | null;

  @NullableButPresent()
  @IsString()
  @MaxLength(256)
  posReference: string | null;

  /**
   * The terminal batch (6 digits) the action booked money in: a sale's approval, a capture or a
   * refund, each in the batch open when the host approved it (a refund after its sale's batch
   * closed books in the next one). Null for what books nothing (a pre-authorisation, a void, a
   * failure). Producers always send it; optional only so that payloads written before it still
   * decode (a consumer then falls back to the transaction's `batchNo`).
   */
  @IsOptional()
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: '$property must be a batch number of 6 digits' })
  batchNo?: string | null;

  /** Spec 3's free-form extraData of the action; null when none (optional: producers before issue 13 left it out). */
  @IsOptional()
  @IsObject()
  extraData?: Record<string, unknown> | null;

  /** The connector's reversal of this action's host request, as the connector last reported it; null when none (optional: producers before it left it out). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayReversalV1)
  reversal?: GatewayReversalV1 | null;

  @IsString()
  createdAt: string;

  @NullableButPresent()
  @IsString()
  updatedAt: string | null;
}

/**
 * A gateway Transaction (spec 3, every field) with the sums the money rules keep: what was
 * approved, captured and refunded so far. `sdkId` is the device that took it.
 */
export class GatewayTransactionV1 {
  @IsString()
  @Matches(TRAN_ID_PATTERN, { message: '$property must look like tran_<22 characters>' })
  tranId: string;

  @IsIn(GATEWAY_TRAN_TYPES)
  tranType: GatewayTranType;

  @IsIn(GATEWAY_TRAN_STATUSES)
  tranStatus: GatewayTranStatus;

  /** What was asked. */
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayAmountV1)
  amount: GatewayAmountV1;

  /** What the host approved (less than `amount` after a partial approval); null unless approved. */
  @NullableButPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayAmountV1)
  approvedAmount: GatewayAmountV1 | null;

  /** Of a SALE: the approved amount; of an AUTH: the sum of its captures. */
  @IsString()
  @Matches(DECIMAL_AMOUNT_PATTERN)
  capturedAmount: string;

  @IsString()
  @Matches(DECIMAL_AMOUNT_PATTERN)
  refundedAmount: string;

  @IsString()
  @MaxLength(16)
  paymentMethod: string;

  @IsString()
  @MaxLength(16)
  entryMode: string;

  @IsString()
  @Matches(/^[0-9]{6,8}\*+[0-9]{4}$/, { message: '$property must be BIN, stars and the last four digits' })
  accountMasked: string;

  @IsString()
  @Matches(/^[0-9]{6,8}$/)
  accountBin: string;

  @IsString()
  @Matches(/^[0-9]{4}$/)
  accountLast4: string;

  @NullableButPresent()
  @IsString()
  @Matches(/^[0-9]{3}$/)
  issCountryCode: string | null;

  @IsString()
  @MaxLength(32)
  cvmPerformed: string;

  @NullableButPresent()
  @IsString()
  @MaxLength(1024)
  cvmSignatureUrl: string | null;

  @IsString()
  @MaxLength(32)
  aid: string;

  @NullableButPresent()
  @IsString()
  @MaxLength(32)
  appName: string | null;

  @IsString()
  @MaxLength(32)
  tc: string;

  @IsString()
  @MaxLength(16)
  tvr: string;

  @NullableButPresent()
  @IsString()
  @MaxLength(8)
  tsi: string | null;

  @IsString()
  @MaxLength(8)
  atc: string;

  @IsString()
  @MaxLength(80)
  profileId: string;

  @IsString()
  @MaxLength(80)
  acceptanceId: string;

  /**
   * The acceptance's name when the transaction was taken: the acquirer profile's name in
   * merchant-management (spec 2's settlement `profileName`). Null for transactions from before
   * the gateway kept it; optional so that payloads written before it still decode.
   */
  @IsOptional()
  @IsString()
  @MaxLength(128)
  acceptanceName?: string | null;

  /**
   * The profile's IANA time zone when the transaction was taken (the merchant's, which
   * merchant-management pushes): a receipt prints the merchant's local time in it. Null when the
   * profile had none (UTC); optional so that payloads written before it still decode.
   */
  @IsOptional()
  @IsIanaTimeZone()
  timeZone?: string | null;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  sdkId: string;

  @NullableButPresent()
  @IsString()
  @MaxLength(256)
  posReference: string | null;

  @IsString()
  @MaxLength(12)
  trace: string;

  @NullableButPresent()
  @IsString()
  @MaxLength(512)
  description: string | null;

  @NullableButPresent()
  @IsString()
  @MaxLength(2048)
  callbackUrl: string | null;

  @IsString()
  @MaxLength(128)
  merchantName: string;

  @NullableButPresent()
  @IsString()
  @MaxLength(512)
  merchantAddr: string | null;

  @NullableButPresent()
  @IsString()
  @MaxLength(4)
  mcc: string | null;

  @IsString()
  @MaxLength(32)
  primaryMid: string;

  @IsString()
  @MaxLength(32)
  primaryTid: string;

  @NullableButPresent()
  @IsString()
  @MaxLength(32)
  subMid: string | null;

  @NullableButPresent()
  @IsString()
  @MaxLength(32)
  subTid: string | null;

  @IsIn(HOST_MESSAGE_FORMATS)
  hostMessageFormat: string;

  @NullableButPresent()
  @IsString()
  @MaxLength(128)
  providerReference: string | null;

  @NullableButPresent()
  @IsString()
  @MaxLength(80)
  linkedTranId: string | null;

  // Spec 3's remaining nullable fields; optional so that payloads written before them still decode.
  @IsOptional()
  @IsString()
  @MaxLength(64)
  preferredAcceptanceTag?: string | null;

  @IsOptional()
  @IsObject()
  extraData?: Record<string, unknown> | null;

  @IsOptional()
  @IsString()
  @MaxLength(256)
  transStatusInfo?: string | null;

  @NullableButPresent()
  @IsString()
  @MaxLength(64)
  rrn: string | null;

  @NullableButPresent()
  @IsString()
  @MaxLength(16)
  approvalCode: string | null;

  /** The terminal's batch the transaction is in (6 digits); null when it never reached a batch (declined, reversed). */
  @NullableButPresent()
  @IsString()
  @Matches(/^[0-9]{6}$/)
  batchNo: string | null;

  @IsIn(GATEWAY_SETTLE_STATES)
  settleState: GatewaySettleState;

  /** Field 55 of the approval (issuer authentication, scripts) for the SDK to give the card; null when none. */
  @NullableButPresent()
  @IsString()
  @MaxLength(2048)
  iccResponse: string | null;

  /** Each one an object: without `@IsObject({ each: true })` class-validator took `[[action]]` (it validates nested arrays through). */
  @IsArray()
  @ArrayMaxSize(1000)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => GatewayActionV1)
  actions: GatewayActionV1[];

  @IsString()
  createdAt: string;

  @NullableButPresent()
  @IsString()
  updatedAt: string | null;
}

/** The rules of a PBO's id (`groupId`) in the money contracts. */
export function IsPboId(): PropertyDecorator {
  return (target, key) => [IsString(), IsNotEmpty(), MaxLength(64)].forEach((rule) => rule(target, key));
}

/** The rules of a merchant-management merchant's id, null for profiles made through the gateway API. */
export function IsMerchantIdOrNull(): PropertyDecorator {
  return (target, key) => [NullableButPresent(), IsString(), MaxLength(64)].forEach((rule) => rule(target, key));
}

/** The PBO and merchant an event of money is about. */
export abstract class MerchantEventV1 {
  @IsPboId()
  groupId: string;

  /** The merchant-management merchant of the device (from its profile); null for profiles made through the gateway API. */
  @IsMerchantIdOrNull()
  merchantId: string | null;
}

/**
 * Payload of {@link GATEWAY_TRANSACTION_UPDATED_V1}: the whole transaction after a change, with a
 * version that grows with every change of that transaction, so a consumer keeps the highest and
 * drops stale or redelivered ones.
 */
export class GatewayTransactionUpdatedV1 extends MerchantEventV1 {
  @IsInt()
  @Min(1)
  version: number;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayTransactionV1)
  transaction: GatewayTransactionV1;

  /**
   * The acquirer the transaction was made at ({@link ACQUIRER_KEY_MAX_LENGTH}): with the group,
   * format, MID, TID and currency it names the terminal batch the transaction's money is in. Not a
   * field of the transaction as the API shows it (spec 3). Absent from events written before
   * batches were per acquirer.
   */
  @IsOptional()
  @IsString()
  @MaxLength(ACQUIRER_KEY_MAX_LENGTH)
  acquirerKey?: string;
}

/** `/api/v2`'s follow-up request id, `v2.<void|refund|capture>.<key>`, its key captured. */
const LEGACY_REQUEST_ID_SOURCE = 'v2\\.(?:void|refund|capture)\\.([A-Za-z0-9_-]{1,64})';

/** A follow-up's request id: a key as the gateway's route takes it, or one of `/api/v2`'s in its own namespace. */
export const FOLLOW_UP_REQUEST_ID_PATTERN = new RegExp(`^(?:[A-Za-z0-9_-]{1,80}|${LEGACY_REQUEST_ID_SOURCE})$`);

/** The namespace of `/api/v2`'s follow-up request ids at the gateway: `v2.<void|refund|capture>.<key>`. */
export const LEGACY_REQUEST_ID_PREFIX = 'v2.';

const LEGACY_REQUEST_ID = new RegExp(`^${LEGACY_REQUEST_ID_SOURCE}$`);

/**
 * The caller's Idempotency-Key inside an `/api/v2` request id (`v2.<kind>.<key>`), undefined for
 * any other id. One key is one request on a transaction whatever its kind, on both APIs: the
 * gateway answers a key reused for another kind 422, as on its own routes.
 */
export function legacyIdempotencyKeyOf(requestId: string | null | undefined): string | undefined {
  return requestId == null ? undefined : LEGACY_REQUEST_ID.exec(requestId)?.[1];
}

/** Who asks for a follow-up, and which transaction. */
abstract class GatewayTransactionRequestBaseV1 {
  /**
   * Idempotency: the same requestId for the same transaction answers the first outcome again.
   * Either 1 to 80 letters, digits, `_` or `-` (the gateway's own route sends its Idempotency-Key
   * as it is; ids of before, such as `refund-<key>`, stay valid), or `v2.<void|refund|capture>.<key>`
   * (the transactions context's `/api/v2` keys, a key of up to 64): the dots no key can contain keep
   * the two APIs' ids apart.
   */
  @IsString()
  @Matches(FOLLOW_UP_REQUEST_ID_PATTERN, { message: '$property must be 1 to 80 letters, digits, _ or -, or v2.<void|refund|capture>.<key>' })
  requestId: string;

  /** The PBO asking; the transaction must be its own. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  groupId: string;

  @IsString()
  @MaxLength(80)
  tranId: string;
}

/** `gateway.transaction.void.v1`: void the whole transaction (before settlement). */
export class GatewayVoidRequestV1 extends GatewayTransactionRequestBaseV1 {}

/** `gateway.transaction.refund.v1`: refund part or all of what was captured. */
export class GatewayRefundRequestV1 extends GatewayTransactionRequestBaseV1 {
  @IsString()
  @Matches(DECIMAL_AMOUNT_PATTERN, { message: '$property must be a decimal amount such as 12.50' })
  amount: string;

  @IsOptional()
  @IsString()
  @MaxLength(256)
  reason?: string;
}

/** `gateway.transaction.capture.v1`: capture an AUTH, at most its authorised amount; absent amount: all of it. */
export class GatewayCaptureRequestV1 extends GatewayTransactionRequestBaseV1 {
  @IsOptional()
  @IsString()
  @Matches(DECIMAL_AMOUNT_PATTERN, { message: '$property must be a decimal amount such as 12.50' })
  amount?: string;
}

/**
 * Why a request to the gateway was not done, as HTTP would say it: 400 invalid (amount, currency),
 * 403 another PBO's transaction, 404 unknown, 409 the money rules refuse it (state, sums,
 * settled, in flight), 502 the host declined or could not be reached, 504 it timed out (and was
 * reversed).
 */
export class GatewayRefusalV1 {
  @IsIn([400, 403, 404, 409, 422, 502, 504])
  status: 400 | 403 | 404 | 409 | 422 | 502 | 504;

  @IsString()
  @MaxLength(512)
  detail: string;

  /**
   * Seconds after which the same request may be done (HTTP relays it as `Retry-After`): set on a
   * 409 that will pass by itself, a terminal held by a settlement or requests still in flight
   * with the host; absent on every other refusal. Optional: producers before it left it out, and
   * a consumer that does not know it still reads the refusal.
   */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(86400)
  retryAfterSeconds?: number;
}

/**
 * Reply to a void, refund or capture: the transaction as it now is (also after a host decline,
 * which is recorded as a FAILED action), and a refusal when the action was not done.
 */
export class GatewayTransactionReplyV1 {
  @NullableButPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayTransactionV1)
  transaction: GatewayTransactionV1 | null;

  /**
   * The version of `transaction` (the one its {@link GatewayTransactionUpdatedV1} carries), so the
   * caller can apply the reply at once by the same rule as the event, whichever arrives first.
   * Required when `transaction` is present; null when it is not.
   */
  @ValidateIf((reply: GatewayTransactionReplyV1, value: unknown) => reply.transaction !== null || value !== null)
  @IsInt()
  @Min(1)
  version: number | null;

  /** The acquirer of `transaction`, as {@link GatewayTransactionUpdatedV1.acquirerKey} (absent with no transaction). */
  @IsOptional()
  @IsString()
  @MaxLength(ACQUIRER_KEY_MAX_LENGTH)
  acquirerKey?: string;

  /** The action this request made; null when it was refused before one was made. */
  @NullableButPresent()
  @IsString()
  @MaxLength(80)
  actionId: string | null;

  @NullableButPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayRefusalV1)
  refusal: GatewayRefusalV1 | null;
}

/**
 * A PBO's terminal batch as the gateway keys it: the acquirer, the terminal's MID, TID and currency
 * (the host format is the terminal's own) and the batch number. The settle request names a batch by it,
 * and `txn.batch.settled.v1` reports on one by it.
 */
export abstract class GatewayTerminalBatchV1 {
  @IsPboId()
  groupId: string;

  /**
   * The acquirer whose batch it is ({@link ACQUIRER_KEY_MAX_LENGTH}): one MID/TID may have a batch at
   * each of two acquirers. Absent or empty: the acquirer of the newest transaction of the terminal
   * the request names (requests and reports written before batches were per acquirer).
   */
  @IsOptional()
  @IsString()
  @MaxLength(ACQUIRER_KEY_MAX_LENGTH)
  acquirerKey?: string;

  @IsString()
  @MaxLength(32)
  mid: string;

  @IsString()
  @MaxLength(32)
  tid: string;

  @IsIsoCurrency()
  currency: string;

  /** The terminal's batch number, as the gateway and the acquirer know it. */
  @IsString()
  @Matches(/^[0-9]{6}$/)
  batchNo: string;
}

/**
 * `gateway.batch.settle.v1`: close a terminal's batch and reconcile it with its host. The gateway
 * owns the terminal's batch number: it closes the batch under the lock that voids take, so no
 * void or follow-up of the batch can race the settlement, totals it from its own transactions,
 * asks `host.settle.v1` and marks them SETTLED or SETTLE_FAILED.
 */
export class GatewayBatchSettleRequestV1 extends GatewayTerminalBatchV1 {
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: '$property must be 1 to 64 letters, digits, _ or -' })
  requestId: string;

  /** Any acceptance of the terminal names it (its MID and TID). */
  @IsString()
  @MaxLength(80)
  acceptanceId: string;
}

/** Counts and decimal amounts of a batch by kind (sales and captures are payments). */
export class GatewayBatchTotalsV1 {
  @IsInt()
  @Min(0)
  paymentCount: number;

  @IsString()
  @Matches(DECIMAL_AMOUNT_PATTERN)
  paymentAmount: string;

  @IsInt()
  @Min(0)
  refundCount: number;

  @IsString()
  @Matches(DECIMAL_AMOUNT_PATTERN)
  refundAmount: string;

  @IsInt()
  @Min(0)
  voidCount: number;

  @IsString()
  @Matches(DECIMAL_AMOUNT_PATTERN)
  voidAmount: string;
}

export const GATEWAY_BATCH_OUTCOMES = ['SETTLED', 'SETTLE_FAILED'] as const;
export type GatewayBatchOutcome = (typeof GATEWAY_BATCH_OUTCOMES)[number];

/** Reply to `gateway.batch.settle.v1`. */
export class GatewayBatchSettleReplyV1 {
  /** Null when refused (`refusal` says why); otherwise SETTLED (the host agreed) or SETTLE_FAILED. */
  @NullableButPresent()
  @IsIn(GATEWAY_BATCH_OUTCOMES)
  outcome: GatewayBatchOutcome | null;

  @NullableButPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayBatchTotalsV1)
  totals: GatewayBatchTotalsV1 | null;

  /** The host's own totals when it gave them (sales and refunds only). */
  @NullableButPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayBatchTotalsV1)
  hostTotals: GatewayBatchTotalsV1 | null;

  @NullableButPresent()
  @IsIn(HOST_RECONCILIATIONS)
  reconciliation: HostReconciliationV1 | null;

  @NullableButPresent()
  @IsString()
  @MaxLength(8)
  hostRespCode: string | null;

  @IsString()
  @MaxLength(512)
  hostRespMessage: string;

  /** The transactions the batch held, now SETTLED or SETTLE_FAILED. */
  @IsArray()
  @ArrayMaxSize(100_000)
  @IsString({ each: true })
  tranIds: string[];

  @NullableButPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayRefusalV1)
  refusal: GatewayRefusalV1 | null;
}
