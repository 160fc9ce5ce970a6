import { randomBytes, randomFillSync } from 'node:crypto';

/** Bytes drawn from the CSPRNG at once, handed out in order (docs/decisions.md, "Random bytes from a pool"). */
const POOL_SIZE = 4096;
/** The ids' draws (16 bytes at most); longer ones (secrets such as a PBO's webhook signing key) go to `randomBytes` directly. */
const LARGEST_POOLED = 16;

const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

/**
 * `length` bytes of `node:crypto`'s cryptographically strong generator, as `randomBytes(length)`
 * gives them, at a tenth of its cost for the short draws of ids: one `randomFillSync` fills a pool
 * of 4 KiB and each call copies the next unused bytes out of it (what Node does for `randomUUID`).
 * A byte is handed out once, and wiped from the pool as it is.
 */
export function secureRandomBytes(length: number): Buffer {
  if (length > LARGEST_POOLED) return randomBytes(length);
  if (offset + length > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.allocUnsafe(length);
  pool.copy(bytes, 0, offset, offset + length);
  pool.fill(0, offset, offset + length);
  offset += length;
  return bytes;
}
