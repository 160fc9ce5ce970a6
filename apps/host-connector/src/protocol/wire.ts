import {
  AnyHostRequest,
  HostBatchUploadRequest,
  HostOperation,
  HostRequestOf,
  instantOfTransmission,
  localDateTime,
  requestMtiOf,
  timeZoneOf,
  WireContext,
  wireContextAt,
} from '@app/host-protocol';

/**
 * The wire context of one outgoing request at `now`: field 7 in UTC, fields 12 and 13 on its
 * merchant's clock. A batch upload (0320) carries in 12 and 13 its transaction's own local time
 * and date, which hosts match uploads on: the merchant's clock at the original's field 7.
 */
export function wireContextOf(request: AnyHostRequest, stan: string, now: Date, repeat = false): WireContext {
  const context = wireContextAt(stan, now, timeZoneOf(request), repeat);
  const uploaded = (request as Partial<HostBatchUploadRequest>).transaction?.original.transmittedAt;
  const sentAt = uploaded === undefined ? null : instantOfTransmission(uploaded, now);
  if (sentAt === null) return context;
  const local = localDateTime(sentAt, timeZoneOf(request));
  return { ...context, localTime: local.time, localDate: local.date };
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
