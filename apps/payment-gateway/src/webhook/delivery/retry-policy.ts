/** Where a delivery stands. SUPERSEDED: a newer version of the transaction took its place before it was delivered. */
export const DELIVERY_STATES = ['PENDING', 'DELIVERED', 'FAILED', 'SUPERSEDED'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/**
 * What one attempt came to. `reason` is what the delivery records and the PBO reads: a category
 * (`destination not reachable or not allowed`, a status line, why the URL is refused),
 * never a socket's or resolver's text, which named internal addresses and told a refused port from
 * a silent one; `detail`, when there is more, goes only to the log.
 */
export type AttemptOutcome =
  /** The receiver answered 2xx. */
  | { kind: 'delivered'; status: number; statusLine: string }
  /** The receiver answered something else (a redirect included, which is never followed), or none came: worth trying again. */
  | { kind: 'failed'; reason: string; status: number | null; detail?: string }
  /** The destination is one the gateway never delivers to (not public, not http(s)): no attempt will do better. */
  | { kind: 'refused'; reason: string; detail?: string };

/** The schedule of attempts (WEBHOOK_BACKOFF_MS, WEBHOOK_BACKOFF_MAX_MS, WEBHOOK_GIVE_UP_MS). */
export interface RetrySchedule {
  backoffBaseMs: number;
  backoffMaxMs: number;
  giveUpMs: number;
}

/** What is recorded on the delivery after an attempt. */
export interface AttemptRecord {
  state: Exclude<DeliveryState, 'SUPERSEDED'>;
  /** Null once the delivery is final. */
  nextAttemptAt: Date | null;
  /** The HTTP status answered, or null when none was. */
  lastStatus: number | null;
  /** A short status line or the reason of the failure; never a response body. */
  lastError: string | null;
  finishedAt: Date | null;
}

/** The wait after `attempts` failed attempts: the base, doubled per attempt, at most the maximum. */
export function retryDelayMs(attempts: number, schedule: Pick<RetrySchedule, 'backoffBaseMs' | 'backoffMaxMs'>): number {
  return Math.min(schedule.backoffMaxMs, schedule.backoffBaseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
}

/** Statuses and reasons are kept short: a line for the operator, never what the receiver sent back. */
export const LAST_ERROR_MAX = 300;

/**
 * The delivery after attempt number `attempts` (the first was at `firstAttemptAt`), failed or
 * answered at `now`: DELIVERED on 2xx; FAILED at once when refused; otherwise retried after
 * {@link retryDelayMs}, but never later than `giveUpMs` after the first attempt (the last retry
 * is due then at the latest), and FAILED when an attempt fails at or after that time.
 */
export function afterAttempt(outcome: AttemptOutcome, attempts: number, firstAttemptAt: Date, now: Date, schedule: RetrySchedule): AttemptRecord {
  switch (outcome.kind) {
    case 'delivered':
      return { state: 'DELIVERED', nextAttemptAt: null, lastStatus: outcome.status, lastError: null, finishedAt: now };
    case 'refused':
      return { state: 'FAILED', nextAttemptAt: null, lastStatus: null, lastError: clip(`refused: ${outcome.reason}`), finishedAt: now };
    case 'failed': {
      const deadline = firstAttemptAt.getTime() + schedule.giveUpMs;
      if (now.getTime() >= deadline) {
        return {
          state: 'FAILED',
          nextAttemptAt: null,
          lastStatus: outcome.status,
          lastError: clip(`gave up after ${attempts} attempts: ${outcome.reason}`),
          finishedAt: now,
        };
      }
      const next = Math.min(now.getTime() + retryDelayMs(attempts, schedule), deadline);
      return { state: 'PENDING', nextAttemptAt: new Date(next), lastStatus: outcome.status, lastError: clip(outcome.reason), finishedAt: null };
    }
  }
}

function clip(text: string): string {
  return text.length <= LAST_ERROR_MAX ? text : `${text.slice(0, LAST_ERROR_MAX - 1)}…`;
}
