import type { HostReconciliationV1 } from '@app/contracts';
import type { Order, TerminalBatch } from '../order/order';

/** Settlement batch `state` numbers (DECISIONS.md, "Codes and enumerations"). */
export const BATCH_STATES = { OPEN: 0, SETTLED: 1, SETTLE_FAILED: 2, SETTLING: 3 } as const;
export type BatchState = (typeof BATCH_STATES)[keyof typeof BATCH_STATES];

/** Counts and minor-unit amounts of a batch by kind (sales and captures are payments). */
export interface BatchTotals {
  paymentCount: number;
  paymentMinor: string;
  refundCount: number;
  refundMinor: string;
  voidCount: number;
  voidMinor: string;
}

/**
 * A settlement batch (spec 2 "Settlement batch"): a terminal batch the gateway numbered, as
 * this context keeps it. Totals are stored when it settles (the gateway's count of what it
 * settled); while it is open they are counted from its orders.
 */
export interface SettlementBatch extends TerminalBatch {
  id: number;
  uuid: string;
  /** The public id: `B` and 15 digits. */
  batchId: string;
  merchantId: string | null;
  merchantName: string;
  /**
   * An acceptance of the terminal (its first order's): the settle request names the terminal by
   * it. Devices sharing the MID/TID each have their own; the gateway's batch is the terminal's.
   */
  acceptanceId: string;
  /** The acquirer profile's name (the acceptance's name at the gateway); null for batches of orders from before it was carried. */
  profileName: string | null;
  state: BatchState;
  /** The state a settlement started from, to return to when the gateway refuses it. */
  stateBeforeSettle: BatchState | null;
  settleRequestId: string | null;
  settleAttempts: number;
  /** Until when a settlement under way holds the batch; a later settle takes over with the same request id. */
  settlingUntil: Date | null;
  totals: BatchTotals | null;
  hostTotals: BatchTotals | null;
  /** Ours less the host's, per field (negative when the host counted more). */
  difference: BatchTotals | null;
  reconciliation: HostReconciliationV1 | null;
  /** The host's response code to the settlement (spec 2 acquirerCode). */
  hostRespCode: string | null;
  hostRespMessage: string | null;
  /** When it settled (spec 2 successTime). */
  settledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A batch with its totals as shown: stored once settled, else counted from its orders. */
export interface BatchView extends SettlementBatch {
  shownTotals: BatchTotals;
}

/** What a line of a batch booked: a sale's approval or an authorisation's capture (payments), a refund, a void of booked money. */
export type BatchLineKind = 'SALE' | 'CAPTURE' | 'REFUND' | 'VOID';

/** One booking of a batch (a line of the report's CSV). */
export interface BatchLine {
  batchId: number;
  kind: BatchLineKind;
  /** The action that booked it; null only for orders stored without it. */
  actionId: string | null;
  trace: string;
  bookedAt: Date;
  amountMinor: string;
  order: Order;
}

/** One line of a batch's summary: per kind (SALE, CAPTURE, REFUND, VOID) and payment method. */
export interface BatchSummaryLine {
  transType: string;
  paymentMethod: string;
  count: number;
  amountMinor: string;
}

/** The filters of `GET /api/v2/settlement` (spec 2). */
export interface BatchFilter {
  createdFrom?: Date;
  createdUntil?: Date;
  batchId?: string;
}

export const BATCH_ID_PATTERN = /^B[1-9][0-9]{14}$/;

export const ZERO_TOTALS: BatchTotals = { paymentCount: 0, paymentMinor: '0', refundCount: 0, refundMinor: '0', voidCount: 0, voidMinor: '0' };
