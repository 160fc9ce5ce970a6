/**
 * bench:sale — approved sales per second and their latency from the SDK's request
 * (`POST /{ns}/api/v1/transaction` under a device token, the EMV of a test card, a fresh
 * Idempotency-Key) to the order being listed by transactions, with the host simulator as the
 * acquirer over TCP (ISO8583 preset, its own process):
 *   standalone  every context in one process (in-process transport);
 *   NATS        merchant-management, payment-gateway, transactions and host-connector each in its
 *               own process, talking over the NATS JetStream server at NATS_URL;
 * against the connector's own `host.authorize.v1` rate over NATS to the same simulator, measured
 * in the same run (the baseline), and the CPU time (/proc) an approved sale costs the platform's
 * processes and PostgreSQL's backends. Each mode is measured twice: a closed loop of `connections`
 * (the capacity), then sales offered at a fixed `rate` (the target's figure; latencies from when
 * each sale was due). Rewrites the bench:sale section of docs/benchmarks.md.
 *   npm run bench:sale [-- --seconds 10 --warm-up 3 --connections 32 --devices 8 --rate 500 --cpu-prof <dir> --count-sql <dir> --synchronous-commit-off]
 * NATS at NATS_URL (default nats://127.0.0.1:4222); PostgreSQL at DATABASE_URL, else an embedded
 * server (scripts/with-database.ts). Everything is set up through the API (the PBO row excepted:
 * PBOs have no API). Fails (exit code 1) when a sale is refused or not approved, an approved sale's
 * order is never listed, or a phase gets no answer; the target (500 sales/s, p99 under 100 ms over
 * NATS) is reported, not asserted. BENCH_SMOKE=1 (bench/options.ts): 2 connections, 2 devices, no warm-up,
 * 6 sales per mode and figure (the fixed rate at 20/s), and 1 s of connector baseline.
 */
import { signPboToken } from '@app/common';
import {
  GATEWAY_TRANSACTION_UPDATED_V1,
  HOST_AUTHORIZE_V1,
  HOST_SIGNON_V1,
  HostResponseV1,
  STREAMED_SUBJECTS,
} from '@app/contracts';
import { testCardEmv } from '@app/host-protocol';
import { NatsRequestReply, subjectMatches } from '@app/messaging';
import { ConsumerDefinition, durableConsumerConfig } from '@app/messaging/consumer';
import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { ApiClient, createAcquirer, createEmv, createMerchant, dataOf, gatewayBase } from '@app/testing';
import { ChildServer, compileChildServers, CompiledServers, startChildServer } from '@app/testing/child-server';
import { idleConsumer, IdleConsumer } from '@app/testing/nats';
import autocannon from 'autocannon';
import { connect, DeliverPolicy, JetStreamManager, NatsConnection } from 'nats';
import { randomBytes, randomUUID } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { cpus } from 'node:os';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { authorizePayload, networkPayload } from '../apps/host-connector/test/factories';
import type { IsoConnectorSettings } from '../apps/host-connector/test/connector-process';
import { profileUpsertConsumer, reversalStateConsumer, transactionWebhookConsumer } from '../apps/payment-gateway/src';
import { orderUpdatesConsumer } from '../apps/transactions/src';
import { profileOutcomeConsumer } from '../apps/merchant-management/src';
import { terminalReleasedConsumer } from '../apps/host-connector/src';
import { withScratchDatabase } from '../scripts/with-database';
import { BENCH_AUTH } from './bench-auth';
import { approvedAmount, percentile, phase, PhaseResult, stopChild, watchOutput } from './iso-e2e';
import { option, SMOKE } from './options';
import { writeBenchmarkSection } from './report';
import type { SaleServerNats, SaleServerSettings } from './sale-server';
import { SqlCounts, sqlDelta } from './sql-count';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const TARGET_PER_SEC = 500;
const TARGET_P99_MS = 100;
const GATEWAY = gatewayBase(DEFAULT_GATEWAY_NAMESPACE);
const CONNECTOR_PROCESS = join(__dirname, '..', 'apps/host-connector/test/connector-process.ts');
/** The channel the bench's trigger on transactions.orders notifies, at commit, with each new order's tranId. */
const ORDER_CHANNEL = 'bench_sale_order';
/** How long after the load an approved sale's order may take to be listed before the run fails. */
const DRAIN_MS = 60_000;

/**
 * The run database's synchronous_commit: on, as the platform runs (every commit waits for its WAL
 * flush; the outbox relay's marking transaction alone takes it off for itself).
 * `--synchronous-commit-off` reproduces the runs before 2026-11-28 (helper h16), whose scratch
 * database had it off.
 */
const SYNCHRONOUS_COMMIT = process.argv.includes('--synchronous-commit-off') ? 'off' : 'on';

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Ports {
  mm: number;
  gateway: number;
  orders: number;
}

interface Till {
  deviceToken: string;
  profileId: string;
}

interface SaleResult {
  mode: 'standalone' | 'nats';
  /** The fixed rate the sales were offered at (absent: the closed loop, as fast as the connections go). */
  offeredPerSec?: number;
  connections: number;
  seconds: number;
  /** 201 with tranStatus APPROVED. */
  approved: number;
  /** Anything else: by HTTP status and tranStatus, or transport error. */
  failures: Record<string, number>;
  /** Approved sales / (load start → the last of their orders listed). */
  perSec: number;
  /** SDK request sent → order committed (listed), ms. */
  p50: number;
  p99: number;
  /** The HTTP answer alone, ms (closed loop: autocannon's; fixed rate: from when the sale was due). */
  httpP50: number;
  httpP99: number;
  /** The HTTP answer → the order listed, ms. */
  answerToListedP50: number;
  answerToListedP99: number;
  /** Approved sales whose order was never listed. */
  unlisted: number;
  /** Orders checked through GET /api/v2/order?transactionId=…, and how many were listed there. */
  apiChecked: number;
  apiListed: number;
  /** CPU ms per approved sale, from the load's start to the last order listed: the platform's processes, and PostgreSQL's backends of the run's database. */
  cpuMsPerSale: { processes: number; postgres: number };
  /** The system (kernel) part of each. */
  systemMsPerSale: { processes: number; postgres: number };
  /** Commits in the run's database per approved sale (pg_stat_database), over the same span. */
  commitsPerSale: number;
}

/**
 * Notes when each order commits: a trigger on transactions.orders notifies ORDER_CHANNEL, and
 * PostgreSQL delivers a notification only when its transaction commits, that is when the order
 * becomes visible to GET /api/v2/order. Installed in the bench's scratch database only.
 */
class OrderWatch {
  readonly listedAt = new Map<string, number>();

  private constructor(private readonly client: Client) {}

  static async start(databaseUrl: string): Promise<OrderWatch> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    const watch = new OrderWatch(client);
    client.on('notification', (message) => {
      if (message.channel === ORDER_CHANNEL && message.payload && !watch.listedAt.has(message.payload)) watch.listedAt.set(message.payload, performance.now());
    });
    await client.query(`LISTEN ${ORDER_CHANNEL}`);
    return watch;
  }

  /** After the transactions schema exists (its context has started). */
  async install(): Promise<void> {
    await this.client.query(`
      CREATE OR REPLACE FUNCTION public.bench_sale_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('${ORDER_CHANNEL}', NEW.tran_id); RETURN NEW; END $$;
      DROP TRIGGER IF EXISTS bench_sale_notify ON transactions.orders;
      CREATE TRIGGER bench_sale_notify AFTER INSERT ON transactions.orders FOR EACH ROW EXECUTE FUNCTION public.bench_sale_notify();`);
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

/** CPU time (user + system, or the system part alone; ms) of processes, from /proc: what a figure costs on a machine shared with other work, where rates say little. */
function cpuMsOf(pids: Iterable<number>, part: 'all' | 'system' = 'all'): Map<number, number> {
  const ticksPerSecond = 100; // USER_HZ, 100 on Linux
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      // The fields after the command name (which may hold spaces), from state: utime is the 12th, stime the 13th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(pid, (((part === 'all' ? Number(fields[11]) : 0) + Number(fields[12])) * 1000) / ticksPerSecond);
    } catch {
      // Gone (or not Linux): not counted.
    }
  }
  return cpu;
}

/** The CPU the platform's processes and the run database's PostgreSQL backends spend between `start()` and `stop()`. */
class CpuMeter {
  private before = new Map<number, number>();
  private pgBefore = new Map<number, number>();
  private systemBefore = new Map<number, number>();
  private pgSystemBefore = new Map<number, number>();
  private commitsBefore = 0;

  constructor(
    private readonly pool: Pool,
    private readonly pids: number[],
  ) {}

  private async backends(): Promise<number[]> {
    const rows = (await this.pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows;
    return rows.map((row) => row.pid);
  }

  /** Transactions committed in the run's database (pg_stat_database, which a backend reports at most once a second: read after a pause). */
  private async commits(): Promise<number> {
    await sleep(1100);
    await this.pool.query('SELECT pg_stat_clear_snapshot()');
    const rows = (await this.pool.query<{ xact_commit: string }>('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows;
    return Number(rows[0]?.xact_commit ?? NaN);
  }

  async start(): Promise<void> {
    this.commitsBefore = await this.commits();
    this.before = cpuMsOf(this.pids);
    this.systemBefore = cpuMsOf(this.pids, 'system');
    const backends = await this.backends();
    this.pgBefore = cpuMsOf(backends);
    this.pgSystemBefore = cpuMsOf(backends, 'system');
  }

  /** CPU ms spent since start(): by the processes, and by the backends (one connected since counts from 0), each with its system (kernel) part; and the commits in the run's database (every client's, the bench's own few included). */
  async stop(): Promise<{ processesMs: number; postgresMs: number; processesSystemMs: number; postgresSystemMs: number; commits: number; byPid: Map<number, number> }> {
    const spent = (now: Map<number, number>, before: Map<number, number>) => [...now].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
    const now = cpuMsOf(this.pids);
    const byPid = new Map([...now].map(([pid, ms]) => [pid, ms - (this.before.get(pid) ?? 0)]));
    const processesMs = spent(now, this.before);
    const processesSystemMs = spent(cpuMsOf(this.pids, 'system'), this.systemBefore);
    const backends = await this.backends();
    const postgresMs = spent(cpuMsOf(backends), this.pgBefore);
    const postgresSystemMs = spent(cpuMsOf(backends, 'system'), this.pgSystemBefore);
    return { processesMs, postgresMs, processesSystemMs, postgresSystemMs, commits: (await this.commits()) - this.commitsBefore, byPid };
  }
}

/** A PBO (a row: PBOs have no API), its ISO 8583 acquirer pointing at the simulator, a merchant, and `count` activated devices. */
async function onboard(pool: Pool, ports: Ports, isoUrl: string, tag: string, count: number): Promise<{ pbo: ApiClient; tills: Till[] }> {
  const groupId = `bench-sale-${tag}`;
  await pool.query(`INSERT INTO merchant_management.pbo (group_id, group_name, time_zone) VALUES ($1, $1, 'Asia/Kuala_Lumpur')`, [groupId]);
  const token = await signPboToken(BENCH_AUTH, groupId, 3600);
  const mm = new ApiClient(`http://127.0.0.1:${ports.mm}`, token);
  const gateway = new ApiClient(`http://127.0.0.1:${ports.gateway}`, token);
  const emvId = await createEmv(mm, { paymentMethod: '01' });
  const acquirer = await createAcquirer(
    mm,
    { '01': [emvId] },
    { profileName: `ISO host ${tag}`, connMessageFormat: 'ISO8583', enablerMsgFormat: null, connUrl: isoUrl },
  );
  const merchant = await createMerchant(mm, { country: 'MY', timeZone: 'Asia/Kuala_Lumpur', mcc: '5814' });
  dataOf(await mm.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirer), currency: 'MYR' }));
  const anonymous = new ApiClient(`http://127.0.0.1:${ports.mm}`, undefined);
  const tills: Till[] = [];
  for (let i = 0; i < count; i++) {
    const code = dataOf<{ activationCode: string }>(
      await mm.post('/api/openapi/v1/device', {
        mchId: merchant.mchId,
        deviceAlias: `Till ${i}`,
        extParams: {
          acquirers: {
            [acquirer]: {
              acqMid: 'MID000000000042',
              acqTid: `S${tag.slice(0, 1).toUpperCase()}${tag.slice(-4).toUpperCase()}${String(i).padStart(2, '0')}`.slice(0, 8),
            },
          },
        },
      }),
    );
    tills.push(dataOf<Till>(await anonymous.post('/api/sdk/v1/activate', { activationCode: code.activationCode })));
  }
  const deadline = Date.now() + 60_000;
  for (const till of tills) {
    while ((await gateway.get(`${GATEWAY}/profiles/${till.profileId}`)).status !== 200) {
      if (Date.now() > deadline) throw new Error(`the profile ${till.profileId} never reached the gateway`);
      await sleep(50);
    }
  }
  return { pbo: new ApiClient(`http://127.0.0.1:${ports.orders}`, token), tills };
}

/** The body of one tap of the Visa test card for an amount the simulator approves. */
function saleBody(till: Till, i: number): string {
  const minor = approvedAmount(i);
  const emvData = testCardEmv({ card: 'visa', amountMinor: minor, currencyNumeric: '458', countryNumeric: '458', date: new Date() });
  return JSON.stringify({ profileId: till.profileId, tranType: 'SALE', amount: { value: (Number(minor) / 100).toFixed(2), currency: 'MYR' }, emvData });
}

/** An approved sale: when its request was sent (at a fixed rate: when it was due) and when its answer came back. */
interface Timing {
  sentAt: number;
  answeredAt: number;
}

interface LoadRecord {
  approved: Map<string, Timing>;
  failures: Record<string, number>;
  startedAt: number;
  /** The HTTP answer's latency, ms. */
  http: { p50: number; p99: number };
}

/** Notes one answer: an approved sale by its tranId, anything else by HTTP status and tranStatus. */
function noteAnswer(status: number, body: string, timing: Timing, approved: Map<string, Timing>, failures: Record<string, number>): void {
  let outcome = `HTTP ${status}`;
  try {
    const transaction = JSON.parse(body) as { tranId?: string; tranStatus?: string };
    if (status === 201 && transaction.tranStatus === 'APPROVED' && transaction.tranId) {
      approved.set(transaction.tranId, timing);
      return;
    }
    outcome += ` ${transaction.tranStatus ?? (body.length > 120 ? `${body.slice(0, 120)}…` : body)}`;
  } catch {
    outcome += ' (not JSON)';
  }
  failures[outcome] = (failures[outcome] ?? 0) + 1;
}

/** The sale request's headers: a device's token and a fresh Idempotency-Key. */
function saleHeaders(till: Till): Record<string, string> {
  return { 'content-type': 'application/json', authorization: `Bearer ${till.deviceToken}`, 'idempotency-key': randomUUID() };
}

/** autocannon's POSTs of sales over the tills in a closed loop (each connection sends its next sale when the last is answered); notes when each was sent and what came back. */
async function load(
  port: number,
  tills: Till[],
  connections: number,
  length: { seconds: number } | { sales: number },
  counter: { i: number },
): Promise<LoadRecord> {
  const approved = new Map<string, Timing>();
  const failures: Record<string, number> = {};
  const startedAt = performance.now();
  type Context = { sentAt?: number };
  const http = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    // A loaded machine answers slowly: a sale is counted failed after 30 s, not autocannon's 10.
    timeout: 30,
    ...('sales' in length ? { amount: length.sales } : { duration: length.seconds }),
    requests: [
      {
        method: 'POST',
        path: `${GATEWAY}/transaction`,
        setupRequest: (request, context: Context) => {
          const i = counter.i++;
          const till = tills[i % tills.length];
          context.sentAt = performance.now();
          return { ...request, headers: saleHeaders(till), body: saleBody(till, i) };
        },
        onResponse: (status: number, body: string, context: Context) =>
          noteAnswer(status, body, { sentAt: context.sentAt ?? NaN, answeredAt: performance.now() }, approved, failures),
      },
    ],
  });
  if (http.errors > 0) failures['transport error'] = http.errors;
  return { approved, failures, startedAt, http: { p50: http.latency.p50, p99: http.latency.p99 } };
}

/** The most connections the fixed-rate load opens (a sale waits for a free one beyond that, its wait counted in its latency). */
const PACED_MAX_SOCKETS = 512;

/**
 * Sales offered at a fixed rate (an open loop): the i-th is due at start + i / perSec, sent then on
 * a free keep-alive connection whatever the earlier ones' state, so a slow answer does not hold the
 * next sales back. Latencies run from when a sale was due, not when it left: a generator that fell
 * behind (a busy machine, every connection taken) counts its own delay against the platform rather
 * than hiding it (no coordinated omission). Node's http client, not autocannon: autocannon's
 * overallRate gives each connection a quota per one-second window, sent back to back as answers
 * come, so the sales arrive in bursts at the start of each second, and its latency correction for a
 * rate takes 1/rate (in seconds) rounded up to whole milliseconds as the expected interval, filling
 * the histogram with made-up samples down to 1 ms (autocannon 8, lib/httpClient.js and lib/run.js).
 */
async function paced(port: number, tills: Till[], perSec: number, length: { seconds: number } | { sales: number }, counter: { i: number }): Promise<LoadRecord> {
  const approved = new Map<string, Timing>();
  const failures: Record<string, number> = {};
  const answers: number[] = [];
  const total = 'sales' in length ? length.sales : Math.round(perSec * length.seconds);
  const intervalMs = 1000 / perSec;
  const agent = new HttpAgent({ keepAlive: true, maxSockets: PACED_MAX_SOCKETS });
  const startedAt = performance.now();
  await new Promise<void>((resolve) => {
    let due = 0;
    let settled = 0;
    const settle = () => ++settled === total && resolve();
    const send = (dueAt: number) => {
      let ended = false;
      const end = () => !ended && (ended = true) && settle();
      const i = counter.i++;
      const till = tills[i % tills.length];
      const body = saleBody(till, i);
      const request = httpRequest(
        { host: '127.0.0.1', port, method: 'POST', path: `${GATEWAY}/transaction`, agent, headers: { ...saleHeaders(till), 'content-length': Buffer.byteLength(body) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const answeredAt = performance.now();
            answers.push(answeredAt - dueAt);
            noteAnswer(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), { sentAt: dueAt, answeredAt }, approved, failures);
            end();
          });
        },
      );
      // A loaded machine answers slowly: a sale is counted failed after 30 s, as in the closed loop.
      request.setTimeout(30_000, () => request.destroy(new Error('timeout')));
      request.on('error', () => {
        if (ended) return;
        failures['transport error'] = (failures['transport error'] ?? 0) + 1;
        end();
      });
      request.end(body);
    };
    const tick = () => {
      const now = performance.now();
      while (due < total && startedAt + due * intervalMs <= now) send(startedAt + due++ * intervalMs);
      if (due < total) setTimeout(tick, Math.max(0, startedAt + due * intervalMs - performance.now()));
    };
    tick();
  });
  agent.destroy();
  answers.sort((a, b) => a - b);
  return { approved, failures, startedAt, http: { p50: percentile(answers, 50), p99: percentile(answers, 99) } };
}

/** Waits until every approved sale's order is listed, or DRAIN_MS. */
async function drained(watch: OrderWatch, tranIds: Iterable<string>): Promise<string[]> {
  const deadline = Date.now() + DRAIN_MS;
  let missing = [...tranIds];
  while ((missing = missing.filter((tranId) => !watch.listedAt.has(tranId))).length > 0 && Date.now() < deadline) await sleep(20);
  return missing;
}

/** A mode's two figures: the closed loop's maximum (capacity) and, with --rate, a fixed offered rate. */
interface ModeResult {
  closed: SaleResult;
  fixed?: SaleResult;
}

async function measureSales(
  mode: SaleResult['mode'],
  pool: Pool,
  watch: OrderWatch,
  ports: Ports,
  isoUrl: string,
  run: string,
  options: BenchOptions,
  pids: number[],
  names: string[] = pids.map(String),
): Promise<ModeResult> {
  const { pbo, tills } = await onboard(pool, ports, isoUrl, `${mode.slice(0, 2)}${run}`, options.devices);
  console.log(`[${mode}] ${tills.length} devices activated, their profiles at the gateway`);
  const counter = { i: 0 };
  // One sale per device first, one at a time: each device's first sale signs its terminal on, and none is cut off by a duration.
  for (const till of tills) {
    const i = counter.i++;
    const response = await fetch(`http://127.0.0.1:${ports.gateway}${GATEWAY}/transaction`, { method: 'POST', headers: saleHeaders(till), body: saleBody(till, i) });
    const body = await response.text();
    if (response.status !== 201 || (JSON.parse(body) as { tranStatus?: string }).tranStatus !== 'APPROVED')
      throw new Error(`[${mode}] a first sale was not approved: ${response.status} ${body}`);
  }
  // Then the warm-up (JIT, pools) under the measured load; a machine so loaded that no sale is answered within it still goes on to the figure.
  if (options.warmUp > 0) await drained(watch, (await load(ports.gateway, tills, options.connections, { seconds: options.warmUp }, counter)).approved.keys());
  // Smoke mode: a fixed number of sales (a duration of a second could end before the first, slow one is answered).
  const length = SMOKE ? { sales: options.connections * 3 } : { seconds: options.seconds };
  const figure = (label: string, offeredPerSec: number | undefined, measure: () => Promise<LoadRecord>) =>
    measurePhase(mode, label, offeredPerSec, measure, pool, watch, pbo, options, pids, names);
  const closed = await figure(`${options.connections} connections, closed loop`, undefined, () => load(ports.gateway, tills, options.connections, length, counter));
  if (!(options.rate > 0)) return { closed };
  const fixed = await figure(`${options.rate} sales/s offered`, options.rate, () => paced(ports.gateway, tills, options.rate, length, counter));
  return { closed, fixed };
}

/** One figure: the load `measure` makes, its orders listed, the CPU and commits it cost, a sample looked up through the API. */
async function measurePhase(
  mode: SaleResult['mode'],
  label: string,
  offeredPerSec: number | undefined,
  measure: () => Promise<LoadRecord>,
  pool: Pool,
  watch: OrderWatch,
  pbo: ApiClient,
  options: BenchOptions,
  pids: number[],
  names: string[],
): Promise<SaleResult> {
  const cpu = new CpuMeter(pool, pids);
  await cpu.start();
  // The statements are counted over the closed loop (the figures of earlier runs).
  const counted = offeredPerSec === undefined;
  const sqlBefore = counted ? await sqlCountsOf(pids, mode) : undefined;
  const measured = await measure();
  const unlisted = await drained(watch, measured.approved.keys());
  const spent = await cpu.stop();
  const sqlAfter = counted ? await sqlCountsOf(pids, mode) : undefined;
  if (sqlBefore && sqlAfter) writeSqlCounts(mode, sqlBefore, sqlAfter, measured.approved.size);
  const latencies: number[] = [];
  const afterAnswer: number[] = [];
  let lastListed = measured.startedAt;
  for (const [tranId, { sentAt, answeredAt }] of measured.approved) {
    const listedAt = watch.listedAt.get(tranId);
    if (listedAt === undefined) continue;
    latencies.push(listedAt - sentAt);
    afterAnswer.push(listedAt - answeredAt);
    lastListed = Math.max(lastListed, listedAt);
  }
  latencies.sort((a, b) => a - b);
  afterAnswer.sort((a, b) => a - b);
  // What a PBO sees: a sample of the approved sales looked up by transactionId in the order list.
  const sample = [...measured.approved.keys()].filter((_, index, all) => index % Math.max(1, Math.floor(all.length / 20)) === 0).slice(0, 20);
  let apiListed = 0;
  for (const tranId of sample) {
    const page = dataOf<{ records: { tranId: string; tranStatus: string }[] }>(await pbo.get(`/api/v2/order?transactionId=${encodeURIComponent(tranId)}`));
    if (page.records.length === 1 && page.records[0].tranId === tranId && page.records[0].tranStatus === 'APPROVED') apiListed++;
  }
  const result: SaleResult = {
    mode,
    ...(offeredPerSec === undefined ? {} : { offeredPerSec }),
    connections: options.connections,
    seconds: options.seconds,
    approved: measured.approved.size,
    failures: measured.failures,
    perSec: measured.approved.size / ((lastListed - measured.startedAt) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    httpP50: measured.http.p50,
    httpP99: measured.http.p99,
    answerToListedP50: percentile(afterAnswer, 50),
    answerToListedP99: percentile(afterAnswer, 99),
    unlisted: unlisted.length,
    apiChecked: sample.length,
    apiListed,
    cpuMsPerSale: { processes: spent.processesMs / measured.approved.size, postgres: spent.postgresMs / measured.approved.size },
    systemMsPerSale: { processes: spent.processesSystemMs / measured.approved.size, postgres: spent.postgresSystemMs / measured.approved.size },
    commitsPerSale: spent.commits / measured.approved.size,
  };
  if (pids.length > 1) {
    const each = pids.map((pid, index) => `${names[index]} ${((spent.byPid.get(pid) ?? NaN) / measured.approved.size).toFixed(2)}`).join(', ');
    console.log(`[${mode}, ${label}] CPU ms per approved sale by process: ${each}`);
  }
  const failed = Object.entries(result.failures)
    .map(([key, count]) => `${key} × ${count}`)
    .join(', ');
  const ms = (value: number) => value.toFixed(1);
  console.log(
    `[${mode}, ${label}] ${Math.round(result.perSec)} approved sales/s, request → order listed p50 ${ms(result.p50)} ms p99 ${ms(result.p99)} ms ` +
      `(HTTP answer p50 ${ms(result.httpP50)} ms p99 ${ms(result.httpP99)} ms; answer → order listed p50 ${ms(result.answerToListedP50)} ms p99 ${ms(result.answerToListedP99)} ms); ` +
      `${result.approved} approved, ${result.unlisted} never listed, ` +
      `${result.apiListed}/${result.apiChecked} found by GET /api/v2/order?transactionId; CPU per sale ${result.cpuMsPerSale.processes.toFixed(2)} ms in the processes (system ${result.systemMsPerSale.processes.toFixed(2)}) + ${result.cpuMsPerSale.postgres.toFixed(2)} ms in PostgreSQL (system ${result.systemMsPerSale.postgres.toFixed(2)}), ${result.commitsPerSale.toFixed(1)} commits${failed ? `; not approved: ${failed}` : ''}`,
  );
  return result;
}

/** The connector's own rate: host.authorize.v1 over NATS to the same simulator, as the gateway asks it, same in-flight count. */
async function connectorBaseline(
  caller: NatsRequestReply,
  prefix: string,
  run: string,
  options: BenchOptions,
  cpu: CpuMeter,
): Promise<Baseline> {
  const tids = Array.from({ length: options.devices }, (_, i) => `B${run.slice(-5).toUpperCase()}${String(i).padStart(2, '0')}`.slice(0, 8));
  for (const tid of tids) {
    const reply = (await caller.request(`${prefix}.${HOST_SIGNON_V1}`, networkPayload({ tid }), { timeoutMs: 10_000 })) as HostResponseV1;
    if (reply.result !== 'APPROVED') throw new Error(`sign-on of ${tid} was ${reply.result}: ${reply.hostRespMessage}`);
  }
  const authorize = async (i: number): Promise<string> => {
    const payload = authorizePayload(approvedAmount(i), { tid: tids[i % tids.length] }, { requestId: `bench_sale_${run}_${i}`, timeoutMs: 5000 });
    const reply = (await caller.request(`${prefix}.${HOST_AUTHORIZE_V1}`, payload, { timeoutMs: 10_000 })) as HostResponseV1;
    return reply.result === 'APPROVED' ? 'OK' : reply.result;
  };
  let seq = 0;
  if (options.warmUp > 0) await phase('connector warm-up (not counted)', options.connections, options.warmUp, () => authorize(seq++));
  await cpu.start();
  const result = await phase(`host.authorize, ${options.connections} in flight`, options.connections, options.seconds, () => authorize(seq++));
  const spent = await cpu.stop();
  return { ...result, cpuMsPerAuthorize: { processes: spent.processesMs / result.ok, postgres: spent.postgresMs / result.ok }, commitsPerAuthorize: spent.commits / result.ok };
}

type Baseline = PhaseResult & { cpuMsPerAuthorize: { processes: number; postgres: number }; commitsPerAuthorize: number };

interface NatsSetup {
  nats: SaleServerNats;
  /** The run's own stream, when it made one (it captures the subjects no other stream did). */
  ownStream?: string;
  /** Streams of others that already captured some of the subjects (the server refuses overlaps): the run published there from `firstSeq` on. */
  shared: Map<string, number>;
  /** The stream that captures `subject` in this run. */
  streamOf: (subject: string) => string;
  webhook: IdleConsumer;
  reversalStates: IdleConsumer;
  /** The connector's consumer of the gateway's released terminals, on the run's stream (a device retired in the run frees its claims). */
  terminalReleased: ConsumerDefinition;
}

/**
 * The run's stream and its durable consumers, starting at the run's own messages. A subject another
 * stream on the server already captures (the platform's SOFTPOS_EVENTS, or a test's that took
 * only some of them) stays there, since the server refuses overlapping streams: the run publishes
 * it there and its consumer of it reads that stream; the run's own stream captures the rest.
 */
async function natsSetup(jsm: JetStreamManager, run: string): Promise<NatsSetup> {
  const runStream = `BENCH_SALE_${run.toUpperCase()}`;
  const captured = new Map<string, string>();
  const shared = new Map<string, number>();
  for await (const info of jsm.streams.list()) {
    for (const subject of STREAMED_SUBJECTS) {
      if (captured.has(subject) || !(info.config.subjects ?? []).some((pattern) => subjectMatches(pattern, subject))) continue;
      captured.set(subject, info.config.name);
      shared.set(info.config.name, info.state.last_seq + 1);
    }
  }
  for (const name of shared.keys())
    console.warn(`stream ${name} already captures some of the platform's subjects: the run publishes those there (its other consumers see the run's messages too)`);
  const ownSubjects = STREAMED_SUBJECTS.filter((subject) => !captured.has(subject));
  if (ownSubjects.length > 0) await jsm.streams.add({ name: runStream, subjects: ownSubjects });
  const streamOf = (subject: string) => captured.get(subject) ?? runStream;
  // The publishers ensure one stream: the run's, else the first shared one, with the subjects it already captures.
  const publishedStream = ownSubjects.length > 0 ? runStream : streamOf(STREAMED_SUBJECTS[0]);
  const ours = (definition: ConsumerDefinition, name: string): ConsumerDefinition => ({
    ...definition,
    name: `bench_sale_${name}_${run}`,
    deadLetterSubject: `dlq.bench.sale.${run}.${name}`,
    jetStream: { ...definition.jetStream!, stream: streamOf(definition.subject), deadLetterStream: `BENCH_SALE_DLQ_${name.toUpperCase()}_${run.toUpperCase()}` },
  });
  const profileUpsert = ours(profileUpsertConsumer, 'profile');
  const orderUpdates = ours(orderUpdatesConsumer, 'orders');
  const profileOutcome = ours(profileOutcomeConsumer, 'outcome');
  const terminalReleased = ours(terminalReleasedConsumer, 'released');
  for (const consumer of [profileUpsert, orderUpdates, profileOutcome, terminalReleased])
    await jsm.consumers.add(consumer.jetStream!.stream, { ...durableConsumerConfig(consumer), deliver_policy: DeliverPolicy.New });
  const webhook = await idleConsumer(jsm, transactionWebhookConsumer, `sale_${run}`);
  const reversalStates = await idleConsumer(jsm, reversalStateConsumer, `sale_${run}`);
  return {
    nats: {
      servers: NATS_URL,
      subjectPrefix: `bench.sale.${run}`,
      stream: publishedStream,
      streamSubjects: STREAMED_SUBJECTS.filter((subject) => streamOf(subject) === publishedStream),
      profileUpsert,
      orderUpdates,
      profileOutcome,
      webhook: webhook.definition,
      reversalStates: reversalStates.definition,
    },
    ...(ownSubjects.length > 0 ? { ownStream: runStream } : {}),
    shared,
    streamOf,
    webhook,
    reversalStates,
    terminalReleased,
  };
}

async function natsCleanup(jsm: JetStreamManager, setup: NatsSetup, groupIdPart: string): Promise<void> {
  const { nats } = setup;
  await setup.webhook.remove();
  await setup.reversalStates.remove();
  for (const consumer of [nats.profileUpsert, nats.orderUpdates, nats.profileOutcome, setup.terminalReleased]) {
    await jsm.consumers.delete(consumer.jetStream!.stream, consumer.name).catch(() => undefined);
    await jsm.streams.delete(consumer.jetStream!.deadLetterStream).catch(() => undefined);
  }
  if (setup.ownStream) await jsm.streams.delete(setup.ownStream).catch(() => undefined);
  // A shared stream keeps others' messages: delete only the run's (its PBO's groupId).
  const decoder = new TextDecoder();
  for (const [stream, firstSeq] of setup.shared) {
    const lastSeq = (await jsm.streams.info(stream)).state.last_seq;
    for (let seq = firstSeq; seq <= lastSeq; seq++) {
      const message = await jsm.streams.getMessage(stream, { seq }).catch(() => undefined);
      if (!message || !(STREAMED_SUBJECTS as readonly string[]).includes(message.subject)) continue;
      if (decoder.decode(message.data).includes(groupIdPart)) await jsm.streams.deleteMessage(stream, seq, false).catch(() => false);
    }
  }
}

interface BenchOptions {
  seconds: number;
  /** The fixed offered rate of the second figure, sales/s (0: none). */
  rate: number;
  warmUp: number;
  connections: number;
  devices: number;
}

/** `--count-sql <dir>`: each sale server counts the statements it sends (bench/sql-count.ts); per approved sale in <dir>/sql-<mode>.json. */
const COUNT_SQL_DIR = process.argv.includes('--count-sql') ? process.argv[process.argv.indexOf('--count-sql') + 1] : undefined;
if (COUNT_SQL_DIR) mkdirSync(COUNT_SQL_DIR, { recursive: true });
let sqlSnapshot = 0;

/** With --count-sql: the statement counts of the sale servers among `pids` so far (each writes its file on SIGWINCH), summed. */
async function sqlCountsOf(pids: number[], mode: string): Promise<SqlCounts | undefined> {
  if (!COUNT_SQL_DIR) return undefined;
  const dir = COUNT_SQL_DIR;
  const before = new Set(readdirSync(dir));
  const servers = pids.filter((pid) => SQL_COUNTED.has(pid));
  for (const pid of servers) process.kill(pid, 'SIGWINCH');
  const deadline = Date.now() + 10_000;
  let fresh: string[] = [];
  while ((fresh = readdirSync(dir).filter((name) => !before.has(name) && name.startsWith('sql-') && name.endsWith('.json'))).length < servers.length && Date.now() < deadline) await sleep(20);
  await sleep(50);
  const sum: SqlCounts = { statements: {}, commits: 0 };
  for (const name of fresh) {
    const counts = JSON.parse(readFileSync(join(dir, name), 'utf8')) as SqlCounts;
    renameSync(join(dir, name), join(dir, `raw-${mode}-${sqlSnapshot++}-${name}`));
    sum.commits += counts.commits;
    for (const [key, count] of Object.entries(counts.statements)) sum.statements[key] = (sum.statements[key] ?? 0) + count;
  }
  return sum;
}

function writeSqlCounts(mode: string, before: SqlCounts, after: SqlCounts, sales: number): void {
  const delta = sqlDelta(before, after);
  const perSale = Object.fromEntries(Object.entries(delta.statements).map(([key, count]) => [key, Number((count / sales).toFixed(3))]));
  const total = Object.values(delta.statements).reduce((sum, count) => sum + count, 0);
  writeFileSync(
    join(COUNT_SQL_DIR!, `sql-${mode}.json`),
    JSON.stringify({ sales, statementsPerSale: total / sales, commitsPerSale: delta.commits / sales, perSale }, null, 2),
  );
  console.log(`[${mode}] SQL per approved sale (the sale servers' own count): ${(total / sales).toFixed(2)} statements, ${(delta.commits / sales).toFixed(2)} commits`);
}
/** The pids of servers started with the SQL counter. */
const SQL_COUNTED = new Set<number>();

/** `--cpu-prof <dir>`: each sale server writes a CPU profile of its life there when stopped (bench/sale-server.ts). */
const CPU_PROF_DIR = process.argv.includes('--cpu-prof') ? process.argv[process.argv.indexOf('--cpu-prof') + 1] : undefined;
// Made here: a server told to stop could not write its profile into a directory that does not exist.
if (CPU_PROF_DIR) mkdirSync(CPU_PROF_DIR, { recursive: true });

const SALE_SERVER = join(__dirname, 'sale-server.ts');
const SIMULATOR_PROCESS = join(__dirname, 'iso-simulator.ts');

async function startServer(mode: string, databaseUrl: string, settings: SaleServerSettings, compiled: CompiledServers): Promise<ChildServer> {
  const server = await startChildServer(
    SALE_SERVER,
    [mode, databaseUrl, JSON.stringify(settings)],
    mode,
    {
      ...(CPU_PROF_DIR ? { BENCH_CPU_PROF: CPU_PROF_DIR } : {}),
      ...(COUNT_SQL_DIR ? { BENCH_COUNT_SQL: COUNT_SQL_DIR } : {}),
    },
    compiled,
  );
  if (COUNT_SQL_DIR) SQL_COUNTED.add(server.child.pid!);
  return server;
}

async function main(): Promise<void> {
  const options: BenchOptions = {
    seconds: option('seconds', 10, 1),
    rate: option('rate', TARGET_PER_SEC, 20),
    warmUp: option('warm-up', 3, 0),
    connections: option('connections', 32, 2),
    devices: option('devices', 8, 2),
  };
  const run = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  console.log(
    `bench:sale on ${cpus().length} cores, node ${process.version}: ${options.connections} connections over ${options.devices} devices, ${options.seconds} s per figure after ${options.warmUp} s of warm-up, then ${options.rate} sales/s offered; synchronous_commit ${SYNCHRONOUS_COMMIT}`,
  );
  // The servers run as deployed: compiled JavaScript under node, not ts-node (docs/decisions.md, "Benchmarks run compiled servers").
  const compiled = await compileChildServers([SALE_SERVER, CONNECTOR_PROCESS, SIMULATOR_PROCESS]);
  const children: ChildServer[] = [];
  // The run's DATA_ENCRYPTION_KEY: the gateway seals host.authorize.v1's card data under it, the connector opens it.
  const dataEncryptionKey = randomBytes(32).toString('base64');
  const killOnExit = () => children.forEach((server) => server.child.exitCode === null && server.child.kill('SIGKILL'));
  process.once('exit', killOnExit);
  const figures = await withScratchDatabase(async (db) => {
    // A scratch database takes synchronous_commit off (test databases need not survive a crash);
    // the platform's commits wait for the WAL flush, so the bench's do too (the servers connect after this).
    await withClient(db.url, (client) => client.query(`ALTER DATABASE "${db.name}" SET synchronous_commit TO ${SYNCHRONOUS_COMMIT}`));
    const pool = new Pool({ connectionString: db.url, max: 2 });
    const watch = await OrderWatch.start(db.url);
    const simulator = await startChildServer(SIMULATOR_PROCESS, [], 'host simulator', {}, compiled);
    children.push(simulator);
    watchOutput(simulator, 'host-simulator');
    const isoUrl = `tcp://127.0.0.1:${simulator.port}`;
    try {
      const standaloneServer = await startServer('standalone', db.url, { isoUrl, dataEncryptionKey }, compiled);
      children.push(standaloneServer);
      let standalone: ModeResult;
      try {
        await watch.install();
        const port = standaloneServer.port;
        standalone = await measureSales('standalone', pool, watch, { mm: port, gateway: port, orders: port }, isoUrl, run, options, [standaloneServer.child.pid!]);
      } finally {
        await stopChild(standaloneServer);
      }

      const connection: NatsConnection = await connect({ servers: NATS_URL.split(','), name: 'bench-sale' });
      const jsm = await connection.jetstreamManager();
      const setup = await natsSetup(jsm, run);
      const started: ChildServer[] = [];
      try {
        const connectorSettings: IsoConnectorSettings = {
          natsUrl: NATS_URL,
          isoUrl,
          stream: setup.streamOf(GATEWAY_TRANSACTION_UPDATED_V1),
          streamSubject: GATEWAY_TRANSACTION_UPDATED_V1,
          subjectPrefix: setup.nats.subjectPrefix,
          dataEncryptionKey,
          terminalReleased: setup.terminalReleased,
        };
        const connector = await startChildServer(CONNECTOR_PROCESS, [db.url, JSON.stringify(connectorSettings)], 'host connector', {}, compiled);
        started.push(connector);
        watchOutput(connector, 'host-connector');
        const settings: SaleServerSettings = { isoUrl, nats: setup.nats, dataEncryptionKey };
        const [transactions, gateway, mm] = [
          await startServer('transactions', db.url, settings, compiled),
          await startServer('gateway', db.url, settings, compiled),
          await startServer('mm', db.url, settings, compiled),
        ];
        started.push(transactions, gateway, mm);
        children.push(...started);
        const baseline = await connectorBaseline(new NatsRequestReply(connection), setup.nats.subjectPrefix, run, options, new CpuMeter(pool, [connector.child.pid!]));
        const pids = [connector, transactions, gateway, mm].map((server) => server.child.pid!);
        const names = ['host-connector', 'transactions', 'payment-gateway', 'merchant-management'];
        const nats = await measureSales('nats', pool, watch, { mm: mm.port, gateway: gateway.port, orders: transactions.port }, isoUrl, run, options, pids, names);
        return { standalone, nats, baseline };
      } finally {
        for (const server of started.reverse()) await stopChild(server);
        await natsCleanup(jsm, setup, run);
        await connection.drain();
      }
    } finally {
      await stopChild(simulator);
      await watch.close();
      await pool.end();
    }
  });
  process.removeListener('exit', killOnExit);
  writeReport(figures.standalone, figures.nats, figures.baseline, options);

  const results = [figures.standalone, figures.nats].flatMap(({ closed, fixed }) => (fixed ? [closed, fixed] : [closed]));
  const broken = results.filter(
    (result) => result.approved === 0 || Object.keys(result.failures).length > 0 || result.unlisted > 0 || result.apiListed !== result.apiChecked,
  );
  if (broken.length > 0 || !(figures.baseline.perSec > 0)) {
    const named = broken.map((result) => `${result.mode}${result.offeredPerSec ? ` at ${result.offeredPerSec}/s` : ''}`);
    console.error(`refused, unapproved or unlisted sales (or no baseline) in: ${named.join(', ') || 'the baseline'}`);
    process.exitCode = 1;
  }
}

/** The target is met at the fixed rate: at least 98 % of it achieved (the span runs to the last order listed), nothing refused, unapproved or unlisted, p99 under the target. */
function meetsTarget(result: SaleResult | undefined): boolean {
  if (!result?.offeredPerSec || result.offeredPerSec < TARGET_PER_SEC) return false;
  const clean = Object.keys(result.failures).length === 0 && result.unlisted === 0;
  return clean && result.perSec >= 0.98 * TARGET_PER_SEC && result.p99 < TARGET_P99_MS;
}

function writeReport(standalone: ModeResult, nats: ModeResult, baseline: Baseline, options: BenchOptions): void {
  const cpu = (spent: { processes: number; postgres: number }) => `${spent.processes.toFixed(1)} + ${spent.postgres.toFixed(1)}`;
  const ms = (value: number) => value.toFixed(1);
  const errors = (result: SaleResult) => Object.values(result.failures).reduce((sum, count) => sum + count, 0) + result.unlisted;
  const row = (label: string, result: SaleResult) =>
    `| ${label} | ${result.offeredPerSec ? `${result.offeredPerSec}/s offered` : `closed loop, ${result.connections} connections`} | ${Math.round(result.perSec)} | ${errors(result)} | ${ms(result.p50)} / ${ms(result.p99)} | ${ms(result.httpP50)} / ${ms(result.httpP99)} | ${ms(result.answerToListedP50)} / ${ms(result.answerToListedP99)} | ${(result.perSec / baseline.perSec).toFixed(2)} | ${cpu(result.cpuMsPerSale)} | ${result.commitsPerSale.toFixed(1)} |`;
  const rows = (label: string, result: ModeResult) => [row(label, result.closed), ...(result.fixed ? [row(label, result.fixed)] : [])];
  const fixed = nats.fixed;
  const verdict = meetsTarget(fixed)
    ? 'met'
    : fixed
      ? `not met (${fixed.offeredPerSec}/s offered: ${Math.round(fixed.perSec)} approved sales/s achieved, ${errors(fixed)} refused, failed or unlisted, p99 ${fixed.p99.toFixed(0)} ms to the order listed)`
      : 'not measured (no fixed-rate figure: --rate 0)';
  writeBenchmarkSection(
    'sale',
    [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, synchronous_commit ${SYNCHRONOUS_COMMIT} in the run's database; ${options.devices} activated devices, ${options.seconds} s per figure: first a closed loop (autocannon, ${options.connections} connections, after a ${options.warmUp} s warm-up), then ${options.rate} sales/s offered at a fixed rate.`,
      '',
      '| mode | load | approved sales/s (to the order listed) | refused, failed or unlisted | request → order listed p50 / p99 ms | HTTP answer p50 / p99 ms | HTTP answer → order listed p50 / p99 ms | ratio to the connector | CPU ms per sale: processes + PostgreSQL | commits per sale |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows('standalone (one process, in-process transport)', standalone),
      ...rows('NATS (merchant-management, payment-gateway, transactions, host-connector: four processes)', nats),
      `| baseline: host.authorize.v1 over NATS to the same connector and simulator | ${options.connections} in flight | ${Math.round(baseline.perSec)} | | | ${baseline.p50.toFixed(1)} / ${baseline.p99.toFixed(1)} | | 1 | ${cpu(baseline.cpuMsPerAuthorize)} (the connector) | ${baseline.commitsPerAuthorize.toFixed(1)} |`,
      '',
      `Target over NATS: ${TARGET_PER_SEC} approved sales/s with p99 under ${TARGET_P99_MS} ms to the order listed, read on the fixed-rate row (at least 98 % of the offered rate achieved, none refused, failed or unlisted): ${verdict}. Capacity (the closed loop's maximum): ${Math.round(nats.closed.perSec)} approved sales/s over NATS.`,
      '',
      'Method. The host simulator (ISO8583 preset over TCP on loopback, its own process) is the acquirer. Set-up through the API: a card acquirer with the ISO8583 format and the simulator as its address, a merchant, its payment configuration, devices created and activated (`/api/sdk/v1/activate`), each with its own TID, and one sale per device (its sign-on) before the warm-up; the PBO is a row (PBOs have no API). ' +
        "Each sale is a `POST /{ns}/api/v1/transaction` under a device's token with a fresh Idempotency-Key and the EMV of the Visa test card (`testCardEmv`) for an amount the simulator approves. " +
        'Its latency runs to the order committing in transactions.orders: a trigger installed by the bench in its scratch database notifies at commit (PostgreSQL delivers a notification when its transaction commits, which is when `GET /api/v2/order` can list it); 20 of the approved sales of each figure are also looked up with `GET /api/v2/order?transactionId=…`. ' +
        'Two loads per mode. The closed loop (the capacity): each connection sends its next sale when the last is answered, so the latency there is mostly queueing (about connections / rate); it is timed from the request being sent, the HTTP answer by autocannon. ' +
        `The fixed rate (the target's figure): sale i is due at start + i / rate for the same duration, sent on a free keep-alive connection (Node's http client, up to ${PACED_MAX_SOCKETS}) whether or not the earlier ones were answered, and every latency (HTTP answer and order listed) is timed from when the sale was due, so a load generator that fell behind counts its delay against the platform (no coordinated omission). autocannon's \`overallRate\` was not used for it: it gives each connection a quota per one-second window, sent back to back, so the sales come in bursts at each second's start, and its correction of the latency for a rate records made-up samples at a 1 ms interval. ` +
        "The rate is the approved sales over the time from the first request to the last of their orders listed. Over NATS the four contexts run as the distributed deployment runs them, with the run's own request/reply subject prefix, stream and durable consumers on the shared NATS server (a subject another stream already captures is published and consumed there). " +
        'Every server process (the sale servers, the connector, the simulator) runs as the image runs the apps: compiled by tsc with tsconfig.build.json at the start of the run, under node, not ts-node. ' +
        'The baseline is the connector alone: `host.authorize.v1` requests over NATS (as the gateway asks) to the same connector process and simulator, same in-flight count, in the same run; the sale ratios read against it. ' +
        "CPU per sale: user and system time (/proc) of the platform's processes (standalone: the one; NATS: the four, the simulator excluded) and of PostgreSQL's backends of the run's database, from the load's start to the last order listed, over the approved sales; commits per sale: the run database's `xact_commit` (pg_stat_database) over the same span, the pollers' and the bench's own few included; on a machine shared with other work it says what a sale costs where rates and latencies say how busy the machine was. " +
        'The load generator, the simulator and the NATS server run on the same cores and are not counted in the CPU per sale. The machine may be shared with other work while measuring: read the ratios and the CPU per sale rather than the absolute rates.',
    ],
    "Approved sales per second and the latency from the SDK request to the order being listed, standalone and over NATS, with the host simulator as the acquirer over TCP, against the connector's own authorize rate measured in the same run. Run `npm run bench:sale` (NATS at `NATS_URL`, default nats://127.0.0.1:4222; PostgreSQL at `DATABASE_URL`, else an embedded server).",
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
