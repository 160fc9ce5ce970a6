import { GatewayActionStatus, GatewayActionType, GatewayReversalV1, GatewaySettleState, GatewayTranStatus, GatewayTranType } from '@app/contracts';

/** Order `state` numbers of spec 2 (section 3). */
export const ORDER_STATES = { INIT: 0, PROCESSING: 1, APPROVED: 2, DECLINED: 3, VOIDED: 4, REFUNDED: 5, CLOSED: 6, REVERSED: 7 } as const;
export type OrderState = (typeof ORDER_STATES)[keyof typeof ORDER_STATES];

/** Order `settleState` numbers of spec 2 (section 3). */
export const SETTLE_STATES = { WAIT_FOR_SETTLE: 0, SETTLED: 1, SETTLE_FAILED: 2 } as const;
export type SettleState = (typeof SETTLE_STATES)[keyof typeof SETTLE_STATES];

/** The order state of a gateway `tranStatus` (PENDING is PROCESSING; INIT is never reached: the gateway records before it asks). */
export function orderStateOf(status: GatewayTranStatus): OrderState {
  switch (status) {
    case 'PENDING':
      return ORDER_STATES.PROCESSING;
    case 'APPROVED':
      return ORDER_STATES.APPROVED;
    case 'DECLINED':
      return ORDER_STATES.DECLINED;
    case 'VOIDED':
      return ORDER_STATES.VOIDED;
    case 'REFUNDED':
      return ORDER_STATES.REFUNDED;
    case 'CLOSED':
      return ORDER_STATES.CLOSED;
    case 'REVERSED':
      return ORDER_STATES.REVERSED;
  }
}

/**
 * The order settle state of a gateway transaction: open and settling batches both still wait for
 * settlement; a transaction that ended in no batch (declined, reversed, an authorisation closed
 * uncaptured) has none, null: it is never settled (docs/decisions.md, "Settlement batches are the
 * gateway's"). A PENDING one may still reach a batch: it waits.
 */
export function orderSettleStateOf(transaction: { tranStatus: GatewayTranStatus; batchNo: string | null; settleState: GatewaySettleState }): SettleState | null {
  if (transaction.batchNo === null && transaction.tranStatus !== 'PENDING') return null;
  return settleStateOf(transaction.settleState);
}

/** The order settle state of a gateway `settleState`: open and settling batches both still wait for settlement. */
export function settleStateOf(state: GatewaySettleState): SettleState {
  switch (state) {
    case 'OPEN':
    case 'SETTLING':
      return SETTLE_STATES.WAIT_FOR_SETTLE;
    case 'SETTLED':
      return SETTLE_STATES.SETTLED;
    case 'SETTLE_FAILED':
      return SETTLE_STATES.SETTLE_FAILED;
  }
}

/**
 * One order: the legacy read model of a gateway transaction (spec 2 "Transaction (order)"), as of
 * the highest `version` seen. Amounts are minor units (decimal strings) in `currency`.
 */
export interface Order {
  tranId: string;
  groupId: string;
  /** merchant-management's merchant of the device; null for profiles made through the gateway API. */
  merchantId: string | null;
  version: number;
  tranType: GatewayTranType;
  tranStatus: GatewayTranStatus;
  state: OrderState;
  /** Null when the transaction ended in no batch (declined, reversed, closed uncaptured): nothing of it is ever settled. */
  settleState: SettleState | null;
  currency: string;
  amountMinor: string;
  approvedMinor: string | null;
  capturedMinor: string;
  refundedMinor: string;
  /** Successful refunds so far (settlement totals count them). */
  refundCount: number;
  paymentMethod: string;
  entryMode: string;
  accountMasked: string;
  cvmPerformed: string;
  aid: string;
  appName: string | null;
  tc: string;
  tvr: string;
  tsi: string | null;
  atc: string;
  profileId: string;
  acceptanceId: string;
  /** The device that took it (merchant-management's device id; spec 2's deviceId filter). */
  sdkId: string;
  trace: string;
  rrn: string | null;
  approvalCode: string | null;
  batchNo: string | null;
  merchantName: string;
  merchantAddr: string | null;
  primaryMid: string;
  primaryTid: string;
  hostMessageFormat: string;
  /** The acquirer the gateway made the transaction at (its terminal batch is that acquirer's); empty for orders recorded before the gateway said. */
  acquirerKey: string;
  linkedTranId: string | null;
  callbackUrl: string | null;
  posReference: string | null;
  /** The IANA time zone the transaction was taken in (its profile's, the merchant's); null for orders from before it was carried (UTC). */
  timeZone: string | null;
  /** The gateway's createdAt (the list's order and its createdStart / createdEnd filters). */
  createdAt: Date;
  /** The gateway's updatedAt; null until the transaction first changed. */
  updatedAt: Date | null;
}

/** One action of an order (spec 2 detail `actions`); `id` is this context's number for it (a refund answers it). */
export interface OrderAction {
  id: number;
  actionId: string;
  tranId: string;
  position: number;
  actionType: GatewayActionType;
  actionStatus: GatewayActionStatus;
  trace: string;
  amountMinor: string;
  currency: string;
  /** The terminal batch the action booked money in (a sale's approval, a capture, a refund); null when it booked none. */
  batchNo: string | null;
  reason: string;
  hostRespCode: string | null;
  hostRespMessage: string | null;
  createdAt: Date;
  /**
   * The host connector's reversal of the action's host request as the gateway last reported it
   * (state, attempts, the host's last code); null when there is none, or the version the order was
   * written from did not carry it.
   */
  reversal: GatewayReversalV1 | null;
}

/** An order with its actions in the gateway's order. */
export interface OrderWithActions extends Order {
  actions: OrderAction[];
}

/**
 * A terminal's batch as the gateway numbers it: per PBO, host message format, MID, TID and
 * currency (the gateway's terminal batch key), so every device sharing an acquirer MID/TID shares
 * it. A settlement batch is one.
 */
export interface TerminalBatch {
  groupId: string;
  hostMessageFormat: string;
  acquirerKey: string;
  primaryMid: string;
  primaryTid: string;
  currency: string;
  batchNo: string;
}

/** The filters of `GET /api/v2/order` (spec 2), all optional, on the caller's orders only. */
export interface OrderFilter {
  createdFrom?: Date;
  createdUntil?: Date;
  tranId?: string;
  /** The terminal batch number (spec 2's `acquirerRefNo`, as a settlement batch shows it). */
  batchNo?: string;
  rrn?: string;
  sdkId?: string;
  settleState?: SettleState;
  state?: OrderState;
}
