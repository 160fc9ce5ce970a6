/**
 * bench:decode — decodes per second of a `gateway.transaction.updated.v1` payload (already parsed
 * JSON, as the order consumer gets it), the hand-written decoder the consumer uses
 * (`decodeGatewayTransactionUpdatedV1`) against class-transformer + class-validator
 * (`decodeByDecorators`, what `decodeContract` ran before the hand-written decoder was registered with it) on the same payload in the same run (bench/throughput.ts), for an approved
 * sale as bench:sale makes them and for a sale with three refunds. Both must decode the payload to
 * the same value first. Rewrites the bench:decode section of docs/benchmarks.md.
 *   npm run bench:decode [-- --seconds 4]
 * No target: the ratio is the figure. BENCH_SMOKE=1 (bench/options.ts): half a second per payload.
 */
import { decodeByDecorators, decodeGatewayTransactionUpdatedV1, GatewayTransactionUpdatedV1, GatewayTransactionV1, unsafeShapeOf } from '@app/contracts';
import { cpus, loadavg } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { approvedSale, updated, versionsOf } from '../apps/transactions/test/factories';
import { option } from './options';
import { writeBenchmarkSection } from './report';
import { compareThroughput, ThroughputPair } from './throughput';

/** The gateway's event of `transaction`, with the optional fields it fills today, as parsed JSON. */
function event(transaction: GatewayTransactionV1, version: number): unknown {
  const full: GatewayTransactionV1 = {
    ...transaction,
    acceptanceName: 'Visa acquirer',
    timeZone: 'Asia/Kuala_Lumpur',
    preferredAcceptanceTag: null,
    extraData: null,
    transStatusInfo: null,
    actions: transaction.actions.map((each) => ({ ...each, tranId: transaction.tranId, batchNo: '000001', extraData: null, reversal: null })),
  };
  return JSON.parse(JSON.stringify({ ...updated(full, version, 'grp_bench', 'mer_bench'), acquirerKey: 'ref:1' }));
}

/** What `decodeContract` did before the hand-written decoder was registered with it: the shape walk, then class-transformer and class-validator. */
function byDecorators(payload: unknown): GatewayTransactionUpdatedV1 {
  if (unsafeShapeOf(payload) !== undefined) throw new Error('bench:decode: an unsafe payload');
  return decodeByDecorators(GatewayTransactionUpdatedV1, payload as object);
}

async function measure(name: string, payload: unknown, seconds: number): Promise<ThroughputPair & { name: string }> {
  const fast = decodeGatewayTransactionUpdatedV1(payload);
  const slow = byDecorators(payload);
  // Same value and same classes: own undefined fields aside (class-transformer's instances have them).
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(fast)), JSON.parse(JSON.stringify(slow))) || !(fast.transaction instanceof GatewayTransactionV1)) {
    throw new Error(`bench:decode: the decoders disagree on ${name}`);
  }
  const pair = await compareThroughput(
    () => decodeGatewayTransactionUpdatedV1(payload),
    () => byDecorators(payload),
    seconds,
  );
  return { name, ...pair };
}

async function main(): Promise<void> {
  const seconds = option('seconds', 4, 0.5);
  const load = loadavg().map((value) => value.toFixed(1));
  console.log(`bench:decode on ${cpus().length} cores, node ${process.version}, ${seconds} s per payload, load average ${load.join(' ')}`);
  const sale = approvedSale();
  const results = [
    await measure('approved sale (1 action)', event(sale, 1), seconds),
    await measure('sale with three refunds (4 actions)', event(versionsOf(approvedSale({ minor: 100_000 }), 4)[3], 4), seconds),
  ];
  const int = (value: number): string => value.toLocaleString('en-US');
  for (const r of results) console.log(`  ${r.name}: hand-written ${int(r.aOpsPerSec)}/s, class-validator ${int(r.bOpsPerSec)}/s, ratio ${r.ratio}x`);

  writeBenchmarkSection(
    'decode',
    [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, load average ${load.join(' / ')} at the start (1, 5, 15 min).`,
      '',
      '| payload | hand-written decodes/s | class-validator decodes/s | ratio |',
      '|---|---|---|---|',
      ...results.map((r) => `| ${r.name} | ${int(r.aOpsPerSec)} | ${int(r.bOpsPerSec)} | ${r.ratio}x |`),
      '',
      'Method. One parsed payload per row, decoded again and again by each decoder in the same process: `decodeGatewayTransactionUpdatedV1` (the order consumer\'s) and `decodeByDecorators(GatewayTransactionUpdatedV1, …)` (class-transformer then class-validator, as `decodeContract` decoded it before the hand-written decoder was registered with it; now it asks them only to word a refusal), both warmed up, then short rounds alternating between them for the given seconds (bench/throughput.ts), after checking that both decode it to the same value. Both include the payload\'s shape walk (`unsafeShapeOf`). On a shared machine read the ratio, not the rates.',
    ],
    'The contract decode of `gateway.transaction.updated.v1` in the order consumer: the hand-written decoder against class-transformer + class-validator, same payload, same run. Run `npm run bench:decode` (no services needed).',
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
