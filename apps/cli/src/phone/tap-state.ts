import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeOwnerOnlyJson } from './device-file';

/** What a tap is made of besides the card and the amount: its day (9A, the expiry), its key, its random parts. */
export interface Tap {
  now: Date;
  idempotencyKey: string;
  random?: (size: number) => Buffer;
}

/** The first tap's time of each `--idempotency-key` the CLI was given: `{ key: ISO time }`. */
export type TapTimes = Record<string, string>;

/**
 * How long a key's first tap is kept: longer than the gateway keeps an Idempotency-Key (24 h), so
 * a retry the gateway can still answer always rebuilds the first body; older ones are dropped.
 */
export const TAP_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** Where the first taps are kept: `<DATA_DIR>/cli/taps.json`, beside the device. */
export function tapFilePath(dataDir: string): string {
  return join(dataDir, 'cli', 'taps.json');
}

/**
 * The tap of a sale. Without a key: a fresh one (random cryptogram and unpredictable number, now,
 * a new key). With a key the user gives (a retry of a sale whose answer was lost): the same tap
 * as the key's first, whole: its random parts drawn from the key, its time the first tap's (kept
 * in `times`), so the repeat carries the same body, also after midnight UTC, and the gateway
 * answers the stored transaction instead of refusing another body under that key (422). Answers
 * the tap and the times to keep (this key's first, entries older than {@link TAP_KEPT_MS} dropped).
 */
export function repeatableTap(key: string | undefined, times: TapTimes, now: Date): { tap: Tap; times: TapTimes } {
  const kept = Object.fromEntries(Object.entries(times).filter(([, at]) => now.getTime() - Date.parse(at) < TAP_KEPT_MS));
  if (key === undefined) return { tap: { now, idempotencyKey: randomUUID() }, times: kept };
  // Own entries only: a key such as `constructor` or `__proto__` is a key like any other.
  const first = Object.hasOwn(kept, key) ? new Date(kept[key]) : now;
  let counter = 0;
  return {
    tap: {
      now: first,
      idempotencyKey: key,
      random: (size) => createHash('sha256').update(`${key}:${(counter += 1)}`).digest().subarray(0, size),
    },
    times: { ...kept, [key]: first.toISOString() },
  };
}

/** The kept first taps; none when the file is missing or unreadable (a tap then starts anew). */
export async function loadTapTimes(dataDir: string): Promise<TapTimes> {
  try {
    const parsed: unknown = JSON.parse(await readFile(tapFilePath(dataDir), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !Number.isNaN(Date.parse(entry[1]))));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return {};
    throw error;
  }
}

/** Keeps the first taps (owner only, replaced in one step, as the device file). */
export async function saveTapTimes(dataDir: string, times: TapTimes): Promise<void> {
  await writeOwnerOnlyJson(tapFilePath(dataDir), times);
}
