// class-transformer's @Type reads design-time metadata: the contract must load without Nest having loaded this first.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
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
  ValidateNested,
} from 'class-validator';
import { HOST_URL_PATTERN } from './host-address';
import { HOST_ACQUIRER_ID_PATTERN, HOST_MESSAGE_FORMATS, HOST_MID_PATTERN, HOST_MID_RULE, HOST_TID_PATTERN, HOST_TID_RULE, HostMessageFormat } from './host-formats';
import { IsIanaTimeZone, IsIsoCountry, NullableButPresent } from './validation';

/**
 * Payloads of the `host.*.v1` request/reply subjects (core NATS, queue group `host-connector`).
 * The caller (payment-gateway, transactions) names the acceptance's host format and address; the
 * host connector owns everything on the wire: STAN, RRN, transmission time, working keys and the
 * reversal queue. Every reply is a {@link HostResponseV1}, including refusals of the request itself.
 */

/** Patterns of the host contracts, shared with their hand-written decoders (fast-decode.ts). */
/** A host address: {@link HOST_URL_PATTERN} (any case of the scheme), what merchant-management stores and the gateway applies. */
export const HOST_CONN_URL_PATTERN = HOST_URL_PATTERN;
export const HOST_ACPT_ID_PATTERN = /^acpt_[A-Za-z0-9_-]{1,64}$/;
/** A request id, and a host's order id: 1 to 64 letters, digits, _ or -. */
export const HOST_REQUEST_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const HOST_MINOR_PATTERN = /^(0|[1-9][0-9]{0,11})$/;
export const HOST_TOTAL_MINOR_PATTERN = /^(0|[1-9][0-9]{0,15})$/;
export const HOST_ICC_RESPONSE_PATTERN = /^([0-9A-F]{2}){1,1024}$/;

/** Which host, and who we are to it. */
export class HostTargetV1 {
  @IsIn(HOST_MESSAGE_FORMATS)
  hostMessageFormat: HostMessageFormat;

  /**
   * The acquirer's address as merchant-management pushed it with the acceptance (the acquirer
   * profile's `connUrl`; never the acceptance's extraParams, which the gateway API writes):
   * `tcp://host:port` for the ISO family, `http(s)://…` for JSON. Null: the connector's
   * configured default for the format.
   */
  @NullableButPresent()
  @IsString()
  @MaxLength(512)
  @Matches(HOST_CONN_URL_PATTERN, { message: '$property must be a tcp:// or http(s):// URL' })
  connUrl: string | null;

  @IsString()
  @Matches(HOST_ACPT_ID_PATTERN, { message: '$property must look like acpt_<id>' })
  acptId: string;

  /** Card acceptor id (field 42): up to 15 characters. */
  @IsString()
  @Matches(HOST_MID_PATTERN, { message: `$property ${HOST_MID_RULE}` })
  mid: string;

  /** Card acceptor terminal id (field 41): up to 8 characters. */
  @IsString()
  @Matches(HOST_TID_PATTERN, { message: `$property ${HOST_TID_RULE}` })
  tid: string;

  /**
   * Acquiring institution id (field 32, up to 11 digits): the acceptance's `extraParams.acqInstId`
   * when it has one; absent, field 32 is not sent.
   */
  @IsOptional()
  @IsString()
  @Matches(HOST_ACQUIRER_ID_PATTERN, { message: '$property must be 1 to 11 digits' })
  acquirerId?: string;

  /**
   * The PBO (group) the terminal belongs to. The connector keeps working keys, sessions and
   * allow-list entries per group, so that one PBO signing on with another's MID/TID on a shared
   * host never replaces that PBO's key. Every caller sends it (the gateway, from the acceptance's
   * owner); optional only so that requests of older callers, and reversals they queued, still
   * decode: those are handled in the connector's legacy scope (docs/decisions.md, "Terminal
   * identities per PBO").
   */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  groupId?: string;
}

/**
 * The card acceptor as the host sees it: its time zone gives the local date and time (fields 12
 * and 13), the rest fields 18 (MCC), 19 (country) and 43 (name and location). Carried by every
 * request whose message has them (authorize, the follow-ups, settle).
 */
export class HostMerchantV1 {
  /** IANA time zone of the merchant (`Asia/Kuala_Lumpur`): fields 12/13 are its wall clock at transmission. */
  @IsString()
  @IsIanaTimeZone()
  timeZone: string;

  /** The merchant's name as the acquirer knows it (field 43, positions 1–25). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  name: string;

  /** Field 43 positions 26–38; null: blank. */
  @NullableButPresent()
  @IsString()
  @MaxLength(64)
  city: string | null;

  /** ISO 3166-1 alpha-2 (`MY`): field 43 positions 39–40, and its numeric code (458) in field 19. Null: neither is sent. */
  @NullableButPresent()
  @IsIsoCountry()
  country: string | null;

  /** ISO 18245 merchant category code (field 18); null: not sent. */
  @NullableButPresent()
  @IsString()
  @Matches(/^[0-9]{4}$/, { message: '$property must be a 4-digit merchant category code' })
  mcc: string | null;

  /** A payment facilitator's sub-merchant (the acceptance's `extraParams.subMchDba`): field 43 names it after the facilitator's prefix. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  subMerchantName?: string;
}

/** An amount in minor units (`1234` is 12.34 in a 2-decimal currency) and its ISO 4217 numeric currency. */
export class HostAmountV1 {
  @IsString()
  @Matches(HOST_MINOR_PATTERN, { message: '$property must be a whole number of minor units, at most 12 digits' })
  minor: string;

  @IsString()
  @Matches(/^[0-9]{3}$/, { message: '$property must be an ISO 4217 numeric currency code' })
  currency: string;
}

/** EMV TLV data in hex, as the SDK read it. */
const EMV_TLV_HEX = /^([0-9A-Fa-f]{2}){4,1024}$/;
/** A value sealed with the platform's field cipher (`v1.<iv>.<tag>.<ciphertext>`, base64url): what a caller sends over NATS. */
const SEALED_VALUE = /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{11,2731}$/;

/** {@link HostCardV1.emvTlv}: EMV TLV in hex, or sealed. */
export const HOST_CARD_EMV_TLV_PATTERN = new RegExp(`${EMV_TLV_HEX.source}|${SEALED_VALUE.source}`);

/** Whether a {@link HostCardV1.emvTlv} is sealed (else it is the EMV TLV itself, in hex). */
export function isSealedEmvTlv(emvTlv: string): boolean {
  return !EMV_TLV_HEX.test(emvTlv);
}

/**
 * Card data as the SDK read it: EMV BER-TLV in hex, holding tag 57 (track 2 equivalent) or 5A
 * (PAN), and 5F24 (expiry). On NATS it goes sealed (the platform's field cipher under
 * DATA_ENCRYPTION_KEY, which the gateway and the connector share), so that no message a
 * subscriber or a capture of the traffic sees holds the card number; the connector opens it.
 * The plain hex is still accepted (callers older than the sealing, the ISO benchmark).
 */
export class HostCardV1 {
  @IsString()
  @Matches(HOST_CARD_EMV_TLV_PATTERN, { message: '$property must be EMV TLV data in hex, or sealed' })
  emvTlv: string;

  @IsIn(['NFC'])
  entryMode: 'NFC';
}

/**
 * What an original transaction was, which gives a reversal its processing code and POS condition
 * (a reversal of a refund is a 20 like the refund): a sale or pre-authorisation (`host.authorize.v1`
 * with that kind), a capture, a refund, a void of a sale (or capture, or pre-authorisation), a void
 * of a refund.
 */
export const HOST_ORIGINAL_KINDS = ['SALE', 'PREAUTH', 'CAPTURE', 'REFUND', 'VOID', 'VOID_REFUND'] as const;
export type HostOriginalKindV1 = (typeof HOST_ORIGINAL_KINDS)[number];

/** A host order id as the connector names it (`<tid>-<MMDDhhmmss>-<stan>` for MPGS_AP). */
const ORDER_ID = HOST_REQUEST_ID_PATTERN;

/**
 * A retrieval reference number a follow-up can send back in field 37 (an 12): what the ISO reader
 * gives of it, the host's text without its trailing pad, so 1 to 12 letters, digits or spaces (hosts
 * pad, right-justify or space-separate it), not all spaces. A JSON host's longer reference does not
 * fit and is not sent (docs/decisions.md, "Follow-ups send the host's own references").
 */
export const HOST_RRN_PATTERN = /^(?=.*[A-Za-z0-9])[A-Za-z0-9 ]{1,12}$/;

/** An approval code a follow-up can send back in field 38 (an 6), as the reader keeps it: six letters, digits or spaces, not all spaces. */
export const HOST_APPROVAL_CODE_PATTERN = /^(?=.*[A-Za-z0-9])[A-Za-z0-9 ]{6}$/;

/** The host's references of an earlier transaction, for reversal, void, refund and capture. */
export class HostOriginalV1 {
  /**
   * What the original was. Absent (callers older than issue 16): a 0100 is read as a
   * pre-authorisation, a 0220 as a capture, anything else as a sale.
   */
  @IsOptional()
  @IsIn(HOST_ORIGINAL_KINDS)
  kind?: HostOriginalKindV1;

  @IsString()
  @Matches(/^[0-9]{4}$/)
  mti: string;

  @IsString()
  @Matches(/^[0-9]{6}$/, { message: '$property must be the 6-digit STAN' })
  stan: string;

  /** Transmission date and time as sent (field 7, MMDDhhmmss). */
  @IsString()
  @Matches(/^[0-9]{10}$/, { message: '$property must be MMDDhhmmss' })
  transmittedAt: string;

  /** The host's field 37 as read (its trailing pad cut; the dialect pads it again to send it back byte for byte). */
  @NullableButPresent()
  @IsString()
  @Matches(HOST_RRN_PATTERN, { message: '$property must be the RRN: 1 to 12 letters, digits or spaces, not all spaces' })
  rrn: string | null;

  @NullableButPresent()
  @IsString()
  @Matches(HOST_APPROVAL_CODE_PATTERN, { message: '$property must be the 6-character approval code' })
  approvalCode: string | null;

  /**
   * The host's order the original was filed under (its `HostResponseV1.orderId`), which formats
   * that file follow-ups under their authorisation (MPGS_AP) name in a follow-up or reversal of it:
   * for a capture or refund, the order its authorisation opened. Null when the original's reply had
   * none (another format, or nothing was answered); absent from callers older than issue 16, read
   * as the original's own reference (right when the original is the authorisation).
   */
  @IsOptional()
  @IsString()
  @Matches(ORDER_ID, { message: '$property must be 1 to 64 letters, digits, _ or -' })
  orderId?: string | null;

  /**
   * The acquiring institution id (field 32) the original was sent with, named in ISO field 90.4.
   * Absent: the follow-up's own `target.acquirerId` (the same acceptance sent both); neither: zeros.
   */
  @IsOptional()
  @IsString()
  @Matches(HOST_ACQUIRER_ID_PATTERN, { message: '$property must be 1 to 11 digits' })
  acquirerId?: string;
}

abstract class HostRequestBaseV1 {
  /** The caller's id of this request (idempotency and log correlation), e.g. the gateway's action id. */
  @IsString()
  @Matches(HOST_REQUEST_ID_PATTERN, { message: '$property must be 1 to 64 letters, digits, _ or -' })
  requestId: string;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => HostTargetV1)
  target: HostTargetV1;

  /** How long the connector may wait for the host; its configured default otherwise. */
  @IsOptional()
  @IsInt()
  @Min(100)
  @Max(60_000)
  timeoutMs?: number;
}

/** `host.authorize.v1`: SALE is 0200 with processing code 00 (captured), PREAUTH is 0100. */
export class HostAuthorizeRequestV1 extends HostRequestBaseV1 {
  @IsIn(['SALE', 'PREAUTH'])
  kind: 'SALE' | 'PREAUTH';

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => HostAmountV1)
  amount: HostAmountV1;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => HostCardV1)
  card: HostCardV1;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => HostMerchantV1)
  merchant: HostMerchantV1;
}

/**
 * `host.reverse.v1` (0400, 0420 for an advice; processing code of the original), `host.void.v1`
 * (ISO 8583: as the format's `host.voidAs` says, a reversal of the original by default),
 * `host.refund.v1` (0200, processing code 20), `host.capture.v1` (0220). The connector adds the
 * original's card as it kept it after authorisation (PAN, expiry, PAN sequence number; never
 * track 2 or chip data) when the format asks for it (`host.followUpCardData`): the caller never
 * sends card data on a follow-up.
 */
export class HostFollowUpRequestV1 extends HostRequestBaseV1 {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => HostAmountV1)
  amount: HostAmountV1;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => HostOriginalV1)
  original: HostOriginalV1;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => HostMerchantV1)
  merchant: HostMerchantV1;

  /**
   * A refund of all that is left to refund of its original (the gateway knows, the connector does
   * not): once the host approves it in full, nothing can follow the original up any more and the
   * connector deletes the card it kept for it at once. Absent or false (a part refund, callers
   * older than review r16c): the original's card stays for the next refund, until its expiry.
   */
  @IsOptional()
  @IsBoolean()
  finalRefund?: boolean;
}

/** Reconciliation totals of one batch (0500 field 74–97 family, simplified to counts and amounts). */
export class HostTotalsV1 {
  @IsInt()
  @Min(0)
  saleCount: number;

  @IsString()
  @Matches(HOST_TOTAL_MINOR_PATTERN)
  saleMinor: string;

  @IsInt()
  @Min(0)
  refundCount: number;

  @IsString()
  @Matches(HOST_TOTAL_MINOR_PATTERN)
  refundMinor: string;
}

/** The kinds of transaction a batch holds: sales and completions are debits, refunds credits. */
export const HOST_BATCH_KINDS = ['SALE', 'CAPTURE', 'REFUND'] as const;
export type HostBatchKindV1 = (typeof HOST_BATCH_KINDS)[number];

/** One approved transaction of a batch, as the host answered it: what a batch upload (0320) sends for it. */
export class HostBatchTransactionV1 {
  @IsIn(HOST_BATCH_KINDS)
  kind: HostBatchKindV1;

  /** The amount booked, in minor units of the batch's currency. */
  @IsString()
  @Matches(HOST_MINOR_PATTERN, { message: '$property must be a whole number of minor units, at most 12 digits' })
  amountMinor: string;

  /** The transaction's own message as the connector replied it (mti, stan, transmittedAt) and the host's rrn and approval code. */
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => HostOriginalV1)
  original: HostOriginalV1;
}

/** The most transactions a settle request may carry for a batch upload. */
export const HOST_BATCH_MAX_TRANSACTIONS = 999;

/**
 * `host.settle.v1`: 0500 reconciliation of a batch. When the host finds the totals out of balance
 * (95) and its format uploads batches, the connector sends `transactions` (an 0320 each) and
 * closes with a second 0500; without `transactions` (callers older than issue 16) there is
 * nothing to upload and the batch stays out of balance.
 */
export class HostSettleRequestV1 extends HostRequestBaseV1 {
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: '$property must be the 6-digit batch number' })
  batchNo: string;

  @IsString()
  @Matches(/^[0-9]{3}$/)
  currency: string;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => HostTotalsV1)
  totals: HostTotalsV1;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => HostMerchantV1)
  merchant: HostMerchantV1;

  /** The batch's transactions, for a batch upload should the host ask for one. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(HOST_BATCH_MAX_TRANSACTIONS)
  @ValidateNested({ each: true })
  @Type(() => HostBatchTransactionV1)
  transactions?: HostBatchTransactionV1[];
}

/** `host.signon.v1` (0800, field 70 = 001) and `host.echo.v1` (0800, field 70 = 301). */
export class HostNetworkRequestV1 extends HostRequestBaseV1 {}

/**
 * What became of the request:
 * - APPROVED / DECLINED: the host answered with a code its format counts as approval (ISO 8583:
 *   the spec's `host.approvalCodes`, by default 00, 08, 10, 11, 16; a reversal: its
 *   `reversalAcknowledgedCodes`, by default 00 and 94, a 94 only while no earlier attempt of the
 *   reversal was refused) or with another code. A partial approval is
 *   APPROVED with `partial` true and the `approvedAmount`;
 * - REVERSED: the host did not answer in time (or answered with no outcome that can be shown, an
 *   approval the merchant cannot be told of: `reversedFor`); the connector queued a reversal and
 *   keeps sending it until acknowledged;
 * - HOST_UNAVAILABLE: nothing was sent (no connection, host marked down, address not allowed);
 * - REJECTED: the request itself is invalid (bad payload, unknown format); `hostRespMessage` says why.
 */
export const HOST_RESULTS = ['APPROVED', 'DECLINED', 'REVERSED', 'HOST_UNAVAILABLE', 'REJECTED'] as const;

/** How a REVERSED reply's `hostRespMessage` ends (after why it was reversed): callers that say it their own way cut it off. */
export const REVERSAL_QUEUED_CLAUSE = '; a reversal is queued and repeated until the host acknowledges it';

/**
 * Why a REVERSED request was reversed: NO_ANSWER (no answer in time, or an unreadable one),
 * UNKNOWN_OUTCOME (the host answered, with a status or code its format's spec file says leaves the
 * outcome unknown: a JSON host's `unknownOutcomeStatuses`, e.g. POMELO `ERROR`, or `unknownOutcomeCodes`),
 * UNUSABLE_APPROVAL (the host approved an amount the merchant cannot be shown as taken: 0, more
 * than asked, in another currency, or a partial approval naming no amount).
 */
export const HOST_REVERSAL_CAUSES = ['NO_ANSWER', 'UNKNOWN_OUTCOME', 'UNUSABLE_APPROVAL'] as const;
export type HostReversalCauseV1 = (typeof HOST_REVERSAL_CAUSES)[number];
export type HostResultV1 = (typeof HOST_RESULTS)[number];

/**
 * How a reconciliation ended: BALANCED (the 0510 agreed, result APPROVED), BALANCED_AFTER_UPLOAD
 * (out of balance, batch uploaded, the closing 0510 agreed: APPROVED), OUT_OF_BALANCE (the host's
 * out-of-balance code and no upload, or an upload that failed or was not agreed: DECLINED).
 */
export const HOST_RECONCILIATIONS = ['BALANCED', 'BALANCED_AFTER_UPLOAD', 'OUT_OF_BALANCE'] as const;
export type HostReconciliationV1 = (typeof HOST_RECONCILIATIONS)[number];

/**
 * Where a reversal the connector owes a host stands: still being repeated, acknowledged by the host
 * (or, after checking with the acquirer, by an operator: `operatorNote`), or ABANDONED by an
 * operator who found with the acquirer that the host needs it no longer (docs/decisions.md, "An
 * operator ends a reversal the host keeps refusing").
 */
export const HOST_REVERSAL_STATES = ['PENDING', 'ACKNOWLEDGED', 'ABANDONED'] as const;
export type HostReversalState = (typeof HOST_REVERSAL_STATES)[number];

/**
 * What a reversal's acknowledgement does to the request it belongs to (docs/decisions.md, "A void
 * sent as a reversal, completed by its repeat"): UNDOES_REQUEST, the connector's own reversal of an
 * unanswered or unusable request (the host put back what it may have done); COMPLETES_REQUEST, the
 * queued repeat (0401) of a message that was itself the reversal (a caller's `host.reverse.v1`, a
 * void sent as a reversal under `host.voidAs`): its acknowledgement means the request is done (a
 * void: the original is voided). Absent: UNDOES_REQUEST (connectors before it).
 */
export const HOST_REVERSAL_EFFECTS = ['UNDOES_REQUEST', 'COMPLETES_REQUEST'] as const;
export type HostReversalEffect = (typeof HOST_REVERSAL_EFFECTS)[number];

/**
 * An operator's note on a reversal they ended: 1 to 200 characters, none a control character (C0,
 * DEL, C1), a format character (bidirectional overrides, zero-width ones), a line or paragraph
 * separator, or half a surrogate pair: what is shown is what was written (review r16f).
 */
export const OPERATOR_NOTE_PATTERN = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]{1,200}$/u;

/** Where a reversal stands: the part of {@link HostReversalUpdatedV1} the gateway shows on an action (`GatewayReversalV1`). */
export class HostReversalStateV1 {
  @IsIn(HOST_REVERSAL_STATES)
  state: HostReversalState;

  /** Attempts made so far, the first transmission included: 0 when just queued, 1 when queued already sent (a caller's reversal, a void sent as one). */
  @IsInt()
  @Min(0)
  attempts: number;

  /** The host's code to the last answered attempt (00 or 94 when acknowledged, 12, 25, 96… when refused); null while none was answered. */
  @NullableButPresent()
  @IsString()
  @Matches(/^[A-Za-z0-9]{1,4}$/, { message: '$property must be a host response code' })
  lastResponseCode: string | null;

  /** What its acknowledgement does to the request ({@link HOST_REVERSAL_EFFECTS}); absent: UNDOES_REQUEST. */
  @IsOptional()
  @IsIn(HOST_REVERSAL_EFFECTS)
  effect?: HostReversalEffect;

  /** Set when an operator ended the reversal (ACKNOWLEDGED or ABANDONED) instead of the host: what they recorded (what the acquirer said). */
  @IsOptional()
  @IsString()
  @Matches(OPERATOR_NOTE_PATTERN, { message: '$property must be 1 to 200 characters without control, format or separator characters' })
  operatorNote?: string;
}

/**
 * A reversal the connector queued (docs/decisions.md, "h15: the 201 of a reversed sale shows its
 * reversal"): its own id, when it was queued and where it stands. A REVERSED reply carries the one
 * queued for it, as `host.reversal.updated.v1` announces it, so the caller shows it at once.
 */
export class HostQueuedReversalV1 extends HostReversalStateV1 {
  /** The reversal's own id: a request may be reversed twice (a late approval after an acknowledged reversal). */
  @IsString()
  @Matches(/^[0-9a-f-]{36}$/, { message: '$property must be a UUID' })
  reversalId: string;

  /** When the reversal was queued (ISO 8601): of two reversals of one request, the later one is the one that stands. */
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}T/, { message: '$property must be an ISO 8601 instant' })
  queuedAt: string;
}

/**
 * Reply to every `host.*.v1` request. A class so the caller decodes it like any contract
 * (`decodeContract`): the connector is another process, and what comes back over NATS is data.
 */
export class HostResponseV1 {
  /** The request's id; empty when the request was refused before its id could be read. */
  @IsString()
  @MaxLength(64)
  requestId: string;

  @IsIn(HOST_RESULTS)
  result: HostResultV1;

  /** Field 39 (or the JSON host's code mapped to it); null when the host did not answer. */
  @NullableButPresent()
  @IsString()
  @Matches(/^[0-9A-Za-z]{2}$/, { message: '$property must be a 2-character response code' })
  hostRespCode: string | null;

  @IsString()
  hostRespMessage: string;

  /** What the connector sent, so follow-ups can reference it (null when nothing was sent). */
  @NullableButPresent()
  @IsString()
  @Matches(/^[0-9]{4}$/, { message: '$property must be a 4-digit MTI' })
  mti: string | null;

  @NullableButPresent()
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: '$property must be the 6-digit STAN' })
  stan: string | null;

  @NullableButPresent()
  @IsString()
  @Matches(/^[0-9]{10}$/, { message: '$property must be MMDDhhmmss' })
  transmittedAt: string | null;

  /** As the host gave them (a JSON host's reference may be longer than field 37). */
  @NullableButPresent()
  @IsString()
  rrn: string | null;

  @NullableButPresent()
  @IsString()
  approvalCode: string | null;

  /**
   * The host's order this request was filed under, for a format that files follow-ups under their
   * authorisation's order (MPGS_AP: the authorisation opens it, its captures, refunds, voids and
   * reversals go to it); a follow-up of this transaction names it as `HostOriginalV1.orderId`.
   * Null for other formats and when nothing was sent; absent from connectors older than issue 16.
   */
  @IsOptional()
  @IsString()
  @Matches(ORDER_ID, { message: '$property must be 1 to 64 letters, digits, _ or -' })
  orderId?: string | null;

  /**
   * Whether the host approved only part of the amount (ISO 8583 code 10): then `approvedAmount`
   * is what it approved, and only that was charged. Absent from replies of connectors older than
   * issue 16: read as false.
   */
  @IsOptional()
  @IsBoolean()
  partial?: boolean;

  /** On REVERSED: why (`HOST_REVERSAL_CAUSES`); absent on other results, and from older connectors: read as NO_ANSWER. */
  @IsOptional()
  @IsIn(HOST_REVERSAL_CAUSES)
  reversedFor?: HostReversalCauseV1;

  /**
   * On REVERSED: the reversal the connector queued for it, as it stood when the reply was sent (as
   * `host.reversal.updated.v1` announced it): PENDING with 0 attempts, or ACKNOWLEDGED by the
   * in-process MOCK host. Absent on other results, and from connectors before it (then the
   * reversal is known from its event alone).
   */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => HostQueuedReversalV1)
  reversal?: HostQueuedReversalV1;

  /** A partial approval's approved amount; null (or absent, from older connectors) on a full approval and on any other result. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => HostAmountV1)
  approvedAmount?: HostAmountV1 | null;

  /**
   * Field 55 of the answer as received, BER-TLV in hex (issuer authentication data 91, issuer
   * scripts 71/72), for the SDK to give the card; null when the answer had none (absent from
   * older connectors).
   */
  @IsOptional()
  @IsString()
  @Matches(HOST_ICC_RESPONSE_PATTERN, { message: '$property must be TLV data in uppercase hex' })
  iccResponse?: string | null;

  /** Sign-on: check value of the working key received (its first 6 hex digits); never the key. */
  @IsOptional()
  @IsString()
  @Matches(/^[0-9A-Fa-f]{6}$/, { message: '$property must be 6 hex digits' })
  keyCheckValue?: string;

  /** Settle: the host's own totals when it answered with them (after an upload, the closing answer's when it has them). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => HostTotalsV1)
  hostTotals?: HostTotalsV1;

  /** Settle: how the reconciliation ended, when the host answered it with 00 or its out-of-balance code; absent otherwise and from older connectors. */
  @IsOptional()
  @IsIn(HOST_RECONCILIATIONS)
  reconciliation?: HostReconciliationV1;

  /** Settle: how many transactions were uploaded (0320 answered 00) after an out-of-balance answer. */
  @IsOptional()
  @IsInt()
  @Min(0)
  uploadedCount?: number;

  /** Settle: the host's settlement date (field 15, MMDD) when its answer has one. */
  @IsOptional()
  @IsString()
  @Matches(/^[0-9]{4}$/, { message: '$property must be MMDD' })
  settlementDate?: string;
}

/**
 * `host.reversal.updated.v1` (host-connector → payment-gateway, through the connector's outbox):
 * a reversal of a request was queued, or one of its attempts ended (docs/decisions.md, "A reversal's
 * state reaches the transaction"). One per change, in order per reversal; `attempts` only grows.
 */
export class HostReversalUpdatedV1 extends HostQueuedReversalV1 {
  /** The reversed request's requestId (the gateway's action id). */
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: '$property must be 1 to 64 letters, digits, _ or -' })
  requestId: string;
}
