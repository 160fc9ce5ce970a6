import { ConfigError, envSchema, integer, ValuesOf } from '@app/common';
import { hostConnectorTimingVariables } from '@app/runtime';

/** Timing of the sale path and of the resolver of unknown outcomes (docs/decisions.md, "Gateway transactions (issue 13)"). */
export interface TransactionSettings {
  /** TRANSACTION_HOST_TIMEOUT_MS: what the host connector may wait for the host: the request's `timeoutMs`. */
  hostTimeoutMs: number;
  /** TRANSACTION_REPLY_MARGIN_MS: how much longer than that the gateway waits for the connector's reply. */
  replyMarginMs: number;
  /** TRANSACTION_REASK_WAIT_MS: how long the second ask (same requestId, at once after an unknown outcome) may take. */
  reaskWaitMs: number;
  /** TRANSACTION_RESOLVER_INTERVAL_MS: how often each replica looks for pending transactions to resolve. */
  resolverIntervalMs: number;
  /** TRANSACTION_RESOLVER_BACKOFF_MS, TRANSACTION_RESOLVER_BACKOFF_MAX_MS: delay between checks of one pending transaction, doubling from the first, capped at the second. */
  resolverBackoffMs: number;
  resolverBackoffMaxMs: number;
  /**
   * TRANSACTION_NOTHING_SENT_AFTER_MS: age of a pending sale from which a re-ask answered
   * HOST_UNAVAILABLE means that nothing was sent: by then the connector has finished (or
   * recovered as REVERSED) every request it sent, so "still being handled" can no longer be the
   * reason. Must exceed the connector's deadline + HOST_RECOVERY_GRACE_MS + HOST_REVERSAL_POLL_MS
   * (20 s + 30 s + 5 s by default): checked at start.
   */
  nothingSentAfterMs: number;
  /** TRANSACTION_AUTHORIZATION_VALIDITY_MS: how long after its approval an AUTH may be captured; after that it is CLOSED (7 days). */
  authorizationValidityMs: number;
  /** TRANSACTION_CLOSE_SWEEP_MS: how often each replica closes the authorisations not captured in time. */
  closeSweepIntervalMs: number;
  /** TRANSACTION_SETTLE_TIMEOUT_MS: what the host connector may take to reconcile a batch (uploads included): the settle request's `timeoutMs` (at most 60 s). */
  settleTimeoutMs: number;
  /**
   * TRANSACTION_SETTLE_WAIT_MS: how long a sale or follow-up of a terminal a settlement holds
   * waits for it before it is refused 409 with Retry-After (nothing sent).
   */
  settleWaitMs: number;
  /**
   * TRANSACTION_SETTLE_DRAIN_MS: how long a settlement waits for the terminal's sales and
   * follow-ups already with the host before it is refused 409 with Retry-After (nothing closed).
   */
  settleDrainMs: number;
  /**
   * TRANSACTION_PROFILE_CACHE_TTL_MS: how long a replica answers sales from the profile and acceptances it read (docs/decisions.md,
   * "bench:sale: a cheaper sale"): a change made through this replica is seen at once, one made
   * through another replica after at most this long. 0 reads them for every sale.
   */
  profileCacheTtlMs: number;
}

const DAY_MS = 86_400_000;

/**
 * The gateway's transaction variables (README, Configuration), and the connector's timing it
 * must agree with (read under the connector's names, {@link hostConnectorTimingVariables}).
 */
export const transactionVariables = {
  TRANSACTION_HOST_TIMEOUT_MS: integer(15_000, 100, 60_000),
  TRANSACTION_REPLY_MARGIN_MS: integer(3000, 0, 60_000),
  TRANSACTION_REASK_WAIT_MS: integer(5000, 100, 60_000),
  TRANSACTION_RESOLVER_INTERVAL_MS: integer(5000, 10, 600_000),
  TRANSACTION_RESOLVER_BACKOFF_MS: integer(5000, 10, 3_600_000),
  TRANSACTION_RESOLVER_BACKOFF_MAX_MS: integer(300_000, 10, DAY_MS),
  TRANSACTION_NOTHING_SENT_AFTER_MS: integer(300_000, 1000, 7 * DAY_MS),
  TRANSACTION_AUTHORIZATION_VALIDITY_MS: integer(7 * DAY_MS, 60_000, 31 * DAY_MS),
  TRANSACTION_CLOSE_SWEEP_MS: integer(60_000, 10, DAY_MS),
  TRANSACTION_SETTLE_TIMEOUT_MS: integer(45_000, 100, 60_000),
  TRANSACTION_SETTLE_WAIT_MS: integer(10_000, 0, 60_000),
  TRANSACTION_SETTLE_DRAIN_MS: integer(25_000, 0, 120_000),
  TRANSACTION_PROFILE_CACHE_TTL_MS: integer(1000, 0, 60_000),
  ...hostConnectorTimingVariables,
};

export type TransactionVariableValues = ValuesOf<typeof transactionVariables>;

/**
 * The settings from their variables, checked together; an impossible combination stops the start
 * with every reason named:
 * - TRANSACTION_RESOLVER_BACKOFF_MAX_MS below TRANSACTION_RESOLVER_BACKOFF_MS;
 * - TRANSACTION_NOTHING_SENT_AFTER_MS not above the longest the connector may still be working on
 *   a request (the later of its deadline and ours, + HOST_RECOVERY_GRACE_MS + HOST_REVERSAL_POLL_MS):
 *   a pending sale could be declined while the host approves it.
 */
export function transactionSettingsFrom(values: TransactionVariableValues): TransactionSettings {
  const problems: string[] = [];
  if (values.TRANSACTION_RESOLVER_BACKOFF_MAX_MS < values.TRANSACTION_RESOLVER_BACKOFF_MS) {
    problems.push(
      `TRANSACTION_RESOLVER_BACKOFF_MAX_MS must be from TRANSACTION_RESOLVER_BACKOFF_MS (${values.TRANSACTION_RESOLVER_BACKOFF_MS}) to ${DAY_MS}, got ${values.TRANSACTION_RESOLVER_BACKOFF_MAX_MS}`,
    );
  }
  const deadline = Math.max(values.TRANSACTION_HOST_TIMEOUT_MS, values.HOST_TIMEOUT_MS);
  const connectorBusyMs = deadline + values.HOST_RECOVERY_GRACE_MS + values.HOST_REVERSAL_POLL_MS;
  if (values.TRANSACTION_NOTHING_SENT_AFTER_MS <= connectorBusyMs) {
    problems.push(
      `TRANSACTION_NOTHING_SENT_AFTER_MS (${values.TRANSACTION_NOTHING_SENT_AFTER_MS}) must exceed how long the host connector may still be handling a request: ` +
        `${deadline} (the later of TRANSACTION_HOST_TIMEOUT_MS and HOST_TIMEOUT_MS) + HOST_RECOVERY_GRACE_MS ${values.HOST_RECOVERY_GRACE_MS} + HOST_REVERSAL_POLL_MS ${values.HOST_REVERSAL_POLL_MS} = ${connectorBusyMs}; ` +
        'otherwise a sale the host approved could be declined',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    hostTimeoutMs: values.TRANSACTION_HOST_TIMEOUT_MS,
    replyMarginMs: values.TRANSACTION_REPLY_MARGIN_MS,
    reaskWaitMs: values.TRANSACTION_REASK_WAIT_MS,
    resolverIntervalMs: values.TRANSACTION_RESOLVER_INTERVAL_MS,
    resolverBackoffMs: values.TRANSACTION_RESOLVER_BACKOFF_MS,
    resolverBackoffMaxMs: values.TRANSACTION_RESOLVER_BACKOFF_MAX_MS,
    nothingSentAfterMs: values.TRANSACTION_NOTHING_SENT_AFTER_MS,
    authorizationValidityMs: values.TRANSACTION_AUTHORIZATION_VALIDITY_MS,
    closeSweepIntervalMs: values.TRANSACTION_CLOSE_SWEEP_MS,
    settleTimeoutMs: values.TRANSACTION_SETTLE_TIMEOUT_MS,
    settleWaitMs: values.TRANSACTION_SETTLE_WAIT_MS,
    settleDrainMs: values.TRANSACTION_SETTLE_DRAIN_MS,
    profileCacheTtlMs: values.TRANSACTION_PROFILE_CACHE_TTL_MS,
  };
}

/** The settings with nothing set: the variables' defaults. */
export const DEFAULT_TRANSACTION_SETTINGS: TransactionSettings = transactionSettingsFrom(envSchema(transactionVariables).read({}));

/** Nest injection token of the {@link TransactionSettings}: those given to `PaymentGatewayModule.register` (from the variables), over the defaults. */
export const TRANSACTION_SETTINGS = Symbol('TRANSACTION_SETTINGS');

/** The longest a request asks the connector about its action: the first wait and one repeat (askUntilKnown); then its outcome is known or the resolver's. */
export function requestAskingMs(settings: Pick<TransactionSettings, 'hostTimeoutMs' | 'replyMarginMs' | 'reaskWaitMs'>): number {
  return settings.hostTimeoutMs + settings.replyMarginMs + settings.reaskWaitMs;
}

/** How long a request may hold its Idempotency-Key before a repeat may take it over: the longest a sale request runs, and a margin. */
export function idempotencyInFlightMs(settings: TransactionSettings): number {
  return requestAskingMs(settings) + 10_000;
}

/**
 * The `Retry-After` of a repeat refused because its first request is still in flight: the whole
 * seconds until `until` (when the first one's deadline has passed and a repeat gets an answer), at least 1.
 */
export function secondsUntil(until: number, now: Date): number {
  return Math.max(1, Math.ceil((until - now.getTime()) / 1000));
}

/** When the resolver may first check a new action: once its request has had every chance to finish it, and a first delay more. */
export function firstCheckAt(settings: TransactionSettings, now: Date): Date {
  return new Date(now.getTime() + settings.hostTimeoutMs + settings.replyMarginMs + settings.reaskWaitMs + settings.resolverBackoffMs);
}
