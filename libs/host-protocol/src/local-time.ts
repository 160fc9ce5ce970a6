import { HostMerchantV1, wallClockAt } from '@app/contracts';
import { AnyHostRequest, WireContext } from './dialect';

/**
 * The wall clock of `timeZone` at `instant`: `date` MMDD (field 13) and `time` hhmmss (field 12).
 * Throws a RangeError for a zone the runtime does not know (the contracts admit only known ones).
 */
export function localDateTime(instant: Date, timeZone: string): { date: string; time: string } {
  const clock = wallClockAt(instant, timeZone);
  return { date: `${clock.month}${clock.day}`, time: `${clock.hour}${clock.minute}${clock.second}` };
}

/** The time zone a request's local date and time are in: its merchant's, UTC for a request without one (network management, reversals queued before requests carried the merchant). */
export function timeZoneOf(request: AnyHostRequest): string {
  const merchant = (request as { merchant?: HostMerchantV1 }).merchant;
  return merchant?.timeZone ?? 'UTC';
}

const two = (n: number) => String(n).padStart(2, '0');

/** Field 7 at `instant`: MMDDhhmmss in UTC ("GMT", ISO 8583:1987). */
export function transmissionTimeOf(instant: Date): string {
  return `${two(instant.getUTCMonth() + 1)}${two(instant.getUTCDate())}${two(instant.getUTCHours())}${two(instant.getUTCMinutes())}${two(instant.getUTCSeconds())}`;
}

const DAY_MS = 86_400_000;

/**
 * The instant a field 7 (MMDDhhmmss in UTC, no year) sent by `now` stands for: the latest such
 * instant not after `now` (a day of leeway for clocks apart), 29 February only in a leap year;
 * null when `transmittedAt` is no date.
 */
export function instantOfTransmission(transmittedAt: string, now: Date): Date | null {
  const match = /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(transmittedAt);
  if (match === null) return null;
  const [month, day, hour, minute, second] = match.slice(1).map(Number);
  if (hour > 23 || minute > 59 || second > 59) return null;
  for (let year = now.getUTCFullYear() + 1; year >= now.getUTCFullYear() - 8; year -= 1) {
    const instant = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
    if (instant.getUTCMonth() !== month - 1 || instant.getUTCDate() !== day) continue;
    if (instant.getTime() <= now.getTime() + DAY_MS) return instant;
  }
  return null;
}

/**
 * The wire context of one outgoing message at `now`: field 7 (MMDDhhmmss) in UTC as ISO 8583
 * says ("GMT"), fields 12 (hhmmss) and 13 (MMDD) on the merchant's wall clock.
 */
export function wireContextAt(stan: string, now: Date, timeZone: string, repeat = false): WireContext {
  const transmittedAt = transmissionTimeOf(now);
  const local = localDateTime(now, timeZone);
  return { stan, transmittedAt, localTime: local.time, localDate: local.date, ...(repeat ? { repeat: true } : {}) };
}
