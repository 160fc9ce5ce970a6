import type {
  GatewayActionStatus,
  GatewayActionType,
  GatewaySettleState,
  GatewayTranStatus,
  GatewayTranType,
  HostAuthorizeRequestV1,
  HostFollowUpRequestV1,
  HostReversalEffect,
  HostReversalState,
} from '@app/contracts';

/**
 * A gateway transaction as the services see it (the entity implements it): spec 3's fields, the
 * sums the money rules keep in minor units of `currency` (strings: never through a float), and
 * the version of its last published change. Card data is the masked account only.
 */
export interface Transaction {
  /** `tran_` + 22 url-safe characters. */
  id: string;
  groupId: string;
  /** merchant-management's merchant of the profile; null for profiles made through the gateway API. */
  merchantId: string | null;
  profileId: string;
  acceptanceId: string;
  /** The acceptance's name when the sale was taken (the acquirer profile's name in merchant-management); null for transactions from before it was kept. */
  acceptanceName: string | null;
  /** The profile's IANA time zone when the sale was taken (the merchant's local time); null when the profile has none (UTC). */
  timeZone: string | null;
  /** The device that took it (its token's subject). */
  sdkId: string;
  tranType: GatewayTranType;
  tranStatus: GatewayTranStatus;
  /** ISO 4217 alpha. */
  currency: string;
  /** What was asked. */
  amountMinor: string;
  /** What the host approved (less than asked after a partial approval); null unless approved. */
  approvedMinor: string | null;
  capturedMinor: string;
  refundedMinor: string;
  paymentMethod: string;
  entryMode: string;
  accountMasked: string;
  accountBin: string;
  accountLast4: string;
  /** Issuer country (5F28) as an ISO 3166 numeric code; null when absent or not one. */
  issCountryCode: string | null;
  cvmPerformed: string;
  cvmSignatureUrl: string | null;
  /** AID, hex upper case: 4F, else 9F06. */
  aid: string;
  /** Application label (50), else preferred name (9F12), printable characters only; null when neither. */
  appName: string | null;
  /** Application cryptogram (9F26), hex. */
  tc: string;
  /** Terminal verification results (95), hex. */
  tvr: string;
  /** Transaction status information (9B), hex; null when absent. */
  tsi: string | null;
  /** Application transaction counter (9F36), hex. */
  atc: string;
  /**
   * The card read's keyed digest (card, ATC, cryptogram; {@link cardReadDigest}) of a sale or an
   * authorisation, unique platform-wide; absent on other rows and on those stored before it was kept.
   */
  cardRead?: string | null;
  posReference: string | null;
  /** The STAN of the host's answer to the first action; empty while none. */
  trace: string;
  description: string | null;
  callbackUrl: string | null;
  merchantName: string;
  merchantAddr: string | null;
  mcc: string | null;
  primaryMid: string;
  primaryTid: string;
  subMid: string | null;
  subTid: string | null;
  hostMessageFormat: string;
  /** The acquirer it was made at ({@link acquirerKeyOf}): its terminal's batches are that acquirer's. */
  acquirerKey: string;
  providerReference: string | null;
  linkedTranId: string | null;
  preferredAcceptanceTag: string | null;
  extraData: Record<string, unknown> | null;
  transStatusInfo: string | null;
  rrn: string | null;
  approvalCode: string | null;
  /** The terminal batch (6 digits) an approved transaction went into; null otherwise. */
  batchNo: string | null;
  settleState: GatewaySettleState;
  iccResponse: string | null;
  /** The version of the last `gateway.transaction.updated.v1` written for it (1: none yet). */
  version: number;
  createdAt: Date;
  updatedAt: Date | null;
}

/**
 * The host request of an action without its card data: what the gateway keeps so that an action
 * whose outcome is unknown can be asked again under the same requestId (docs/decisions.md,
 * "Gateway transactions (issue 13)").
 */
export type KeptHostRequest = Omit<HostAuthorizeRequestV1, 'card'>;

/**
 * What an action's host request is kept as: a sale's without its card data, a follow-up's whole
 * (it carries no card data: the connector adds the original's when its format needs it).
 */
export type KeptActionRequest = KeptHostRequest | HostFollowUpRequestV1;

/** Whether a kept request is an authorisation's (a NEW action's), not a follow-up's. */
export function isKeptAuthorization(request: KeptActionRequest): request is KeptHostRequest {
  return !('original' in request);
}

/** What the gateway keeps of a connector reversal: which one (a request may be reversed twice), where it stands, when it was queued. */
export interface ActionReversal {
  reversalId: string;
  state: HostReversalState;
  attempts: number;
  lastResponseCode: string | null;
  queuedAt: string;
  /** What its acknowledgement does to the action's request (`host.reversal.updated.v1` `effect`); absent: UNDOES_REQUEST. */
  effect?: HostReversalEffect;
  /** Ended by an operator (ACKNOWLEDGED or ABANDONED) instead of the host: their note. */
  operatorNote?: string;
  /** Acknowledged as completing the action, but the transaction could no longer take it (settled, refunded): why. */
  notRecorded?: string;
}

/** One action of a transaction (spec 3 Action): the NEW one first, then follow-ups. */
export interface TransactionAction {
  /** `act_` + 22 url-safe characters; also the requestId the host connector was asked with (`hostRequest.requestId`). */
  id: string;
  tranId: string;
  actionType: GatewayActionType;
  actionStatus: GatewayActionStatus;
  /**
   * Spec 3's `requestId`: `req_` + 22 url-safe characters, the service request that made the
   * action (its `x-service-request-id` over HTTP; a new one for a NATS request). Actions stored
   * before it was so keep `act_…` (their own id), read as they are.
   */
  requestId: string;
  amountMinor: string;
  currency: string;
  trace: string;
  /** `HostSuccess`, `HostDeclined`, `HostTimeout`, `HostOutcomeUnknown`, `HostApprovalReversed`, `HostUnavailable`, `HostRejected`, `HostConnectorUnavailable`, or `Pending`. */
  reason: string;
  hostRespCode: string | null;
  hostRespMessage: string | null;
  rrn: string | null;
  approvalCode: string | null;
  /** What the connector sent (MTI, STAN, transmission time): what a follow-up names as its original. */
  hostMti: string | null;
  hostStan: string | null;
  hostTransmittedAt: string | null;
  /** The host order the connector filed it under (`HostResponseV1.orderId`, MPGS_AP), which follow-ups name as the original's. */
  hostOrderId: string | null;
  posReference: string | null;
  extraData: Record<string, unknown> | null;
  /** The connector's reversal of the action's host request, as `host.reversal.updated.v1` last told it; null (or absent, on actions written before it) when none. */
  reversal?: ActionReversal | null;
  hostRequest: KeptActionRequest | null;
  /**
   * The terminal batch the action booked money in (a sale's approval, a capture, a refund: what a
   * settlement totals); null for what books nothing (a pre-authorisation, a void, a failure).
   * Absent: null.
   */
  batchNo?: string | null;
  /**
   * The caller's request id of a follow-up (HTTP `Idempotency-Key`, the NATS request's
   * `requestId`): a repeat of it on the same transaction answers this action again. Absent: null.
   */
  clientRequestId?: string | null;
  /**
   * The `/api/v2` request id (`v2.<kind>.<key>`) a follow-up stored before the namespaces answers
   * too: its `clientRequestId` is the old form `<kind>-<key>`, so a retry across the deploy finds
   * it (migration 1764800004713). Null for every action stored since. Absent: null.
   */
  legacyRequestId?: string | null;
  /** While PENDING: when the gateway may next ask the host connector what became of it. */
  nextCheckAt: Date | null;
  checkAttempts: number;
  createdAt: Date;
  updatedAt: Date | null;
}

/**
 * A terminal as its batches are kept: the PBO, the host format, the acquirer, the acceptance's MID
 * and TID, and the currency. One MID/TID at two acquirers is two terminals, each with its batch,
 * each settled at its own host (review r14p H1).
 */
export interface TerminalKey {
  groupId: string;
  hostMessageFormat: string;
  acquirerKey: string;
  mid: string;
  tid: string;
  currency: string;
}

/**
 * The acquirer of a sale made through `acceptance`: merchant-management's acquirer profile
 * (`acquirerRef`), which a rename or an address edit keeps, so a batch stays one across them; an
 * acceptance pushed before it carried one is known by its name (as follow-ups
 * find the acquirer's acceptance now: `TerminalIdentityRepository.targetNow`). Another acquirer profile on the same MID/TID
 * is another acquirer, whose sales are another batch.
 */
export function acquirerKeyOf(acceptance: { acquirerRef: string | null; acptName: string }): string {
  return acceptance.acquirerRef === null ? `name:${acceptance.acptName}` : `ref:${acceptance.acquirerRef}`;
}

/** The terminal whose batch a transaction is in. */
export function terminalKeyOf(transaction: Pick<Transaction, 'groupId' | 'hostMessageFormat' | 'acquirerKey' | 'primaryMid' | 'primaryTid' | 'currency'>): TerminalKey {
  return {
    groupId: transaction.groupId,
    hostMessageFormat: transaction.hostMessageFormat,
    acquirerKey: transaction.acquirerKey,
    mid: transaction.primaryMid,
    tid: transaction.primaryTid,
    currency: transaction.currency,
  };
}

/** What a new action is made of; the rest is what an action holds before the host answered it. */
export type NewActionFields = Pick<
  TransactionAction,
  'id' | 'tranId' | 'actionType' | 'requestId' | 'amountMinor' | 'currency' | 'posReference' | 'extraData' | 'hostRequest' | 'nextCheckAt' | 'createdAt'
> &
  Pick<Partial<TransactionAction>, 'clientRequestId'>;

/** A new action, PENDING until the host's answer is recorded: its id is the requestId the host connector is asked with. */
export function pendingAction(fields: NewActionFields): TransactionAction {
  return {
    ...fields,
    actionStatus: 'PENDING',
    trace: '',
    reason: 'Pending',
    hostRespCode: null,
    hostRespMessage: null,
    rrn: null,
    approvalCode: null,
    hostMti: null,
    hostStan: null,
    hostTransmittedAt: null,
    hostOrderId: null,
    batchNo: null,
    clientRequestId: fields.clientRequestId ?? null,
    checkAttempts: 0,
    updatedAt: null,
  };
}
