import { HostOperation, HostRequestOf, requestMtiOf, WireContext } from '@app/host-protocol';

const two = (n: number) => String(n).padStart(2, '0');

/** The wire context of one outgoing message at `now`: fields 7 (MMDDhhmmss), 12 (hhmmss) and 13 (MMDD), all UTC. */
export function wireContextAt(stan: string, now: Date, repeat = false): WireContext {
  const date = `${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())}`;
  const time = `${two(now.getUTCHours())}${two(now.getUTCMinutes())}${two(now.getUTCSeconds())}`;
  return { stan, transmittedAt: `${date}${time}`, localTime: time, localDate: date, ...(repeat ? { repeat: true } : {}) };
}

/** STANs run 000001 … 999999, then wrap to 000001. */
export function formatStan(value: number): string {
  return String(value).padStart(6, '0');
}

/**
 * The ISO 8583 MTI an operation stands for (`requestMtiOf` of the ISO mapping, never a repeat).
 * JSON hosts have no MTI; replies still carry this one, so a caller references a JSON transaction
 * the same way as an ISO one.
 */
export function logicalMtiOf<O extends HostOperation>(operation: O, request: HostRequestOf[O]): string {
  return requestMtiOf(operation, request);
}
