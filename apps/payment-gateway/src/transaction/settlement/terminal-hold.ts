import { Clock, DomainError } from '@app/common';
import { setTimeout as delay } from 'node:timers/promises';
import type { TerminalKey } from '../transaction';

/** How often a request waiting for a terminal (or a settlement waiting for its requests) looks again. */
export const HOLD_POLL_MS = 50;

const terminalName = (key: TerminalKey): string => `terminal ${key.mid}/${key.tid} (${key.currency})`;

/**
 * Thrown in the unit of work that would start a host request (write a PENDING sale or follow-up)
 * on a terminal a settlement holds: the unit of work rolls back, {@link waitingWhileSettling}
 * tries again.
 */
export class TerminalHeldError extends Error {
  constructor(
    readonly key: TerminalKey,
    readonly until: Date,
  ) {
    super(`${terminalName(key)} is being settled`);
  }
}

/** 409 with Retry-After: a retryable refusal of a request that found the terminal being settled. */
function busy(message: string, retryAfterMs: number): DomainError {
  return DomainError.conflict(message, Math.max(1, Math.ceil(retryAfterMs / 1000)));
}

/**
 * Runs `start` (a unit of work writing a PENDING sale or follow-up), again while it finds the
 * terminal held by a settlement, for at most `waitMs`; then 409 with Retry-After (the settlement's
 * hold, at most), nothing written.
 */
export async function waitingWhileSettling<T>(start: () => Promise<T>, waitMs: number, clock: Clock): Promise<T> {
  const deadline = clock.now().getTime() + waitMs;
  for (;;) {
    try {
      return await start();
    } catch (error) {
      if (!(error instanceof TerminalHeldError)) throw error;
      const now = clock.now().getTime();
      if (now >= deadline) throw heldRefusal(error.key, error.until, new Date(now));
      await delay(Math.min(HOLD_POLL_MS, deadline - now));
    }
  }
}

/**
 * Waits until `inFlight` (the terminal's host requests still in flight) is 0, for at most
 * `waitMs`; then 409 with Retry-After: the settlement did not start.
 */
export async function drained(key: TerminalKey, inFlight: () => Promise<number>, waitMs: number, clock: Clock): Promise<void> {
  const deadline = clock.now().getTime() + waitMs;
  for (;;) {
    const count = await inFlight();
    if (count === 0) return;
    const now = clock.now().getTime();
    if (now >= deadline)
      throw busy(`${terminalName(key)} has ${count} sale(s) or follow-up(s) waiting for the host; settle it again once they are done`, waitMs);
    await delay(Math.min(HOLD_POLL_MS, deadline - now));
  }
}

/** 409 with Retry-After: a sale or follow-up refused because a settlement holds its terminal (nothing sent). */
export function heldRefusal(key: TerminalKey, until: Date, now: Date): DomainError {
  return busy(`${terminalName(key)} is being settled with its host; send the request again once the settlement is done`, until.getTime() - now.getTime());
}

/** 409 with Retry-After: another settlement holds the terminal. */
export function heldByAnother(key: TerminalKey, until: Date, now: Date): DomainError {
  return busy(`${terminalName(key)} is being settled by another request; settle again later`, until.getTime() - now.getTime());
}
