import { HOST_AUTHORIZE_V1, HOST_CAPTURE_V1, HOST_REVERSE_V1 } from '@app/contracts';
import { ICC_REQUEST_TAGS } from '@app/host-protocol';
import { Iso8583JsFields } from '@app/iso8583/test/iso-8583-js';
import { waitFor } from '@app/testing';
import fc from 'fast-check';
import { authorizePayload, followUpPayload, merchantOf } from './factories';
import { ConnectorHarness, startConnector } from './harness';
import { answerOf, IndependentHost } from './independent-host';

/**
 * What the connector SENDS, read by a decoder that is not ours: every request as the npm package
 * `iso_8583` reads it (independent-host.ts), and field 55, which `iso_8583` can only read as text,
 * from the bytes by hand (the walk below, which steps over the fields before it as `iso_8583`'s
 * own field table says, and checks it lands on every field after it). Nothing here goes through
 * the connector's codec, dialect or TLV code.
 */

// ---- hand-written BER-TLV (EMV book 3, annex B), for building card data and reading field 55 ----

interface Tlv {
  tag: string;
  value: string;
}

function encodeLength(length: number): string {
  const hex = length.toString(16).padStart(2, '0');
  if (length < 0x80) return hex;
  return length < 0x100 ? `81${hex}` : `82${length.toString(16).padStart(4, '0')}`;
}

const encode = (items: Tlv[]): string => items.map(({ tag, value }) => `${tag}${encodeLength(value.length / 2)}${value}`).join('').toUpperCase();

function decode(bytes: Buffer): Tlv[] {
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
function field55Of(payload: Buffer, read: Iso8583JsFields): Buffer {
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
const FIXED_ZONES: ReadonlyArray<[string, number]> = [
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
function localOf(transmittedAt: string, offset: number, now = new Date()): { 12: string; 13: string } {
  const [month, day, hour, minute, second] = (transmittedAt.match(/\d\d/g) ?? []).map(Number);
  const year = now.getUTCFullYear() - (month === 12 && now.getUTCMonth() === 0 ? 1 : 0);
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second) + offset * 60_000);
  const two = (value: number) => String(value).padStart(2, '0');
  return { 12: `${two(local.getUTCHours())}${two(local.getUTCMinutes())}${two(local.getUTCSeconds())}`, 13: `${two(local.getUTCMonth() + 1)}${two(local.getUTCDate())}` };
}

/** ISO 3166 alpha-2 → numeric, from the standard (not from our table). */
const COUNTRIES: ReadonlyArray<[string, string]> = [
  ['MY', '458'],
  ['US', '840'],
  ['SG', '702'],
  ['ID', '360'],
  ['GB', '826'],
  ['JP', '392'],
  ['AE', '784'],
];

describe('host-connector conformance: what it sends, read by iso_8583 and by hand', () => {
  let connector: ConnectorHarness;
  let host: IndependentHost;

  beforeAll(async () => {
    connector = await startConnector();
  });

  afterAll(() => connector.close());

  beforeEach(async () => {
    host = await IndependentHost.start();
  });

  afterEach(async () => {
    expect(host.errors).toEqual([]);
    await host.close();
  });

  const iso = () => ({ hostMessageFormat: 'ISO8583' as const, connUrl: host.url });

  describe('field 55', () => {
    const hexOf = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map((bytes) => Buffer.from(bytes).toString('hex').toUpperCase());
    // Card data (PAN, expiry, track 2, name) that must stay out of 55, and up to 12 chip tags in any order, one maybe long enough for a two-byte length.
    const cardData = fc.record({
      icc: fc.uniqueArray(fc.constantFrom(...ICC_REQUEST_TAGS), { minLength: 1, maxLength: 12 }).chain((tags) =>
        fc.tuple(...tags.map((tag, i) => hexOf(1, i === 0 ? 200 : 32).map((value) => ({ tag, value })))),
      ),
      at: fc.nat(),
    });

    it('should carry the card’s chip tags intact, in the card’s order, and none of its card data', async () => {
      await fc.assert(
        fc.asyncProperty(cardData, async ({ icc, at }) => {
          host.received.length = 0;
          host.raw.length = 0;
          const pan = '4761739001010119';
          const card = [{ tag: '5A', value: pan }, { tag: '5F24', value: '271231' }, { tag: '57', value: `${pan}D2712201175892888F` }, { tag: '5F20', value: Buffer.from('TAN/AH KOW').toString('hex') }];
          const items = [...icc];
          items.splice(at % (items.length + 1), 0, ...card);

          const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('2500', iso(), { card: { emvTlv: encode(items), entryMode: 'NFC' } }));

          expect(reply).toMatchObject({ result: 'APPROVED' });
          const [sale] = host.received;
          expect([sale[0], sale[2], sale[14], sale[35]]).toEqual(['0200', pan, '2712', `${pan}=2712201175892888`]);
          const field55 = field55Of(host.raw[0], sale);
          expect(decode(field55)).toEqual(icc);
          expect(field55.toString('hex').toUpperCase()).not.toContain(pan);
        }),
        { numRuns: 25 },
      );
    });
  });

  describe('reversals: 0420 for an advice, the original’s POS condition', () => {
    it.each([
      ['a sale', 'SALE', '0200', '0400', '000000', '00'],
      ['a refund', 'REFUND', '0200', '0400', '200000', '00'],
      ['a pre-authorisation', 'PREAUTH', '0100', '0400', '000000', '06'],
      ['a completion (an advice)', 'CAPTURE', '0220', '0420', '000000', '06'],
    ])('should reverse %s (%s, an original %s) as %s, with the original’s processing code and POS condition, naming it in 90', async (_name, kind, originalMti, mti, processing, condition) => {
      const original = { kind, mti: originalMti, stan: '000123', transmittedAt: '0102030405', rrn: '000000123456', approvalCode: 'A1B2C3' };

      const reply = await connector.ask(HOST_REVERSE_V1, followUpPayload('700', iso(), { original }));

      expect(reply).toMatchObject({ result: 'APPROVED', mti });
      expect(host.received.map((request) => [request[0], request[3], request[25], request[4], request[90]])).toEqual([
        [mti, processing, condition, '000000000700', `${originalMti}0001230102030405${'0'.repeat(22)}`],
      ]);
    });

    it('should reverse a completion the host never answered as 0420, and repeat that reversal as 0421 with the same STAN until answered', async () => {
      let reversals = 0;
      host.handler = (request) => (request[0] === '0220' || ++reversals === 1 ? null : answerOf(request, '00'));
      const original = { kind: 'PREAUTH', mti: '0100', stan: '000321', transmittedAt: '0102030405', rrn: '000000654321', approvalCode: 'B1C2D3' };

      const reply = await connector.ask(HOST_CAPTURE_V1, followUpPayload('4200', iso(), { original, timeoutMs: 300 }));

      expect(reply).toMatchObject({ result: 'REVERSED', mti: '0220' });
      await waitFor('the repeated reversal to be answered', () => reversals >= 2);
      const [completion, reversal, repeat] = host.received;
      expect(host.received.map((request) => [request[0], request[3], request[25], request[4]])).toEqual([
        ['0220', '000000', '06', '000000004200'],
        ['0420', '000000', '06', '000000004200'],
        ['0421', '000000', '06', '000000004200'],
      ]);
      // The reversal names the completion it undoes; its repeat is the same message again.
      expect(reversal[90].slice(0, 20)).toBe(`0220${completion[11]}${completion[7]}`);
      expect([repeat[11], repeat[90]]).toEqual([reversal[11], reversal[90]]);
    });
  });

  describe('POS condition 06: a pre-authorisation and its completion', () => {
    it('should send the pre-authorisation (0100) and its completion (0220) with 25 = 06, the completion naming the 0100 in 90', async () => {
      const preauth = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('5000', iso(), { kind: 'PREAUTH' }));
      expect(preauth).toMatchObject({ result: 'APPROVED', mti: '0100' });
      const original = { kind: 'PREAUTH', mti: '0100', stan: preauth.stan, transmittedAt: preauth.transmittedAt, rrn: preauth.rrn, approvalCode: preauth.approvalCode };

      const capture = await connector.ask(HOST_CAPTURE_V1, followUpPayload('4200', iso(), { original }));

      expect(capture).toMatchObject({ result: 'APPROVED', mti: '0220' });
      const [first, completion] = host.received;
      expect([first[0], first[3], first[25], first[4]]).toEqual(['0100', '000000', '06', '000000005000']);
      expect([completion[0], completion[3], completion[25], completion[4]]).toEqual(['0220', '000000', '06', '000000004200']);
      expect(completion[90].slice(0, 20)).toBe(`0100${String(preauth.stan)}${String(preauth.transmittedAt)}`);
      expect([completion[37], completion[38]]).toEqual([preauth.rrn, preauth.approvalCode]);
    });

    it('should send a sale with 25 = 00', async () => {
      await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('5000', iso()));
      expect([host.received[0][0], host.received[0][25]]).toEqual(['0200', '00']);
    });
  });

  describe('fields 12, 13, 18, 19 and 43: the merchant the request names', () => {
    it('should send 12/13 as the merchant’s wall clock at field 7’s instant, in any zone', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...FIXED_ZONES), fc.constantFrom('authorize', 'capture', 'reverse'), async ([timeZone, offset], operation) => {
          host.received.length = 0;
          const merchant = merchantOf({ timeZone });
          if (operation === 'authorize') await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', iso(), { merchant }));
          else await connector.ask(operation === 'capture' ? HOST_CAPTURE_V1 : HOST_REVERSE_V1, followUpPayload('1000', iso(), { merchant }));

          const [request] = host.received;
          expect({ 12: request[12], 13: request[13] }).toEqual(localOf(request[7], offset));
        }),
        { numRuns: 16 },
      );
    });

    const word = fc.stringMatching(/^[A-Za-z0-9&.'-]{1,9}$/);
    const words = (max: number) => fc.array(word, { minLength: 1, maxLength: max }).map((parts) => parts.join(' '));
    const merchants = fc.record({
      name: words(5),
      city: fc.option(words(3), { nil: null }),
      country: fc.option(fc.constantFrom(...COUNTRIES), { nil: null }),
      mcc: fc.option(fc.stringMatching(/^[0-9]{4}$/), { nil: null }),
      subMerchantName: fc.option(words(3), { nil: undefined }),
    });

    it('should send the merchant’s name, city and country in 43 as ISO 8583:1987 lays it out, its MCC in 18 and its country’s numeric code in 19', async () => {
      await fc.assert(
        fc.asyncProperty(merchants, async ({ name, city, country, mcc, subMerchantName }) => {
          host.received.length = 0;
          const merchant = { ...merchantOf(), name, city, country: country?.[0] ?? null, mcc, ...(subMerchantName === undefined ? {} : { subMerchantName }) };

          await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', iso(), { merchant }));

          const [sale] = host.received;
          // A facilitator's sub-merchant: the facilitator's name cut to 12 (trailing space dropped), a star, the sub-merchant.
          const shown = subMerchantName === undefined ? name : `${name.slice(0, 12).trimEnd()}*${subMerchantName}`;
          expect(sale[43]).toBe(`${shown.slice(0, 25).padEnd(25)}${(city ?? '').slice(0, 13).padEnd(13)}${country?.[0] ?? '  '}`);
          expect(sale[18]).toBe(mcc ?? undefined);
          expect(sale[19]).toBe(country?.[1]);
        }),
        { numRuns: 25 },
      );
    });
  });
});
