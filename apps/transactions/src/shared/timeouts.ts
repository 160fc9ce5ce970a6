/**
 * How long this context waits for the others (request/reply deadlines), injectable so a test can
 * make the slow paths fast. The defaults hold for the platform's own settings.
 */
export interface TransactionsTimeouts {
  /** merchant-management checking an admin password. */
  verifyAdminMs: number;
  /** The gateway's follow-up: its host's deadline (HOST_TIMEOUT_MS, 20 s by default), a reversal, and margins. */
  gatewayActionMs: number;
  /** The gateway's settlement: close the batch, reconcile with the host, upload it when out of balance. */
  gatewaySettleMs: number;
  /** How long a settlement under way holds its batch: after it, a settle takes over under the same request id. */
  settlingLeaseMs: number;
}

export const TRANSACTIONS_TIMEOUTS = Symbol('TRANSACTIONS_TIMEOUTS');

export const DEFAULT_TRANSACTIONS_TIMEOUTS: TransactionsTimeouts = {
  verifyAdminMs: 5_000,
  gatewayActionMs: 45_000,
  gatewaySettleMs: 90_000,
  settlingLeaseMs: 180_000,
};
