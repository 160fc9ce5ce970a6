function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/**
 * Formats an instant as the envelope APIs show it: `yyyy-mm-ddThh:mm:ss+0000`, always in UTC,
 * numeric offset without a colon (docs/decisions.md, "Timestamps").
 */
export function formatTimestamp(value: Date): string;
export function formatTimestamp(value: Date | null | undefined): string | null;
export function formatTimestamp(value: Date | null | undefined): string | null {
  if (!value) return null;
  return (
    `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}` +
    `T${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())}+0000`
  );
}
