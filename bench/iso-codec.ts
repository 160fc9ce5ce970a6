/**
 * Codec part of bench:iso — pack + unpack per second of a full 0200 sale with field 55 (20 EMV
 * tags), our ISO8583 preset against the npm package `iso_8583` on the same message in the same
 * run, alike (bench/throughput.ts: both warmed up, then short rounds alternating between them).
 */
import { ISO8583, Iso8583Message, pack, unpack } from '@app/iso8583';
import { ISO_8583_JS_ICC_FORMAT, Iso8583Js, Iso8583JsFields, orThrow } from '@app/iso8583/test/iso-8583-js';
import { iccData } from '@app/iso8583/test-factories';
import { isDeepStrictEqual } from 'node:util';
import { compareThroughput } from './throughput';

export interface CodecBenchResult {
  oursOpsPerSec: number;
  theirsOpsPerSec: number;
  /** ours / theirs. */
  ratio: number;
}

/** A full contact EMV sale as a terminal sends it. */
export function benchSale(): Iso8583Message {
  return {
    mti: '0200',
    fields: {
      2: '4761739001010119',
      3: '000000',
      4: '000000001000',
      7: '0911131411',
      11: '000001',
      12: '131411',
      13: '0911',
      14: '2212',
      22: '051',
      23: '001',
      25: '00',
      35: '4761739001010119=22122011758928889',
      37: '000000123456',
      41: 'TERM0001',
      42: 'MERCHANT0000001',
      43: 'SOFTPOS DEMO SHOP       CASABLANCA    MA',
      49: '504',
      55: iccData(),
    },
  };
}

/** The same sale as `iso_8583` holds it: text fields, field 55 as hex (its only way to carry ICC data). */
function asTheirs(message: Iso8583Message): Iso8583JsFields {
  const fields: Iso8583JsFields = { 0: message.mti };
  for (const [number, value] of Object.entries(message.fields)) fields[number] = Buffer.isBuffer(value) ? value.toString('hex').toUpperCase() : value;
  return fields;
}

/** Measures both codecs for about `seconds` (default 6) after a warm-up; throws if either gets the sale wrong. */
export async function runCodecBench(options: { seconds?: number } = {}): Promise<CodecBenchResult> {
  const seconds = options.seconds ?? 6;
  const sale = benchSale();
  const theirsSale = asTheirs(sale);

  const ours = (): Iso8583Message => unpack(ISO8583, pack(ISO8583, sale));
  const theirs = (): Iso8583JsFields => {
    const raw = orThrow(new Iso8583Js(theirsSale, ISO_8583_JS_ICC_FORMAT).getRawMessage());
    return orThrow(new Iso8583Js(undefined, ISO_8583_JS_ICC_FORMAT).getIsoJSON(raw, { lenHeader: false }));
  };
  // Both must do the whole job before their speed means anything.
  if (!isDeepStrictEqual(ours(), sale)) throw new Error('bench: our codec did not give the sale back');
  if (!isDeepStrictEqual(theirs(), theirsSale)) throw new Error('bench: iso_8583 did not give the sale back');

  const { aOpsPerSec: oursOpsPerSec, bOpsPerSec: theirsOpsPerSec, ratio } = await compareThroughput(ours, theirs, seconds);
  return { oursOpsPerSec, theirsOpsPerSec, ratio };
}
