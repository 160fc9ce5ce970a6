import type { GatewayBatchOutcome, HostReconciliationV1, HostSettleRequestV1 } from '@app/contracts';
import type { TerminalKey } from '../transaction';

/** A batch's counts and sums in minor units of its currency (strings: never through a float). */
export interface BatchTotalsMinor {
  /** Sales and captures. */
  paymentCount: number;
  paymentMinor: string;
  refundCount: number;
  refundMinor: string;
  voidCount: number;
  voidMinor: string;
}

export const ZERO_BATCH_TOTALS: BatchTotalsMinor = { paymentCount: 0, paymentMinor: '0', refundCount: 0, refundMinor: '0', voidCount: 0, voidMinor: '0' };

/** Where a closed batch stands: being settled, or the outcome its host gave. */
export type BatchSettlementState = 'SETTLING' | GatewayBatchOutcome;

/**
 * A terminal batch the gateway closed (`gateway.batch.settle.v1`): what it held, the host request
 * that reconciles it (kept, so a settlement that lost its answer asks again under the same
 * requestId) and the host's answer. A repeat of the settlement is answered from it.
 */
export interface BatchSettlement extends TerminalKey {
  /** `stl_` + 22 url-safe characters. */
  id: string;
  batchNo: string;
  acceptanceId: string;
  state: BatchSettlementState;
  /** The caller's requestId of the settlement that last worked on it. */
  requestId: string;
  /** How many times the host was asked to reconcile it (a failed settlement may be settled again). */
  attempts: number;
  /** The `host.settle.v1` request of the current attempt (its requestId the connector's idempotency key). */
  hostRequest: HostSettleRequestV1;
  totals: BatchTotalsMinor;
  hostTotals: BatchTotalsMinor | null;
  reconciliation: HostReconciliationV1 | null;
  hostRespCode: string | null;
  hostRespMessage: string;
  /** While SETTLING: until when the request working on it holds it; a later one takes it over after. */
  claimedUntil: Date | null;
  settledAt: Date | null;
  createdAt: Date;
  updatedAt: Date | null;
}
