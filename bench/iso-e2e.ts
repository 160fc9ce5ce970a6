/**
 * End-to-end part of bench:iso — `host.authorize.v1` through NATS → host-connector → host
 * simulator over TCP (ISO8583 preset), each in its own process:
 *   bench process   the caller (NatsRequestReply, as payment-gateway asks) and the NATS echo baseline;
 *   connector       host-connector as main.ts runs it (apps/host-connector/test/connector-process.ts), on a scratch database;
 *   iso-simulator   the acquirer host simulator, ISO8583 on a loopback port.
 * After a sign-on per terminal and a warm-up, fixed-duration phases with N requests in flight:
 * a NATS request/reply echo with a trivial responder in the bench process (the baseline, same
 * payload size, same in-flight count), then authorizations; once with `inFlight` and once
 * sequentially. Only APPROVED replies count as successes; everything else is an error by its
 * result (DECLINED, REVERSED, …) or transport error code (TIMEOUT, …).
 */
import { HOST_AUTHORIZE_V1, HOST_SIGNON_V1, HostResponseV1 } from '@app/contracts';
import { NatsRequestReply, RequestReplyError, ServedSubject } from '@app/messaging';
import { connect, NatsConnection } from 'nats';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { authorizePayload, networkPayload } from '../apps/host-connector/test/factories';
import type { SimulatorStats } from '../apps/host-simulator/src';
import { ChildServer, compileChildServers, startChildServer } from '@app/testing/child-server';
import type { IsoConnectorSettings } from '../apps/host-connector/test/connector-process';

const CONNECTOR_PROCESS = join(__dirname, '..', 'apps/host-connector/test/connector-process.ts');
const SIMULATOR_PROCESS = join(__dirname, 'iso-simulator.ts');

export interface E2eOptions {
  databaseUrl: string;
  natsUrl: string;
  /** Length of each measured phase. */
  seconds: number;
  warmupSeconds: number;
  /** Requests in flight in the concurrent phases (the sequential ones have 1). */
  inFlight: number;
  /** Terminals the requests rotate over (each has its own STAN counter row). */
  tids: number;
  /** Serve the connector's subjects under a run prefix (default) rather than the shared `host.*.v1`. */
  isolateSubjects: boolean;
}

export interface PhaseResult {
  label: string;
  inFlight: number;
  requests: number;
  /** APPROVED (authorize) or answered (echo). */
  ok: number;
  /** Everything else, by result or error code. */
  failures: Record<string, number>;
  perSec: number;
  p50: number;
  p99: number;
}

export interface E2eResult {
  tids: number;
  seconds: number;
  inFlight: number;
  subjectPrefix: string;
  echo: PhaseResult;
  authorize: PhaseResult;
  echoSequential: PhaseResult;
  authorizeSequential: PhaseResult;
  /** Authorizations not APPROVED in the measured phases, over all measured authorizations. */
  errorRate: number;
  /** What the connector's database holds afterwards. */
  requestLog: Record<string, number>;
  reversalsQueued: number;
  simulator?: SimulatorStats;
}

const REQUEST_TIMEOUT_MS = 10_000;
/** The connector's deadline for the host, shorter than the caller's wait (README: callers wait longer). */
const HOST_TIMEOUT_MS = 5000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A test amount that the simulator approves: not ending in 51 (declined) or 91 (never answered). */
export function approvedAmount(i: number): string {
  let minor = 100 + ((i * 7919) % 99_900);
  if (minor % 100 === 51 || minor % 100 === 91) minor += 1;
  return String(minor);
}

/** `inFlight` loops, each sending its next request as soon as the previous one is answered, until `seconds` have passed. */
export async function phase(label: string, inFlight: number, seconds: number, call: (i: number) => Promise<string>): Promise<PhaseResult> {
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  let ok = 0;
  let next = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        const i = next++;
        const t0 = performance.now();
        let outcome: string;
        try {
          outcome = await call(i);
        } catch (error) {
          outcome = error instanceof RequestReplyError ? error.code : `ERROR ${error instanceof Error ? error.message : String(error)}`;
        }
        latencies.push(performance.now() - t0);
        if (outcome === 'OK') ok++;
        else failures[outcome] = (failures[outcome] ?? 0) + 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const result = {
    label,
    inFlight,
    requests: latencies.length,
    ok,
    failures,
    perSec: ok / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
  const failed = Object.entries(failures)
    .map(([key, count]) => `${key} ${count}`)
    .join(', ');
  console.log(
    `  ${label.padEnd(34)} ${Math.round(result.perSec).toLocaleString('en-US').padStart(7)} /s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms  (${ok} ok${failed ? `, not ok: ${failed}` : ''})`,
  );
  return result;
}

/** SIGTERM (graceful) and wait for the exit; SIGKILL after `graceMs`. */
export async function stopChild(server: ChildServer | undefined, graceMs = 10_000): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  // 'close': exited and its output read (the simulator's STATS line comes last).
  const exited = new Promise((resolve) => server.child.once('close', resolve));
  server.child.kill('SIGTERM');
  await Promise.race([exited, sleep(graceMs)]);
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGKILL');
    await Promise.race([exited, sleep(2000)]);
  }
}

/** Passes a child's later stdout (its logs) on to stderr, a bounded number of lines; keeps `STATS` lines for the caller. */
export function watchOutput(server: ChildServer, label: string, onStats?: (stats: SimulatorStats) => void): void {
  let buffered = '';
  let shown = 0;
  server.child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('STATS ')) onStats?.(JSON.parse(line.slice(6)) as SimulatorStats);
      else if (line.trim() && !line.startsWith('READY') && shown++ < 20) process.stderr.write(`[${label}] ${line}\n`);
      else if (shown === 21) process.stderr.write(`[${label}] … (further lines not shown)\n`);
    }
  });
}

export async function runE2eBench(options: E2eOptions): Promise<E2eResult> {
  const run = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const subjectPrefix = options.isolateSubjects ? `bench.iso.${run}` : '';
  const subject = (name: string) => (subjectPrefix ? `${subjectPrefix}.${name}` : name);
  const stream = `BENCH_ISO_${run.toUpperCase()}`;
  const tids = Array.from({ length: options.tids }, (_, i) => `BI${run.slice(-4).toUpperCase()}${String(i).padStart(2, '0')}`.slice(0, 8));

  let simulator: ChildServer | undefined;
  let connector: ChildServer | undefined;
  let callerConnection: NatsConnection | undefined;
  let responderConnection: NatsConnection | undefined;
  let echoServed: ServedSubject | undefined;
  let simulatorStats: SimulatorStats | undefined;
  const killOnExit = () => {
    for (const server of [connector, simulator]) if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  try {
    callerConnection = await connect({ servers: options.natsUrl.split(','), name: 'bench-iso-caller', timeout: 3000 });
    responderConnection = await connect({ servers: options.natsUrl.split(','), name: 'bench-iso-echo', timeout: 3000 });
    const caller = new NatsRequestReply(callerConnection);

    // The servers run as deployed: compiled JavaScript under node, not ts-node (docs/decisions.md, "Benchmarks run compiled servers").
    const compiled = await compileChildServers([SIMULATOR_PROCESS, CONNECTOR_PROCESS]);
    simulator = await startChildServer(SIMULATOR_PROCESS, [], 'host simulator', {}, compiled);
    watchOutput(simulator, 'host-simulator', (stats) => (simulatorStats = stats));
    const isoUrl = `tcp://127.0.0.1:${simulator.port}`;
    const settings: IsoConnectorSettings = { natsUrl: options.natsUrl, isoUrl, stream, streamSubject: `bench.iso.${run}.events`, subjectPrefix };
    connector = await startChildServer(CONNECTOR_PROCESS, [options.databaseUrl, JSON.stringify(settings)], 'host connector', {}, compiled);
    watchOutput(connector, 'host-connector');
    console.log(`  simulator ${isoUrl}, connector health on :${connector.port}, subjects ${subject('host.*.v1')}, ${tids.length} terminals`);

    // Sign-on per terminal: the working key arrives under DEVELOPMENT_ZMK; a wrong ZMK on either side shows here.
    for (const tid of tids) {
      const reply = (await caller.request(subject(HOST_SIGNON_V1), networkPayload({ tid }), { timeoutMs: REQUEST_TIMEOUT_MS })) as HostResponseV1;
      if (reply.result !== 'APPROVED' || !reply.keyCheckValue) throw new Error(`sign-on of ${tid} was ${reply.result}: ${reply.hostRespMessage}`);
    }

    const authorize = async (i: number): Promise<string> => {
      const payload = authorizePayload(approvedAmount(i), { tid: tids[i % tids.length] }, { requestId: `bench_${run}_${i}`, timeoutMs: HOST_TIMEOUT_MS });
      const reply = (await caller.request(subject(HOST_AUTHORIZE_V1), payload, { timeoutMs: REQUEST_TIMEOUT_MS })) as HostResponseV1;
      return reply.result === 'APPROVED' ? 'OK' : reply.result;
    };
    // The baseline: the same payload over the same client to a responder that answers at once with a reply of the same shape.
    const echoReply: HostResponseV1 = {
      requestId: '',
      result: 'APPROVED',
      hostRespCode: '00',
      hostRespMessage: 'Approved',
      mti: '0200',
      stan: '000001',
      transmittedAt: '0101000000',
      rrn: '000000000001',
      approvalCode: '000001',
    };
    echoServed = new NatsRequestReply(responderConnection).serve(subject('echo.v1'), 'bench-iso-echo', async (payload) => ({
      ...echoReply,
      requestId: (payload as { requestId?: string }).requestId ?? '',
    }));
    let echoSeq = 0;
    const echo = async (): Promise<string> => {
      const payload = authorizePayload(
        approvedAmount(echoSeq),
        { tid: tids[echoSeq % tids.length] },
        { requestId: `echo_${run}_${echoSeq++}`, timeoutMs: HOST_TIMEOUT_MS },
      );
      const reply = (await caller.request(subject('echo.v1'), payload, { timeoutMs: REQUEST_TIMEOUT_MS })) as HostResponseV1;
      return reply.result === 'APPROVED' ? 'OK' : reply.result;
    };

    // Warm-up (JIT, connection pools, the TCP session), not counted; it must approve.
    let seq = 0;
    const nextAuthorize = () => authorize(seq++);
    const warm = await phase('warm-up (not counted)', options.inFlight, options.warmupSeconds, nextAuthorize);
    await phase('warm-up echo (not counted)', options.inFlight, Math.min(1, options.warmupSeconds), echo);
    if (warm.ok === 0) throw new Error('no authorization was approved during the warm-up');

    const echoResult = await phase(`NATS echo, ${options.inFlight} in flight`, options.inFlight, options.seconds, echo);
    const authorizeResult = await phase(`authorize, ${options.inFlight} in flight`, options.inFlight, options.seconds, nextAuthorize);
    const echoSequential = await phase('NATS echo, sequential', 1, options.seconds, echo);
    const authorizeSequential = await phase('authorize, sequential', 1, options.seconds, nextAuthorize);

    const measured = authorizeResult.requests + authorizeSequential.requests;
    const notApproved = measured - authorizeResult.ok - authorizeSequential.ok;

    await echoServed.close();
    echoServed = undefined;
    await stopChild(connector);
    connector = undefined;
    await stopChild(simulator);
    simulator = undefined;

    const db = new Client({ connectionString: options.databaseUrl });
    await db.connect();
    let requestLog: Record<string, number> = {};
    let reversalsQueued = 0;
    try {
      const log = await db.query<{ result: string | null; n: number }>(`SELECT result, count(*)::int AS n FROM host_connector.request_log GROUP BY result`);
      requestLog = Object.fromEntries(log.rows.map((row) => [row.result ?? 'unfinished', row.n]));
      reversalsQueued = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM host_connector.reversal`)).rows[0].n;
    } finally {
      await db.end();
    }
    return {
      tids: tids.length,
      seconds: options.seconds,
      inFlight: options.inFlight,
      subjectPrefix,
      echo: echoResult,
      authorize: authorizeResult,
      echoSequential,
      authorizeSequential,
      errorRate: measured > 0 ? notApproved / measured : 1,
      requestLog,
      reversalsQueued,
      simulator: simulatorStats,
    };
  } finally {
    await echoServed?.close().catch(() => undefined);
    await stopChild(connector);
    await stopChild(simulator);
    process.removeListener('exit', killOnExit);
    if (callerConnection && !callerConnection.isClosed()) {
      const jsm = await callerConnection.jetstreamManager().catch(() => undefined);
      await jsm?.streams.delete(stream).catch(() => undefined);
      await callerConnection.drain().catch(() => undefined);
    }
    if (responderConnection && !responderConnection.isClosed()) await responderConnection.drain().catch(() => undefined);
  }
}
