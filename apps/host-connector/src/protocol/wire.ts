import { AnyHostRequest, HostOperation, HostRequestOf, requestMtiOf, timeZoneOf, WireContext, wireContextAt } from '@app/host-protocol';

/** The wire context of one outgoing request at `now`: field 7 in UTC, fields 12 and 13 on its merchant's clock. */
export function wireContextOf(request: AnyHostRequest, stan: string, now: Date, repeat = false): WireContext {
  return wireContextAt(stan, now, timeZoneOf(request), repeat);
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
