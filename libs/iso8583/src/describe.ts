import { Iso8583Message } from './message';

/** Fields masked in full by default: track 2, track 3, track 1, PIN block, ICC data (EMV tags 57/5A carry card data; per-tag masking comes with the TLV parser). */
export const FULLY_MASKED_FIELDS: readonly number[] = [35, 36, 45, 52, 55];

/** A log-safe view of a message: MTI and fields as text (bytes as uppercase hex). */
export interface MessageDescription {
  mti: string;
  fields: Record<string, string>;
}

/** PAN with only the first 6 and last 4 digits kept (PCI DSS); a short PAN is masked in full. */
export function maskPan(pan: string): string {
  if (pan.length < 13) return '*'.repeat(pan.length);
  return `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`;
}

/**
 * Renders a message for logs. Masking is on by default: PAN (2) keeps first 6 + last 4, track data
 * (35, 36, 45), PIN (52) and ICC data (55) are replaced entirely. `{ unmasked: true }` is for local
 * debugging only.
 */
export function describe(message: Iso8583Message, options: { unmasked?: boolean } = {}): MessageDescription {
  const fields: Record<string, string> = {};
  const numbers = Object.keys(message.fields)
    .map(Number)
    .sort((a, b) => a - b);
  for (const number of numbers) {
    const raw = message.fields[number];
    const text = Buffer.isBuffer(raw) ? raw.toString('hex').toUpperCase() : String(raw);
    if (options.unmasked) fields[number] = text;
    else if (number === 2) fields[number] = maskPan(text);
    else if (FULLY_MASKED_FIELDS.includes(number)) fields[number] = `[masked ${Buffer.isBuffer(raw) ? 'bytes' : 'text'}]`;
    else fields[number] = text;
  }
  return { mti: message.mti, fields };
}
