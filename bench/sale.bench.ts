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
 * processes and PostgreSQL's backends. Rewrites the bench:sale section of docs/benchmarks.md.
 *   npm run bench:sale [-- --seconds 10 --warm-up 3 --connections 32 --devices 8 --cpu-prof <dir> --count-sql <dir>]
 * NATS at NATS_URL (default nats://127.0.0.1:4222); PostgreSQL at DATABASE_URL, else an embedded
 * server (scripts/with-database.ts). Everything is set up through the API (the PBO row excepted:
 * PBOs have no API). Fails (exit code 1) when a sale is refused or not approved, an approved sale's
 * order is never listed, or a phase gets no answer; the target (500 sales/s, p99 under 100 ms over
 * NATS) is reported, not asserted. BENCH_SMOKE=1 (bench/options.ts): 2 connections, 2 devices, no warm-up,
 * 6 sales per mode and 1 s of connector baseline.
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
  /** The HTTP answer alone (autocannon), ms. */
  httpP50: number;
  httpP99: number;
  /** Approved sales whose order was never listed. */
  unlisted: number;
  /** Orders checked through GET /api/v2/order?transactionId=…, and how many were listed there. */
  apiChecked: number;
  apiListed: number;
  /** CPU ms per approved sale, from the load's start to the last order listed: the platform's processes, and PostgreSQL's backends of the run's database. */
  cpuMsPerSale: { processes: number; postgres: number };
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

/** CPU time (user + system, ms) of processes, from /proc: what a figure costs on a machine shared with other work, where rates say little. */
function cpuMsOf(pids: Iterable<number>): Map<number, number> {
  const ticksPerSecond = 100; // USER_HZ, 100 on Linux
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      // The fields after the command name (which may hold spaces), from state: utime is the 12th, stime the 13th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond);
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
    this.pgBefore = cpuMsOf(await this.backends());
  }

  /** CPU ms spent since start(): by the processes, and by the backends (one connected since counts from 0); and the commits in the run's database (every client's, the bench's own few included). */
  async stop(): Promise<{ processesMs: number; postgresMs: number; commits: number; byPid: Map<number, number> }> {
    const spent = (now: Map<number, number>, before: Map<number, number>) => [...now].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
    const now = cpuMsOf(this.pids);
    const byPid = new Map([...now].map(([pid, ms]) => [pid, ms - (this.before.get(pid) ?? 0)]));
    const processesMs = spent(now, this.before);
    const postgresMs = spent(cpuMsOf(await this.backends()), this.pgBefore);
    return { processesMs, postgresMs, commits: (await this.commits()) - this.commitsBefore, byPid };
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

interface LoadRecord {
  approved: Map<string, number>;
  failures: Record<string, number>;
  startedAt: number;
  http: autocannon.Result;
}

/** autocannon's POSTs of sales over the tills, each with a fresh Idempotency-Key; notes when each was sent and what came back. */
async function load(
  port: number,
  tills: Till[],
  connections: number,
  length: { seconds: number } | { sales: number },
  counter: { i: number },
): Promise<LoadRecord> {
  const approved = new Map<string, number>();
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
          return {
            ...request,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${till.deviceToken}`, 'idempotency-key': randomUUID() },
            body: saleBody(till, i),
          };
        },
        onResponse: (status: number, body: string, context: Context) => {
          let outcome = `HTTP ${status}`;
          try {
            const transaction = JSON.parse(body) as { tranId?: string; tranStatus?: string };
            if (status === 201 && transaction.tranStatus === 'APPROVED' && transaction.tranId) {
              approved.set(transaction.tranId, context.sentAt ?? NaN);
              return;
            }
            outcome += ` ${transaction.tranStatus ?? (body.length > 120 ? `${body.slice(0, 120)}…` : body)}`;
          } catch {
            outcome += ' (not JSON)';
          }
          failures[outcome] = (failures[outcome] ?? 0) + 1;
        },
      },
    ],
  });
  if (http.errors > 0) failures['transport error'] = http.errors;
  return { approved, failures, startedAt, http };
}

/** Waits until every approved sale's order is listed, or DRAIN_MS. */
async function drained(watch: OrderWatch, tranIds: Iterable<string>): Promise<string[]> {
  const deadline = Date.now() + DRAIN_MS;
  let missing = [...tranIds];
  while ((missing = missing.filter((tranId) => !watch.listedAt.has(tranId))).length > 0 && Date.now() < deadline) await sleep(20);
  return missing;
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
): Promise<SaleResult> {
  const { pbo, tills } = await onboard(pool, ports, isoUrl, `${mode.slice(0, 2)}${run}`, options.devices);
  console.log(`[${mode}] ${tills.length} devices activated, their profiles at the gateway`);
  const counter = { i: 0 };
  // One sale per device first, one at a time: each device's first sale signs its terminal on, and none is cut off by a duration.
  for (const till of tills) {
    const i = counter.i++;
    const response = await fetch(`http://127.0.0.1:${ports.gateway}${GATEWAY}/transaction`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${till.deviceToken}`, 'idempotency-key': randomUUID() },
      body: saleBody(till, i),
    });
    const body = await response.text();
    if (response.status !== 201 || (JSON.parse(body) as { tranStatus?: string }).tranStatus !== 'APPROVED')
      throw new Error(`[${mode}] a first sale was not approved: ${response.status} ${body}`);
  }
  // Then the warm-up (JIT, pools) under the measured load; a machine so loaded that no sale is answered within it still goes on to the figure.
  if (options.warmUp > 0) await drained(watch, (await load(ports.gateway, tills, options.connections, { seconds: options.warmUp }, counter)).approved.keys());
  // Smoke mode: a fixed number of sales (a duration of a second could end before the first, slow one is answered).
  const cpu = new CpuMeter(pool, pids);
  await cpu.start();
  const sqlBefore = await sqlCountsOf(pids, mode);
  const measured = await load(ports.gateway, tills, options.connections, SMOKE ? { sales: options.connections * 3 } : { seconds: options.seconds }, counter);
  const unlisted = await drained(watch, measured.approved.keys());
  const spent = await cpu.stop();
  const sqlAfter = await sqlCountsOf(pids, mode);
  if (sqlBefore && sqlAfter) writeSqlCounts(mode, sqlBefore, sqlAfter, measured.approved.size);
  const latencies: number[] = [];
  let lastListed = measured.startedAt;
  for (const [tranId, sentAt] of measured.approved) {
    const listedAt = watch.listedAt.get(tranId);
    if (listedAt === undefined) continue;
    latencies.push(listedAt - sentAt);
    lastListed = Math.max(lastListed, listedAt);
  }
  latencies.sort((a, b) => a - b);
  // What a PBO sees: a sample of the approved sales looked up by transactionId in the order list.
  const sample = [...measured.approved.keys()].filter((_, index, all) => index % Math.max(1, Math.floor(all.length / 20)) === 0).slice(0, 20);
  let apiListed = 0;
  for (const tranId of sample) {
    const page = dataOf<{ records: { tranId: string; tranStatus: string }[] }>(await pbo.get(`/api/v2/order?transactionId=${encodeURIComponent(tranId)}`));
    if (page.records.length === 1 && page.records[0].tranId === tranId && page.records[0].tranStatus === 'APPROVED') apiListed++;
  }
  const result: SaleResult = {
    mode,
    connections: options.connections,
    seconds: options.seconds,
    approved: measured.approved.size,
    failures: measured.failures,
    perSec: measured.approved.size / ((lastListed - measured.startedAt) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    httpP50: measured.http.latency.p50,
    httpP99: measured.http.latency.p99,
    unlisted: unlisted.length,
    apiChecked: sample.length,
    apiListed,
    cpuMsPerSale: { processes: spent.processesMs / measured.approved.size, postgres: spent.postgresMs / measured.approved.size },
    commitsPerSale: spent.commits / measured.approved.size,
  };
  if (pids.length > 1) {
    const each = pids.map((pid, index) => `${names[index]} ${((spent.byPid.get(pid) ?? NaN) / measured.approved.size).toFixed(2)}`).join(', ');
    console.log(`[${mode}] CPU ms per approved sale by process: ${each}`);
  }
  const failed = Object.entries(result.failures)
    .map(([key, count]) => `${key} × ${count}`)
    .join(', ');
  console.log(
    `[${mode}] ${Math.round(result.perSec)} approved sales/s, request → order listed p50 ${result.p50.toFixed(1)} ms p99 ${result.p99.toFixed(1)} ms ` +
      `(HTTP answer p50 ${result.httpP50} ms p99 ${result.httpP99} ms); ${result.approved} approved, ${result.unlisted} never listed, ` +
      `${result.apiListed}/${result.apiChecked} found by GET /api/v2/order?transactionId; CPU per sale ${result.cpuMsPerSale.processes.toFixed(1)} ms in the processes + ${result.cpuMsPerSale.postgres.toFixed(1)} ms in PostgreSQL, ${result.commitsPerSale.toFixed(1)} commits${failed ? `; not approved: ${failed}` : ''}`,
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
    warmUp: option('warm-up', 3, 0),
    connections: option('connections', 32, 2),
    devices: option('devices', 8, 2),
  };
  const run = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  console.log(
    `bench:sale on ${cpus().length} cores, node ${process.version}: ${options.connections} connections over ${options.devices} devices, ${options.seconds} s per figure after ${options.warmUp} s of warm-up`,
  );
  // The servers run as deployed: compiled JavaScript under node, not ts-node (docs/decisions.md, "Benchmarks run compiled servers").
  const compiled = await compileChildServers([SALE_SERVER, CONNECTOR_PROCESS, SIMULATOR_PROCESS]);
  const children: ChildServer[] = [];
  // The run's DATA_ENCRYPTION_KEY: the gateway seals host.authorize.v1's card data under it, the connector opens it.
  const dataEncryptionKey = randomBytes(32).toString('base64');
  const killOnExit = () => children.forEach((server) => server.child.exitCode === null && server.child.kill('SIGKILL'));
  process.once('exit', killOnExit);
  const figures = await withScratchDatabase(async (db) => {
    const pool = new Pool({ connectionString: db.url, max: 2 });
    const watch = await OrderWatch.start(db.url);
    const simulator = await startChildServer(SIMULATOR_PROCESS, [], 'host simulator', {}, compiled);
    children.push(simulator);
    watchOutput(simulator, 'host-simulator');
    const isoUrl = `tcp://127.0.0.1:${simulator.port}`;
    try {
      const standaloneServer = await startServer('standalone', db.url, { isoUrl, dataEncryptionKey }, compiled);
      children.push(standaloneServer);
      let standalone: SaleResult;
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

  const broken = [figures.standalone, figures.nats].filter(
    (result) => result.approved === 0 || Object.keys(result.failures).length > 0 || result.unlisted > 0 || result.apiListed !== result.apiChecked,
  );
  if (broken.length > 0 || !(figures.baseline.perSec > 0)) {
    console.error(`refused, unapproved or unlisted sales (or no baseline) in: ${broken.map((result) => result.mode).join(', ') || 'the baseline'}`);
    process.exitCode = 1;
  }
}

function writeReport(standalone: SaleResult, nats: SaleResult, baseline: Baseline, options: BenchOptions): void {
  const cpu = (spent: { processes: number; postgres: number }) => `${spent.processes.toFixed(1)} + ${spent.postgres.toFixed(1)}`;
  const row = (label: string, result: SaleResult) =>
    `| ${label} | ${Math.round(result.perSec)} | ${result.p50.toFixed(1)} / ${result.p99.toFixed(1)} | ${result.httpP50} / ${result.httpP99} | ${(result.perSec / baseline.perSec).toFixed(2)} | ${cpu(result.cpuMsPerSale)} | ${result.commitsPerSale.toFixed(1)} |`;
  const met = nats.perSec >= TARGET_PER_SEC && nats.p99 < TARGET_P99_MS;
  writeBenchmarkSection(
    'sale',
    [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; autocannon, ${options.connections} connections over ${options.devices} activated devices, ${options.seconds} s per figure after a ${options.warmUp} s warm-up.`,
      '',
      '| mode | approved sales/s (to the order listed) | request → order listed p50 / p99 ms | HTTP answer p50 / p99 ms | ratio to the connector | CPU ms per sale: processes + PostgreSQL | commits per sale |',
      '|---|---|---|---|---|---|---|',
      row('standalone (one process, in-process transport)', standalone),
      row('NATS (merchant-management, payment-gateway, transactions, host-connector: four processes)', nats),
      `| baseline: host.authorize.v1 over NATS to the same connector and simulator, ${options.connections} in flight | ${Math.round(baseline.perSec)} | | ${baseline.p50.toFixed(1)} / ${baseline.p99.toFixed(1)} | 1 | ${cpu(baseline.cpuMsPerAuthorize)} (the connector) | ${baseline.commitsPerAuthorize.toFixed(1)} |`,
      '',
      `Target over NATS: ${TARGET_PER_SEC} sales/s with p99 under ${TARGET_P99_MS} ms: ${met ? 'met' : `not met (${Math.round(nats.perSec)} sales/s, p99 ${nats.p99.toFixed(0)} ms)`}.`,
      '',
      'Method. The host simulator (ISO8583 preset over TCP on loopback, its own process) is the acquirer. Set-up through the API: a card acquirer with the ISO8583 format and the simulator as its address, a merchant, its payment configuration, devices created and activated (`/api/sdk/v1/activate`), each with its own TID, and one sale per device (its sign-on) before the warm-up; the PBO is a row (PBOs have no API). ' +
        "Each sale is a `POST /{ns}/api/v1/transaction` under a device's token with a fresh Idempotency-Key and the EMV of the Visa test card (`testCardEmv`) for an amount the simulator approves. " +
        'Its latency runs from the request being sent to the order committing in transactions.orders: a trigger installed by the bench in its scratch database notifies at commit (PostgreSQL delivers a notification when its transaction commits, which is when `GET /api/v2/order` can list it); 20 of the approved sales are also looked up with `GET /api/v2/order?transactionId=…`. ' +
        "The rate is the approved sales over the time from the first request to the last of their orders listed. Over NATS the four contexts run as the distributed deployment runs them, with the run's own request/reply subject prefix, stream and durable consumers on the shared NATS server (a subject another stream already captures is published and consumed there). " +
        'Every server process (the sale servers, the connector, the simulator) runs as the image runs the apps: compiled by tsc with tsconfig.build.json at the start of the run, under node, not ts-node. ' +
        'The baseline is the connector alone: `host.authorize.v1` requests over NATS (as the gateway asks) to the same connector process and simulator, same in-flight count, in the same run; the sale ratios read against it. ' +
        "CPU per sale: user and system time (/proc) of the platform's processes (standalone: the one; NATS: the four, the simulator excluded) and of PostgreSQL's backends of the run's database, from the load's start to the last order listed, over the approved sales; commits per sale: the run database's `xact_commit` (pg_stat_database) over the same span, the pollers' and the bench's own few included; on a machine shared with other work it says what a sale costs where rates and latencies say how busy the machine was. " +
        'The machine was shared with other work while measuring: read the ratios and the CPU per sale rather than the absolute rates.',
    ],
    "Approved sales per second and the latency from the SDK request to the order being listed, standalone and over NATS, with the host simulator as the acquirer over TCP, against the connector's own authorize rate measured in the same run. Run `npm run bench:sale` (NATS at `NATS_URL`, default nats://127.0.0.1:4222; PostgreSQL at `DATABASE_URL`, else an embedded server).",
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
