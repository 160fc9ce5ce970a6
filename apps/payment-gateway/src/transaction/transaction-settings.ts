/** Timing of the sale path and of the resolver of unknown outcomes (docs/decisions.md, "Gateway transactions (issue 13)"). */
export interface TransactionSettings {
  /** What the host connector may wait for the host: the request's `timeoutMs`. */
  hostTimeoutMs: number;
  /** How much longer than that the gateway waits for the connector's reply. */
  replyMarginMs: number;
  /** How long the second ask (same requestId, at once after an unknown outcome) may take. */
  reaskWaitMs: number;
  /** How often each replica looks for pending transactions to resolve. */
  resolverIntervalMs: number;
  /** Delay between checks of one pending transaction: doubling from the first, capped at the second. */
  resolverBackoffMs: number;
  resolverBackoffMaxMs: number;
  /**
   * Age of a pending sale from which a re-ask answered HOST_UNAVAILABLE means that nothing was
   * sent: by then the connector has finished (or recovered as REVERSED) every request it sent,
   * so "still being handled" can no longer be the reason. Must exceed the connector's
   * HOST_TIMEOUT_MS + HOST_RECOVERY_GRACE_MS + HOST_REVERSAL_POLL_MS (20 s + 30 s + 5 s by default).
   */
  nothingSentAfterMs: number;
  /** How long after its approval an AUTH may be captured; after that it is CLOSED (7 days). */
  authorizationValidityMs: number;
  /** How often each replica closes the authorisations not captured in time. */
  closeSweepIntervalMs: number;
  /** What the host connector may take to reconcile a batch (uploads included): the settle request's `timeoutMs` (at most 60 s). */
  settleTimeoutMs: number;
  /**
   * How long a replica answers sales from the profile and acceptances it read (docs/decisions.md,
   * "bench:sale: a cheaper sale"): a change made through this replica is seen at once, one made
   * through another replica after at most this long. 0 reads them for every sale.
   */
  profileCacheTtlMs: number;
}

export const DEFAULT_TRANSACTION_SETTINGS: TransactionSettings = {
  hostTimeoutMs: 15_000,
  replyMarginMs: 3_000,
  reaskWaitMs: 5_000,
  resolverIntervalMs: 5_000,
  resolverBackoffMs: 5_000,
  resolverBackoffMaxMs: 300_000,
  nothingSentAfterMs: 300_000,
  authorizationValidityMs: 7 * 24 * 60 * 60 * 1000,
  closeSweepIntervalMs: 60_000,
  settleTimeoutMs: 45_000,
  profileCacheTtlMs: 1_000,
};

/** Nest injection token of the {@link TransactionSettings}: the defaults, or those given to `PaymentGatewayModule.register`. */
export const TRANSACTION_SETTINGS = Symbol('TRANSACTION_SETTINGS');

/** How long a request may hold its Idempotency-Key before a repeat may take it over: the longest a sale request runs, and a margin. */
export function idempotencyInFlightMs(settings: TransactionSettings): number {
  return settings.hostTimeoutMs + settings.replyMarginMs + settings.reaskWaitMs + 10_000;
}

/** When the resolver may first check a new action: once its request has had every chance to finish it, and a first delay more. */
export function firstCheckAt(settings: TransactionSettings, now: Date): Date {
  return new Date(now.getTime() + settings.hostTimeoutMs + settings.replyMarginMs + settings.reaskWaitMs + settings.resolverBackoffMs);
}
