import fc from 'fast-check';
import { afterAttempt, AttemptOutcome, LAST_ERROR_MAX, retryDelayMs, RetrySchedule } from './retry-policy';

const DEFAULT: RetrySchedule = { backoffBaseMs: 10_000, backoffMaxMs: 3_600_000, giveUpMs: 86_400_000 };
const failed: AttemptOutcome = { kind: 'failed', reason: 'HTTP 503 (receiver error)', status: 503 };

/** Attempt times (ms after the first) of a delivery whose receiver always fails, each attempt taking `took(n)` ms. */
function failingRun(schedule: RetrySchedule, took: (attempt: number) => number): { times: number[]; finalError: string | null } {
  const first = new Date(0);
  const times = [0];
  for (;;) {
    const attempts = times.length;
    const record = afterAttempt(failed, attempts, first, new Date(times[attempts - 1] + took(attempts)), schedule);
    if (record.state === 'FAILED') return { times, finalError: record.lastError };
    expect(record.state).toBe('PENDING');
    times.push((record.nextAttemptAt as Date).getTime());
  }
}

describe('the webhook retry policy', () => {
  it('should try 10 s, 20 s, 40 s … apart up to an hour, the last time 24 h after the first, then give up', () => {
    const { times, finalError } = failingRun(DEFAULT, () => 0);

    expect(times.slice(0, 11).map((ms) => ms / 1000)).toEqual([0, 10, 30, 70, 150, 310, 630, 1270, 2550, 5110, 8710]);
    expect(times.at(-1)).toBe(86_400_000);
    expect(times).toHaveLength(33);
    expect(finalError).toBe('gave up after 33 attempts: HTTP 503 (receiver error)');
  });

  it('should never wait less than the backoff nor more than its maximum, and never try after the give-up time, whatever an attempt takes', () => {
    const schedule = fc
      .record({
        backoffBaseMs: fc.integer({ min: 10, max: 60_000 }),
        factor: fc.integer({ min: 1, max: 1000 }),
        spans: fc.double({ min: 0.01, max: 100, noNaN: true }),
      })
      // At most a few hundred attempts per run: the give-up time is a number of the longest waits.
      .map(({ backoffBaseMs, factor, spans }) => ({
        backoffBaseMs,
        backoffMaxMs: backoffBaseMs * factor,
        giveUpMs: Math.max(1000, Math.round(backoffBaseMs * factor * spans)),
      }));
    fc.assert(
      fc.property(schedule, fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 50 }), (plan, durations) => {
        const took = (attempt: number) => durations[(attempt - 1) % durations.length];
        const { times } = failingRun(plan, took);
        for (let n = 1; n < times.length; n++) {
          const waited = times[n] - (times[n - 1] + took(n));
          expect(times[n]).toBeLessThanOrEqual(plan.giveUpMs);
          if (times[n] < plan.giveUpMs) expect(waited).toBe(retryDelayMs(n, plan));
          expect(waited).toBeLessThanOrEqual(plan.backoffMaxMs);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('should end a delivery at the first 2xx, and at once when the destination is refused, whatever attempt it is', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 200, max: 299 }), (attempts, status) => {
        const now = new Date(1_000_000);
        expect(afterAttempt({ kind: 'delivered', status, statusLine: `HTTP ${status}` }, attempts, new Date(0), now, DEFAULT)).toEqual({
          state: 'DELIVERED',
          nextAttemptAt: null,
          lastStatus: status,
          lastError: null,
          finishedAt: now,
        });
        expect(afterAttempt({ kind: 'refused', reason: '10.0.0.1 (private): not a public address' }, attempts, new Date(0), now, DEFAULT)).toMatchObject({
          state: 'FAILED',
          nextAttemptAt: null,
          lastError: 'refused: 10.0.0.1 (private): not a public address',
        });
      }),
    );
  });

  it('should keep only a short line of any failure', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 0, maxLength: 5000 }), (reason) => {
        const record = afterAttempt({ kind: 'failed', reason, status: null }, 1, new Date(0), new Date(0), DEFAULT);
        expect((record.lastError ?? '').length).toBeLessThanOrEqual(LAST_ERROR_MAX);
      }),
    );
  });
});
