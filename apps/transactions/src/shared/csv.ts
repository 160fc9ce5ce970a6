/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. A field that
 * a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return first) gets a
 * leading apostrophe (OWASP "CSV injection"), so a merchant name cannot become a formula in the
 * reader's spreadsheet.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text with CRLF line ends (RFC 4180), header first. */
export function csvText(header: string[], rows: Array<Array<string | number | null>>): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
