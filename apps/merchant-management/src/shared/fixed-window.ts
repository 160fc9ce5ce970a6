/**
 * Fixed windows for counting failures (activation attempts, device admin passwords): every count
 * belongs to the window its instant falls in, so replicas agree on the window without talking.
 */

/** The start of the window of `windowMs` that `now` falls in. */
export function windowStartOf(now: Date, windowMs: number): Date {
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

/** Whole seconds until the window `now` falls in ends (at least 1: a caller told to wait 0 s would try at once). */
export function secondsLeftInWindow(now: Date, windowMs: number): number {
  const end = windowStartOf(now, windowMs).getTime() + windowMs;
  return Math.max(1, Math.ceil((end - now.getTime()) / 1000));
}
