import { Iso8583JsFields } from '@app/iso8583/test/iso-8583-js';

/**
 * Reading what the connector sends without our code: a hand-written BER-TLV reader and writer,
 * field 55 found in the bytes by hand (the npm package `iso_8583` reads every field as text, so
 * binary 55 arrives garbled), and local times worked out by hand. Nothing here uses the
 * connector's codec, dialect or TLV code.
 */

// ---- hand-written BER-TLV (EMV book 3, annex B), for building card data and reading field 55 ----

export interface Tlv {
  tag: string;
  value: string;
}

function encodeLength(length: number): string {
  const hex = length.toString(16).padStart(2, '0');
  if (length < 0x80) return hex;
  return length < 0x100 ? `81${hex}` : `82${length.toString(16).padStart(4, '0')}`;
}

/** BER-TLV of `items` as uppercase hex. */
export const encodeTlvByHand = (items: Tlv[]): string => items.map(({ tag, value }) => `${tag}${encodeLength(value.length / 2)}${value}`).join('').toUpperCase();

/** The BER-TLV objects of `bytes` (primitive, one level). */
export function decodeTlvByHand(bytes: Buffer): Tlv[] {
  const items: Tlv[] = [];
  let at = 0;
  while (at < bytes.length) {
    let end = at + 1;
    if ((bytes[at] & 0x1f) === 0x1f) while (bytes[end++] & 0x80);
    const tag = bytes.subarray(at, end).toString('hex').toUpperCase();
    let length = bytes[end++];
    if (length & 0x80) {
      const count = length & 0x7f;
      length = bytes.subarray(end, end + count).reduce((sum, byte) => sum * 256 + byte, 0);
      end += count;
    }
    if (end + length > bytes.length) throw new Error(`tag ${tag} runs past the end of field 55`);
    items.push({ tag, value: bytes.subarray(end, end + length).toString('hex').toUpperCase() });
    at = end + length;
  }
  return items;
}

// ---- field 55 by hand, located with iso_8583's reading of every other field ----

const ISO_8583_FORMATS = require('iso_8583/lib/formats.js') as Record<string, { ContentType: string; LenType: string }>;
const PREFIX_DIGITS: Record<string, number> = { fixed: 0, llvar: 2, lllvar: 3 };

/** Bytes a field iso_8583 read as `value` takes on the wire: its length digits, then its content (a `b` field as hex text counts half). */
function wireLength(field: number, value: string): number {
  const format = ISO_8583_FORMATS[field];
  const digits = PREFIX_DIGITS[format.LenType];
  if (digits === undefined) throw new Error(`field ${field}: length type ${format.LenType} is not walked here`);
  return digits + (format.ContentType === 'b' && format.LenType === 'fixed' ? value.length / 2 : Buffer.byteLength(value, 'latin1'));
}

/**
 * The bytes of field 55 of `payload` (MTI, bitmap, fields; no length header): steps over the MTI,
 * the bitmaps and each field before 55 as iso_8583 read it, reads 55's three ASCII length digits
 * and that many bytes, then steps over each field after it, which must end the message exactly.
 */
export function field55Of(payload: Buffer, read: Iso8583JsFields): Buffer {
  const present = Object.keys(read)
    .map(Number)
    .filter((field) => field > 1)
    .sort((a, b) => a - b);
  let at = 4 + ((payload[4] & 0x80) !== 0 ? 16 : 8);
  for (const field of present.filter((n) => n < 55)) at += wireLength(field, read[field]);
  const digits = payload.subarray(at, at + 3).toString('latin1');
  expect(digits).toMatch(/^[0-9]{3}$/);
  const icc = payload.subarray(at + 3, at + 3 + Number(digits));
  at += 3 + Number(digits);
  for (const field of present.filter((n) => n > 55)) {
    const length = wireLength(field, read[field]);
    expect(payload.subarray(at + PREFIX_DIGITS[ISO_8583_FORMATS[field].LenType], at + length).toString('latin1')).toBe(read[field]);
    at += length;
  }
  expect(at).toBe(payload.length);
  return Buffer.from(icc);
}

// ---- the local clock, by hand, in zones that keep one offset all year ----

/** Zones without daylight saving time, with their offset from UTC in minutes. */
export const FIXED_ZONES: ReadonlyArray<[string, number]> = [
  ['Asia/Kuala_Lumpur', 480],
  ['Asia/Kathmandu', 345],
  ['Asia/Kolkata', 330],
  ['Pacific/Kiritimati', 840],
  ['Etc/GMT+12', -720],
  ['America/Caracas', -240],
  ['Asia/Tokyo', 540],
  ['UTC', 0],
];

/** Fields 12 (hhmmss) and 13 (MMDD) at `offset` minutes from field 7 (UTC MMDDhhmmss). */
export function localOf(transmittedAt: string, offset: number, now = new Date()): { 12: string; 13: string } {
  const [month, day, hour, minute, second] = (transmittedAt.match(/\d\d/g) ?? []).map(Number);
  const year = now.getUTCFullYear() - (month === 12 && now.getUTCMonth() === 0 ? 1 : 0);
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second) + offset * 60_000);
  const two = (value: number) => String(value).padStart(2, '0');
  return { 12: `${two(local.getUTCHours())}${two(local.getUTCMinutes())}${two(local.getUTCSeconds())}`, 13: `${two(local.getUTCMonth() + 1)}${two(local.getUTCDate())}` };
}

/** ISO 3166 alpha-2 → numeric, from the standard (not from our table). */
export const COUNTRIES: ReadonlyArray<[string, string]> = [
  ['MY', '458'],
  ['US', '840'],
  ['SG', '702'],
  ['ID', '360'],
  ['GB', '826'],
  ['JP', '392'],
  ['AE', '784'],
];
