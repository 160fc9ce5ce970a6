import { secureRandomBytes } from '@app/common';

let lastMs = 0;
let counter = 0;

/**
 * A UUIDv7 (RFC 9562): time-ordered, with a 12-bit counter (method 1) so ids made by this process
 * in the same millisecond still increase. Outbox rows written in one transaction share
 * `created_at` (it is the transaction's `now()`), and the id is what keeps their order.
 */
export function uuidV7(now: number = Date.now()): string {
  let ms = now;
  if (ms > lastMs) {
    counter = 0;
  } else {
    // Same millisecond, or the clock stepped back: keep increasing from the last id.
    ms = lastMs;
    counter += 1;
    if (counter > 0xfff) {
      ms += 1;
      counter = 0;
    }
  }
  lastMs = ms;
  const bytes = secureRandomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  return formatUuid(bytes.toString('hex'));
}

/** The smallest UUIDv7 of millisecond `ms`: every id made at or after `ms` sorts at or above it. */
export function uuidV7Floor(ms: number): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(Math.max(0, Math.floor(ms)), 0, 6);
  return formatUuid(bytes.toString('hex'));
}

function formatUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
