/**
 * Formats an instant as the gateway shows it (spec section 1 rule 6): ISO 8601 in UTC with six
 * fractional digits and a numeric offset, `2025-01-31T08:15:30.123000+00:00`. Stored instants
 * have millisecond precision, so the last three digits are zero.
 */
export function formatGatewayTimestamp(value: Date): string;
export function formatGatewayTimestamp(value: Date | null): string | null;
export function formatGatewayTimestamp(value: Date | null): string | null {
  if (!value) return null;
  const iso = value.toISOString(); // yyyy-mm-ddThh:mm:ss.sssZ
  return `${iso.slice(0, 23)}000+00:00`;
}
