/**
 * bench:sync — how fast a payment-config change reaches the gateway profiles of a merchant's
 * devices (docs/architecture.md, flow 3), and how long one device's push takes (flow 2), in
 * standalone (in-process transport, one process) and over NATS JetStream (merchant-management
 * and payment-gateway in separate processes). Rewrites the sync section of docs/benchmarks.md.
 *   npm run bench:sync [-- --devices 1000 --singles 100] (BENCH_SMOKE=1: 20 devices, 5 singles, bench/options.ts)
 * NATS at NATS_URL (default nats://127.0.0.1:4222). The run uses its own durable consumer and
 * dead-letter stream, and its own event stream unless one already captures the upsert subject;
 * it deletes them (and, in a shared stream, its own messages) afterwards.
 */
import { signPboToken } from '@app/common';
import { GATEWAY_PROFILE_UPSERT_V1 } from '@app/contracts';
import { DeliverPolicy, connect, JetStreamManager } from 'nats';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { profileUpsertConsumer, transactionWebhookConsumer } from '../apps/payment-gateway/src';
import { ConsumerDefinition, durableConsumerConfig } from '@app/messaging/consumer';
import { subjectMatches } from '@app/messaging';
import { withScratchDatabase } from '../scripts/with-database';
import { DEVELOPMENT_ZMK } from '@app/host-protocol';
import { BENCH_AUTH } from './bench-auth';
import { option } from './options';
import { writeBenchmarkSection } from './report';
import type { SyncServerNats } from './sync-server';
import { ChildServer, startChildServer } from '@app/testing/child-server';
import { idleConsumer, IdleConsumer } from '@app/testing/nats';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const TARGET_MS = 2000;
const POLL_MS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface ModeResult {
  mode: string;
  devices: number;
  seedMs: number;
  /** Payment-config change sent → every profile at the new version. */
  fanOutMs: number;
  /** Of which the HTTP request (bind + re-push transaction). */
  requestMs: number;
  /** Of which until the relay had published every outbox row (the rest is the consumer). */
  relayedMs: number;
  singles: number;
  p50: number;
  p99: number;
}

type Server = ChildServer;

/**
 * The servers run with NODE_ENV=production, where standalone refuses to fall back to its
 * development ZMK: they get that same development value as HOST_ZMK (the host connector inside
 * standalone needs a key; nothing in this bench talks to a host).
 */
const SERVER_ENV = { HOST_ZMK: DEVELOPMENT_ZMK.toString('hex').toUpperCase() };

function startServer(mode: string, url: string, nats?: SyncServerNats): Promise<Server> {
  return startChildServer(join(__dirname, 'sync-server.ts'), [mode, url, ...(nats ? [JSON.stringify(nats)] : [])], mode, SERVER_ENV);
}

/** SIGTERM (graceful: the relay and the consumer stop) and wait for the exit. */
async function stopServer(server: Server | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
}

async function api(port: number, token: string, method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { code: number; msg: string; data?: Record<string, unknown> };
  if (!response.ok || json.code !== 0) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data ?? {};
}

/** A PBO with two card acquirer profiles (VISA, MASTERCARD) and one merchant bound to the first. */
async function seedMerchant(pool: Pool, groupId: string): Promise<{ mchId: string; secondProfileId: number }> {
  const run = async (sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as Record<string, unknown>[];
  await run(`INSERT INTO merchant_management.pbo (group_id, group_name, time_zone) VALUES ($1, $1, 'Asia/Kuala_Lumpur')`, [groupId]);
  const profileIds: number[] = [];
  for (const [method, name, aid] of [
    ['01', 'visa', 'A0000000031010'],
    ['02', 'mastercard', 'A0000000041010'],
  ]) {
    const [emv] = await run(
      `INSERT INTO merchant_management.emv_config (group_id, emv_name, payment_method, currency, params, aid) VALUES ($1, $2, $3, 'MYR', $4, $5) RETURNING id`,
      [groupId, name, method, JSON.stringify({ aid }), aid],
    );
    const [profile] = await run(
      `INSERT INTO merchant_management.acquirer_profile (group_id, profile_name, currency, acq_type, conn_message_format, method_list, as_default)
       VALUES ($1, $2, 'MYR', 'card', 'SVC_ENABLER', $3, false) RETURNING id`,
      [groupId, `acquirer ${name}`, JSON.stringify({ [method]: [] })],
    );
    await run(`INSERT INTO merchant_management.acquirer_profile_emv (profile_id, payment_method, emv_id, position) VALUES ($1, $2, $3, 0)`, [
      profile.id,
      method,
      emv.id,
    ]);
    profileIds.push(Number(profile.id));
  }
  const mchId = String(100000000000000 + Math.floor(Math.random() * 1e12));
  const [merchant] = await run(
    `INSERT INTO merchant_management.merchant (uuid, mch_id, group_id, mch_name, time_zone, contact_name, contact_email, currency, mcc, country)
     VALUES (gen_random_uuid(), $1, $2, 'Bench merchant', 'Asia/Kuala_Lumpur', 'Contact', 'c@example.com', 'MYR', '5812', 'MY') RETURNING uuid`,
    [mchId, groupId],
  );
  const [binding] = await run(
    `INSERT INTO merchant_management.payment_binding (merchant_uuid, group_id, acquirer_profile_id, currency) VALUES ($1, $2, $3, 'MYR') RETURNING id`,
    [merchant.uuid, groupId, profileIds[0]],
  );
  const [method] = await run(
    `INSERT INTO merchant_management.payment_method_binding (binding_id, merchant_uuid, currency, payment_method_code) VALUES ($1, $2, 'MYR', '01') RETURNING id`,
    [binding.id, merchant.uuid],
  );
  await run(
    `INSERT INTO merchant_management.payment_method_emv (method_id, emv_id, position)
     SELECT $1, e.id, 0 FROM merchant_management.emv_config e WHERE e.group_id = $2 AND e.payment_method = '01'`,
    [method.id, groupId],
  );
  return { mchId, secondProfileId: profileIds[1] };
}

async function profilesAt(pool: Pool, groupId: string, version: number): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_gateway.profile WHERE group_id = $1 AND version >= $2', [
    groupId,
    version,
  ]);
  return rows[0].n;
}

async function waitForProfiles(pool: Pool, groupId: string, version: number, count: number, timeoutMs: number, pollMs = POLL_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await profilesAt(pool, groupId, version)) < count) {
    if (Date.now() > deadline)
      throw new Error(`only ${await profilesAt(pool, groupId, version)} of ${count} profiles reached version ${version} in ${timeoutMs} ms`);
    await sleep(pollMs);
  }
}

async function measureMode(mode: string, pool: Pool, port: number, devices: number, singles: number): Promise<ModeResult> {
  const groupId = `bench-sync-${mode}-${randomBytes(3).toString('hex')}`;
  const token = await signPboToken(BENCH_AUTH, groupId, 3600);
  const { mchId, secondProfileId } = await seedMerchant(pool, groupId);

  // 1. The merchant's devices, through the API (each pushes its profile at version 1).
  const seedStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < devices) {
        const i = next++;
        await api(port, token, 'POST', '/api/openapi/v1/device', { mchId, deviceName: `device ${i}` });
      }
    }),
  );
  await waitForProfiles(pool, groupId, 1, devices, 120_000);
  const seedMs = performance.now() - seedStart;
  console.log(`[${mode}] ${devices} devices created and synced in ${(seedMs / 1000).toFixed(1)} s`);
  await pool.query('ANALYZE');
  await sleep(1000);

  // 2. One payment-config change: bind the second acquirer profile; every device's profile goes to version 2.
  const t0 = performance.now();
  await api(port, token, 'POST', `/api/openapi/v1/mchInfo/payment/${mchId}`, { acquirerProfileId: String(secondProfileId), currency: 'MYR' });
  const requestMs = performance.now() - t0;
  // Where the time goes: the same poll also notes when the relay has published the last outbox row.
  let relayedMs: number | undefined;
  const deadline = Date.now() + 120_000;
  while ((await profilesAt(pool, groupId, 2)) < devices) {
    if (relayedMs === undefined) {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM merchant_management.outbox WHERE published_at IS NULL');
      if (rows[0].n === 0) relayedMs = performance.now() - t0;
    }
    if (Date.now() > deadline) throw new Error(`only ${await profilesAt(pool, groupId, 2)} of ${devices} profiles reached version 2`);
    await sleep(POLL_MS);
  }
  const fanOutMs = performance.now() - t0;
  relayedMs ??= fanOutMs;
  console.log(
    `[${mode}] ${devices} profiles at the new version in ${fanOutMs.toFixed(0)} ms (request ${requestMs.toFixed(0)} ms, outbox relayed at ${relayedMs.toFixed(0)} ms)`,
  );
  await sleep(1000);

  // 3. Single pushes: sequential device creations, each until its profile exists in the gateway.
  const latencies: number[] = [];
  for (let i = 0; i < singles; i++) {
    const start = performance.now();
    const created = await api(port, token, 'POST', '/api/openapi/v1/device', { mchId, deviceName: `single ${i}` });
    const profileId = created.profileId as string;
    for (;;) {
      const { rowCount } = await pool.query('SELECT 1 FROM payment_gateway.profile WHERE id = $1', [profileId]);
      if (rowCount) break;
      if (performance.now() - start > 30_000) throw new Error(`profile ${profileId} never arrived`);
      await sleep(1);
    }
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);
  const result = { mode, devices, seedMs, fanOutMs, requestMs, relayedMs, singles, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  console.log(`[${mode}] single device push p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms over ${singles}`);
  return result;
}

/** The bench's JetStream names; a stream already capturing the upsert subject is shared, not replaced. */
async function natsSetup(jsm: JetStreamManager, run: string): Promise<{ nats: SyncServerNats; sharedStream: boolean; firstSeq: number; webhooks: IdleConsumer }> {
  let stream = `BENCH_SYNC_${run}`;
  let sharedStream = false;
  let firstSeq = 1;
  for await (const info of jsm.streams.list()) {
    if ((info.config.subjects ?? []).some((pattern) => subjectMatches(pattern, GATEWAY_PROFILE_UPSERT_V1))) {
      stream = info.config.name;
      sharedStream = true;
      firstSeq = info.state.last_seq + 1;
      const consumers: string[] = [];
      for await (const consumer of jsm.consumers.list(stream)) consumers.push(consumer.name);
      console.warn(
        `stream ${stream} already captures ${GATEWAY_PROFILE_UPSERT_V1}: publishing there (its consumers ${consumers.join(', ') || 'none'} see the bench's messages too)`,
      );
    }
  }
  const consumer: ConsumerDefinition = {
    ...profileUpsertConsumer,
    name: `bench_sync_${run}`,
    deadLetterSubject: `dlq.bench.${run}.profile.upsert.v1`,
    jetStream: { ...profileUpsertConsumer.jetStream!, stream, deadLetterStream: `BENCH_SYNC_DLQ_${run}` },
  };
  if (!sharedStream) {
    await jsm.streams.add({ name: stream, subjects: [GATEWAY_PROFILE_UPSERT_V1] });
  }
  // Created beforehand so that it starts at the bench's own messages (the app's own config delivers all).
  await jsm.consumers.add(stream, { ...durableConsumerConfig(consumer), deliver_policy: DeliverPolicy.New });
  // The gateway's webhook intake is not measured here: out of the way, on the bench's names.
  const webhooks = await idleConsumer(jsm, transactionWebhookConsumer, run);
  return { nats: { servers: NATS_URL, stream, consumer, webhookConsumer: webhooks.definition }, sharedStream, firstSeq, webhooks };
}

async function natsCleanup(jsm: JetStreamManager, setup: Awaited<ReturnType<typeof natsSetup>>): Promise<void> {
  const { nats, sharedStream, firstSeq } = setup;
  await setup.webhooks.remove();
  await jsm.consumers.delete(nats.stream, nats.consumer.name).catch(() => undefined);
  await jsm.streams.delete(nats.consumer.jetStream!.deadLetterStream).catch(() => undefined);
  if (!sharedStream) {
    await jsm.streams.delete(nats.stream).catch(() => undefined);
    return;
  }
  // A shared stream keeps others' messages: delete only the bench's (groupId bench-sync-…).
  const decoder = new TextDecoder();
  const lastSeq = (await jsm.streams.info(nats.stream)).state.last_seq;
  let deleted = 0;
  for (let seq = firstSeq; seq <= lastSeq; seq++) {
    const message = await jsm.streams.getMessage(nats.stream, { seq }).catch(() => undefined);
    if (!message || message.subject !== GATEWAY_PROFILE_UPSERT_V1) continue;
    const groupId = (JSON.parse(decoder.decode(message.data)) as { groupId?: string }).groupId ?? '';
    if (groupId.startsWith('bench-sync-') && (await jsm.streams.deleteMessage(nats.stream, seq, false).catch(() => false))) deleted++;
  }
  console.log(`deleted the bench's ${deleted} messages from ${nats.stream}`);
}

async function main(): Promise<void> {
  const devices = option('devices', 1000, 20);
  const singles = option('singles', 100, 5);
  const run = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const results = await withScratchDatabase(async (db) => {
    const pool = new Pool({ connectionString: db.url, max: 2 });
    const rows: ModeResult[] = [];
    try {
      let server: Server | undefined = await startServer('standalone', db.url);
      try {
        rows.push(await measureMode('standalone', pool, server.port, devices, singles));
      } finally {
        await stopServer(server);
      }

      const connection = await connect({ servers: NATS_URL.split(','), name: 'bench-sync-observer' });
      const jsm = await connection.jetstreamManager();
      const setup = await natsSetup(jsm, run);
      let gateway: Server | undefined;
      server = undefined;
      try {
        gateway = await startServer('gateway', db.url, setup.nats);
        server = await startServer('mm', db.url, setup.nats);
        rows.push(await measureMode('nats', pool, server.port, devices, singles));
      } finally {
        await stopServer(server);
        await stopServer(gateway);
        await natsCleanup(jsm, setup);
        await connection.drain();
      }
    } finally {
      await pool.end();
    }
    return rows;
  });
  writeReport(results);
}

function writeReport(rows: ModeResult[]): void {
  const label = (mode: string) =>
    mode === 'nats' ? 'NATS JetStream (merchant-management and payment-gateway in two processes)' : 'standalone (one process, in-process transport)';
  writeBenchmarkSection(
    'sync',
    [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; one merchant with ${rows[0]?.devices ?? 0} devices (created through the API, each with its gateway profile); the change binds a second acquirer profile (POST /mchInfo/payment/{mchId}); completion polled every ${POLL_MS} ms with a count of payment_gateway.profile at the new version. Single push: ${rows[0]?.singles ?? 0} sequential POST /device, each timed until its gateway profile exists.`,
      '',
      `| mode | ${rows[0]?.devices ?? 0} profiles updated, ms | of which the HTTP request (re-push transaction), ms | outbox fully relayed at, ms | ratio to the ${TARGET_MS / 1000} s target | single push p50 / p99 ms |`,
      '|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${label(r.mode)} | ${r.fanOutMs.toFixed(0)} | ${r.requestMs.toFixed(0)} | ${r.relayedMs.toFixed(0)} | ${(r.fanOutMs / TARGET_MS).toFixed(2)} | ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} |`,
      ),
      '',
      `Target: ${rows[0]?.devices ?? 0} profiles in under ${TARGET_MS / 1000} s over NATS (ratio below 1).`,
    ],
    `How fast a payment-config change reaches the gateway profiles of all of a merchant's devices (outbox → relay → transport → profile-upsert consumer), and one device's push latency. Run \`npm run bench:sync\` (NATS at \`NATS_URL\`, default nats://127.0.0.1:4222).`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
