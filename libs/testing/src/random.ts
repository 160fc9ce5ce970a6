import { createHash, randomBytes } from 'node:crypto';
import { relative } from 'node:path';

/**
 * Seeded randomness for test data (issue 15).
 *
 * One seed per run: `test/global-setup.ts` takes `TEST_SEED` when it is set, else draws one, and
 * prints it at the start and the end of the run (`TEST_SEED=… npm test` replays it). Each test
 * file gets its own stream, derived from the run's seed and the file's path, so a file draws the
 * same values whatever ran before it, and a failure replays with the seed alone (also with
 * `npm test -- path/to/file`).
 *
 * The values are built so that they cannot be mistaken for what tests look for: `unique()` is
 * letters only (no digits, so it can never contain a numeric id, a code or an amount), and never
 * repeats within a file.
 *
 * Not for isolation on shared infrastructure (subjects and durables on the machine's NATS,
 * database names): those must differ between runs even with the same seed, so they use `runId()`.
 */

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Parses a seed as written in TEST_SEED: a non-negative 32-bit integer. */
export function parseTestSeed(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d{1,10}$/.test(raw.trim()) || Number(raw) > 0xffffffff) throw new Error(`TEST_SEED must be an integer from 0 to 4294967295, got "${raw}"`);
  return Number(raw);
}

/** A new run seed (global setup draws one when TEST_SEED is not set). */
export function drawTestSeed(): number {
  return randomBytes(4).readUInt32BE(0);
}

/** The run's seed: TEST_SEED, which global setup always sets; a test run outside Jest draws one. */
export function testSeed(): number {
  const seed = parseTestSeed(process.env.TEST_SEED);
  if (seed !== undefined) return seed;
  const drawn = drawTestSeed();
  process.env.TEST_SEED = String(drawn);
  return drawn;
}

/** mulberry32: small, fast, good enough for test data (not for secrets). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of one file's stream: the run's seed mixed with the file's path relative to the repo. */
export function fileSeed(runSeed: number, filePath: string): number {
  return createHash('sha256').update(`${runSeed}:${filePath}`).digest().readUInt32BE(0);
}

function currentTestPath(): string {
  const state = (globalThis as { expect?: { getState?: () => { testPath?: string } } }).expect?.getState?.();
  const path = state?.testPath ?? '';
  return path ? relative(process.cwd(), path) : '';
}

let stream: (() => number) | undefined;
const issued = new Set<string>();

/** A number in [0, 1) from this file's stream. */
export function testRandom(): number {
  stream ??= seededRandom(fileSeed(testSeed(), currentTestPath()));
  return stream();
}

/** An integer in [min, max). */
export function randomIntBetween(min: number, max: number): number {
  return min + Math.floor(testRandom() * (max - min));
}

/** A copy of `items` in an order drawn from this file's stream (Fisher-Yates). */
export function shuffled<T>(items: readonly T[]): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = randomIntBetween(0, i + 1);
    [result[i], result[j]] = [result[j], result[i]];
  }
  return result;
}

/** `count` random decimal digits. */
export function randomDigits(count: number): string {
  return Array.from({ length: count }, () => String(randomIntBetween(0, 10))).join('');
}

/** `count` random lower-case hex digits. */
export function randomHex(count: number): string {
  return Array.from({ length: count }, () => randomIntBetween(0, 16).toString(16)).join('');
}

/** `count` random lower-case letters. */
export function randomLetters(count: number): string {
  return Array.from({ length: count }, () => LETTERS[randomIntBetween(0, LETTERS.length)]).join('');
}

/**
 * A name no other call in this file returns: the prefix and eight random letters. Letters only,
 * so a test that looks for an id, a code or an amount in a message can never find it inside one.
 */
export function unique(prefix = ''): string {
  for (;;) {
    const value = `${prefix}${randomLetters(8)}`;
    if (!issued.has(value)) {
      issued.add(value);
      return value;
    }
  }
}

/**
 * An identifier for isolation on infrastructure that outlives a run (NATS subjects, streams and
 * durables on the machine's server): different on every run, also when TEST_SEED replays one.
 */
export function runId(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}
