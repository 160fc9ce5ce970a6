import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { ConfigError, integer, ValuesOf } from '../config/env-schema';

const KEY_LENGTH = 32;
/**
 * scrypt N for new hashes: OWASP's Password Storage Cheat Sheet asks for at least N=2^17, r=8,
 * p=1 (128 MiB and a few hundred ms per hash). Hashes stored with a smaller N still verify and
 * are rehashed at this cost on a successful check ({@link needsRehash}).
 */
export const SECRET_HASH_COST = 2 ** 17;
const BLOCK_SIZE = 8;
/** The smallest N `SECRET_HASH_COST` may set, outside production only (tests). */
const MIN_COST = 2 ** 10;
/** N for new hashes in this process: {@link SECRET_HASH_COST} unless configured ({@link useSecretHashCost}). */
let configuredCost = SECRET_HASH_COST;

/**
 * `SECRET_HASH_COST`: scrypt N for new hashes of passcodes and admin passwords. Production takes
 * {@link SECRET_HASH_COST} or more; below it (down to 1024) only outside production, where the
 * test suite runs thousands of hashes (docs/decisions.md, "scrypt cost for the tests").
 */
export const secretHashVariables = {
  SECRET_HASH_COST: integer(SECRET_HASH_COST, MIN_COST, 2 ** 20),
};

/** The configured cost, checked: a power of two, and not below the default in production. */
export function secretHashCostFrom(values: ValuesOf<typeof secretHashVariables>, options: { production: boolean }): number {
  const cost = values.SECRET_HASH_COST;
  if ((cost & (cost - 1)) !== 0) throw new ConfigError([`SECRET_HASH_COST must be a power of two, got ${cost}`]);
  if (options.production && cost < SECRET_HASH_COST) throw new ConfigError([`SECRET_HASH_COST must be at least ${SECRET_HASH_COST} in production, got ${cost}`]);
  return cost;
}

/** Sets N for new hashes in this process (the config's {@link secretHashCostFrom}); stored hashes verify whatever their N. */
export function useSecretHashCost(cost: number): void {
  if (!Number.isInteger(cost) || cost < MIN_COST || cost > MAX_COST || (cost & (cost - 1)) !== 0) throw new Error(`scrypt cost must be a power of two from ${MIN_COST} to ${MAX_COST}, got ${cost}`);
  configuredCost = cost;
}

/** N for new hashes in this process. */
export function secretHashCost(): number {
  return configuredCost;
}
/** Hashes stored with an N above this are refused unchecked rather than allowed to take the memory they ask for. */
const MAX_COST = 2 ** 20;
/** 128 × N × r bytes for N=2^17, r=8 is 128 MiB; Node refuses above maxmem. */
const MAX_MEMORY = 2 * 128 * SECRET_HASH_COST * BLOCK_SIZE;

/**
 * At most this many hashes at a time per process: each takes 128 MiB while it runs, and a burst
 * of admin password checks must not take the process's memory (Node would run four at once on
 * its thread pool). The rest wait their turn in order.
 */
const CONCURRENT_HASHES = 2;
/**
 * At most this many checks ({@link verifySecret}) wait for a turn; one more is refused unrun
 * ({@link SecretCheckBusyError}), so that a flood of guesses (each one scrypt) cannot queue work
 * without end. Two at a time of a few hundred ms each: 32 waiting is a few seconds of work, what a
 * caller of `mms.device.verify-admin.v1` waits for an answer (docs/decisions.md, "Admin password
 * throttle counts refusals only"). Hashes of new secrets are never refused: they wait their turn.
 */
export const WAITING_CHECKS_LIMIT = 32;
let running = 0;
let started = 0;
const waiting: Array<() => void> = [];

/** A secret check refused unrun: {@link WAITING_CHECKS_LIMIT} checks already wait for scrypt. */
export class SecretCheckBusyError extends Error {
  constructor() {
    super(`${WAITING_CHECKS_LIMIT} secret checks already wait for their turn`);
    this.name = 'SecretCheckBusyError';
  }
}

/** How many scrypt computations run and wait in this process now, and how many were started since it began (for tests and logs). */
export function secretHashLoad(): { running: number; waiting: number; started: number } {
  return { running, waiting: waiting.length, started };
}

async function inTurn<T>(work: () => Promise<T>, refusable: boolean): Promise<T> {
  if (running >= CONCURRENT_HASHES) {
    if (refusable && waiting.length >= WAITING_CHECKS_LIMIT) throw new SecretCheckBusyError();
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running++;
  started++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function scrypt(secret: string, salt: Buffer, cost: number, refusable: boolean): Promise<Buffer> {
  return inTurn(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scryptCallback(secret, salt, KEY_LENGTH, { N: cost, r: BLOCK_SIZE, p: 1, maxmem: Math.max(MAX_MEMORY, 2 * 128 * cost * BLOCK_SIZE) }, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
    refusable,
  );
}

/** Salted scrypt hash of a secret the API accepts (passcode, deviceAdmin, adminPwd): `scrypt$N$salt$hash`. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const cost = configuredCost;
  const key = await scrypt(secret, salt, cost, false);
  return `scrypt$${cost}$${salt.toString('base64')}$${key.toString('base64')}`;
}

function costOf(stored: string): number | undefined {
  const [scheme, cost] = stored.split('$');
  const n = Number(cost);
  return scheme === 'scrypt' && Number.isInteger(n) && n >= 2 && n <= MAX_COST && (n & (n - 1)) === 0 ? n : undefined;
}

/**
 * Constant-time check of a secret against {@link hashSecret}'s output (of this cost or an older,
 * lower one). Throws {@link SecretCheckBusyError}, unrun, when {@link WAITING_CHECKS_LIMIT} checks
 * already wait for their turn.
 */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [, , salt, hash] = stored.split('$');
  const cost = costOf(stored);
  if (cost === undefined || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64'), cost, true);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Whether a stored hash is below the configured cost ({@link secretHashCost}): after a successful check, store {@link hashSecret} of the secret instead. */
export function needsRehash(stored: string): boolean {
  const cost = costOf(stored);
  return cost !== undefined && cost < configuredCost;
}

/** How a stored secret is shown: `******` when set. */
export function maskedSecret(stored: string | null | undefined): string | null {
  return stored ? '******' : null;
}
