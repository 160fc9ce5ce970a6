/**
 * bench:iso — the ISO 8583 codec: pack + unpack per second of a full 0200 with field 55, our
 * ISO8583 preset against the npm package `iso_8583` in the same run (target: ours at least 5x);
 * then end to end: `host.authorize.v1` per second and p50/p99 latency through NATS → host-connector
 * (own process, scratch database) → host simulator (own process) over TCP, against a NATS
 * request/reply echo baseline measured in the same run. Rewrites the bench:iso section of
 * docs/benchmarks.md.
 *   npm run bench:iso [-- --seconds 6 --e2e-seconds 5 --in-flight 32 --tids 8 --shared-subjects]
 * NATS at NATS_URL (default nats://127.0.0.1:4222); PostgreSQL at DATABASE_URL, else an embedded
 * server (scripts/with-database.ts). Fails (exit code 1) when the codec ratio misses its target,
 * a phase gets no answer, or more than 0.1% of the measured authorizations are not APPROVED.
 * BENCH_SMOKE=1 (bench/options.ts): half a second of codec, 1 s phases, 4 in flight, 2 terminals,
 * no codec target.
 */
import { cpus } from 'node:os';
import { withScratchDatabase } from '../scripts/with-database';
import { CodecBenchResult, runCodecBench } from './iso-codec';
import { E2eResult, PhaseResult, runE2eBench } from './iso-e2e';
import { option, SMOKE } from './options';
import { writeBenchmarkSection } from './report';

const TARGET_RATIO = 5;
/** Largest share of measured authorizations that may end other than APPROVED. */
const MAX_ERROR_RATE = 0.001;
const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

async function main(): Promise<void> {
  const seconds = option('seconds', 6, 0.5);
  const e2eSeconds = option('e2e-seconds', 5, 1);
  const inFlight = option('in-flight', 32, 4);
  const tids = option('tids', 8, 2);
  console.log(`bench:iso on ${cpus().length} cores, node ${process.version}, ${seconds} s per codec pair, ${e2eSeconds} s per end-to-end phase`);

  const codec = await runCodecBench({ seconds });
  console.log('codec: pack + unpack of a full 0200 with field 55 (20 EMV tags)');
  console.log(`  ours (ISO8583 preset)  ${codec.oursOpsPerSec.toLocaleString('en-US')} ops/s`);
  console.log(`  iso_8583               ${codec.theirsOpsPerSec.toLocaleString('en-US')} ops/s`);
  console.log(`  ratio                  ${codec.ratio}x (target ${TARGET_RATIO}x)`);

  console.log(`end to end: host.authorize.v1 through NATS → host-connector → host simulator (ISO8583 over TCP), ${inFlight} in flight and sequential`);
  const e2e = await withScratchDatabase((db) =>
    runE2eBench({
      databaseUrl: db.url,
      natsUrl: NATS_URL,
      seconds: e2eSeconds,
      warmupSeconds: Math.min(3, e2eSeconds),
      inFlight,
      tids,
      isolateSubjects: !process.argv.includes('--shared-subjects'),
    }),
  );
  const ratio = e2e.authorize.perSec / e2e.echo.perSec;
  console.log(
    `  authorize / NATS echo  ${ratio.toFixed(3)} at ${inFlight} in flight, ${(e2e.authorizeSequential.perSec / e2e.echoSequential.perSec).toFixed(3)} sequential`,
  );
  console.log(`  not APPROVED           ${(e2e.errorRate * 100).toFixed(3)}% of measured authorizations (limit ${MAX_ERROR_RATE * 100}%)`);
  console.log(`  connector request_log  ${JSON.stringify(e2e.requestLog)}; reversals queued ${e2e.reversalsQueued}`);
  if (e2e.simulator)
    console.log(
      `  simulator              approvals ${e2e.simulator.approvals}, declines ${e2e.simulator.declines}, received ${JSON.stringify(e2e.simulator.received)}`,
    );

  writeReport(codec, e2e);

  // Smoke mode asserts no target, but every phase must have been answered and approved.
  if (!SMOKE && codec.ratio < TARGET_RATIO) process.exitCode = 1;
  const unanswered = Object.entries({
    echo: e2e.echo,
    authorize: e2e.authorize,
    echoSequential: e2e.echoSequential,
    authorizeSequential: e2e.authorizeSequential,
  })
    .filter(([, phase]) => !(phase.perSec > 0))
    .map(([name]) => name);
  if (unanswered.length > 0) {
    console.error(`no request was answered in: ${unanswered.join(', ')}`);
    process.exitCode = 1;
  }
  if (e2e.errorRate > MAX_ERROR_RATE) {
    console.error(`${(e2e.errorRate * 100).toFixed(3)}% of the authorizations were not APPROVED (limit ${MAX_ERROR_RATE * 100}%)`);
    process.exitCode = 1;
  }
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (p: PhaseResult) => `${p.p50.toFixed(2)} / ${p.p99.toFixed(2)}`;

function writeReport(codec: CodecBenchResult, e2e: E2eResult): void {
  const n = e2e.inFlight;
  const method =
    'Method. Codec: pack + unpack of the same full 0200 sale with field 55 (20 EMV tags), ours and the npm package `iso_8583`, after a warm-up, in alternating short rounds. ' +
    'End to end: three processes — the bench (the caller: NATS request/reply as payment-gateway asks), host-connector configured as `apps/host-connector/src/main.ts` configures it ' +
    '(NATS, scratch database, `HOST_ZMK` = the development ZMK, the simulator as `HOST_DEFAULT_ISO8583_URL`) and the host simulator (ISO8583 preset over TCP on loopback, same ZMK), ' +
    'both compiled by tsc with tsconfig.build.json at the start of the run and run under node, as the image runs the apps. ' +
    `Each of the ${e2e.tids} terminals signs on first, then a warm-up; each phase keeps N requests in flight for ${e2e.seconds} s. ` +
    'Authorizations are SALEs with amounts the simulator approves, spread over the terminals (each its own STAN counter row); only APPROVED replies count. ' +
    'The baseline is a NATS request/reply round trip of the same payload to a responder in the bench process that answers at once, same in-flight count: the authorization figures read as a ratio of it. ' +
    (e2e.subjectPrefix
      ? 'The connector serves its subjects under a run prefix (`bench.iso.<run>.host.authorize.v1`, same queue group and handler) so that other connectors on a shared NATS server take no part (`--shared-subjects` for the real subjects). '
      : 'The connector served the real `host.*.v1` subjects (`--shared-subjects`). ') +
    'On a shared machine read the ratios rather than the absolute figures.';
  writeBenchmarkSection(
    'iso',
    [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}.`,
      '',
      '| figure | per second | p50 / p99 ms | ratio |',
      '|---|---|---|---|',
      `| codec: pack + unpack of a 0200 with field 55, ours (ISO8583 preset) | ${int(codec.oursOpsPerSec)} | | ${codec.ratio}x iso_8583 (target ≥ ${TARGET_RATIO}x) |`,
      `| codec: the same with iso_8583 | ${int(codec.theirsOpsPerSec)} | | 1 |`,
      `| NATS request/reply echo, ${n} in flight (baseline) | ${int(e2e.echo.perSec)} | ${ms(e2e.echo)} | 1 |`,
      `| host.authorize.v1 approved, ${n} in flight | ${int(e2e.authorize.perSec)} | ${ms(e2e.authorize)} | ${(e2e.authorize.perSec / e2e.echo.perSec).toFixed(3)} of the echo |`,
      `| NATS request/reply echo, sequential (baseline) | ${int(e2e.echoSequential.perSec)} | ${ms(e2e.echoSequential)} | 1 |`,
      `| host.authorize.v1 approved, sequential | ${int(e2e.authorizeSequential.perSec)} | ${ms(e2e.authorizeSequential)} | ${(e2e.authorizeSequential.perSec / e2e.echoSequential.perSec).toFixed(3)} of the echo |`,
      '',
      `Not APPROVED: ${(e2e.errorRate * 100).toFixed(3)}% of the measured authorizations (the run fails above ${MAX_ERROR_RATE * 100}%).`,
      '',
      method,
    ],
    `The ISO 8583 codec, and a whole authorization through NATS, host-connector and the host simulator. Run \`npm run bench:iso\` (NATS at \`NATS_URL\`, default nats://127.0.0.1:4222; PostgreSQL at \`DATABASE_URL\`, else an embedded server).`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
