/**
 * Codec part of bench:iso — pack + unpack per second of a full 0200 sale with field 55 (20 EMV
 * tags), our ISO8583 preset against the npm package `iso_8583` on the same message in the same
 * run. Both are warmed up first; then short rounds alternate between them, so a slower moment of
 * the machine (2 cores, shared) falls on both sides alike.
 */
import { ISO8583, Iso8583Message, pack, unpack } from '@app/iso8583';
import { ISO_8583_JS_ICC_FORMAT, Iso8583Js, Iso8583JsFields, orThrow } from '@app/iso8583/test/iso-8583-js';
import { iccData } from '@app/iso8583/test-factories';
import { isDeepStrictEqual } from 'node:util';

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

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs `op` in batches until `ms` have passed; returns operations done and nanoseconds spent. */
function timed(op: () => void, ms: number): { ops: number; ns: bigint } {
  const batch = 64;
  const started = process.hrtime.bigint();
  const until = started + BigInt(Math.round(ms * 1e6));
  let ops = 0;
  let now = started;
  while (now < until) {
    for (let i = 0; i < batch; i++) op();
    ops += batch;
    now = process.hrtime.bigint();
  }
  return { ops, ns: now - started };
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

  const warmUpMs = Math.min(1000, (seconds * 1000) / 6);
  timed(ours, warmUpMs);
  timed(theirs, warmUpMs);
  await yieldToLoop();

  const rounds = Math.max(2, Math.round(seconds * 4));
  const roundMs = (seconds * 1000) / rounds / 2;
  const totals = { ours: { ops: 0, ns: 0n }, theirs: { ops: 0, ns: 0n } };
  for (let round = 0; round < rounds; round++) {
    // Alternate which side goes first, so neither always follows the other's garbage.
    const order = round % 2 === 0 ? (['ours', 'theirs'] as const) : (['theirs', 'ours'] as const);
    for (const side of order) {
      const { ops, ns } = timed(side === 'ours' ? ours : theirs, roundMs);
      totals[side].ops += ops;
      totals[side].ns += ns;
    }
    await yieldToLoop();
  }
  const perSecond = ({ ops, ns }: { ops: number; ns: bigint }): number => Math.round((ops * 1e9) / Number(ns));
  const oursOpsPerSec = perSecond(totals.ours);
  const theirsOpsPerSec = perSecond(totals.theirs);
  return { oursOpsPerSec, theirsOpsPerSec, ratio: Math.round((oursOpsPerSec / theirsOpsPerSec) * 10) / 10 };
}
