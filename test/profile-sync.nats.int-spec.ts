import { configureHttpApp, signPboToken } from '@app/common';
import { EVENT_STREAM, GATEWAY_PROFILE_OUTCOME_V1, GATEWAY_PROFILE_UPSERT_V1, STREAMED_SUBJECTS } from '@app/contracts';
import { freePort } from '@app/database';
import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { connectMessaging, ensureStream } from '@app/messaging';
import { ConsumerDefinition, durableConsumerConfig } from '@app/messaging/consumer';
import {
  AcceptanceView,
  ApiClient,
  connectNatsOrFail,
  createCardAcquirer,
  createMerchant,
  createTestDatabase,
  dataOf,
  idleConsumer,
  gatewayBase,
  GatewayClient,
  NATS_URL,
  NatsServerProcess,
  ProfileWithAcptView,
  runId,
  TEST_AUTH,
  TestDatabase,
  testPlatformOptions,
  unique,
  waitForDelivery,
} from '@app/testing';
import { LoggerService } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { connect, DeliverPolicy, JetStreamManager, NatsConnection } from 'nats';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { PboService, PROFILE_OUTCOME_CONSUMER, profileOutcomeConsumer } from '../apps/merchant-management/src';
import { PROFILE_UPSERT_CONSUMER, profileUpsertConsumer, TRANSACTION_WEBHOOK_CONSUMER, transactionWebhookConsumer } from '../apps/payment-gateway/src';
import { ORDER_UPDATES_CONSUMER, orderUpdatesConsumer } from '../apps/transactions/src';
import { StandaloneModule } from '../apps/standalone/src';
import { TERMINAL_RELEASED_CONSUMER, terminalReleasedConsumer } from '../apps/host-connector/src';

/**
 * merchant-management → NATS JetStream → payment-gateway, end to end in one process hosting both
 * contexts (StandaloneModule) with the JetStream transport: devices and payment-config changes
 * made over merchant-management's HTTP API must reach the gateway's profiles over NATS, and
 * survive a NATS outage in the middle of a burst of changes.
 *
 * Names: merchant-management publishes on the fixed subject `gateway.profile.upsert.v1`, and
 * JetStream refuses a second stream whose subjects overlap an existing one. On the machine's NATS
 * the upserts therefore go to the platform's stream (EVENT_STREAM), and this run isolates itself
 * with a durable consumer and a dead-letter stream of its own, and removes its messages from the
 * platform's stream afterwards. The fault test runs its own nats-server, where the stream's name
 * is unique too.
 */

const RUN = runId();
const GATEWAY_BASE = gatewayBase(DEFAULT_GATEWAY_NAMESPACE);
const MERCHANTS = '/api/openapi/v1/mchInfo';
const paymentPath = (mchId: string) => `${MERCHANTS}/payment/${mchId}`;

type Pbo = ApiClient & { groupId: string };

interface Names {
  stream: string;
  durable: string;
  deadLetterStream: string;
  deadLetterSubject: string;
  /** merchant-management's consumer of the gateway's outcomes. */
  outcomeDurable: string;
  outcomeDeadLetterSubject: string;
}

function namesOf(tag: string, stream: string): Names {
  return {
    stream,
    durable: `mmgw_${tag}_${RUN}`,
    deadLetterStream: `MMGW_DLQ_${tag.toUpperCase()}_${RUN}`,
    deadLetterSubject: `dlq.mmgw.${tag}.${RUN}.${GATEWAY_PROFILE_UPSERT_V1}`,
    outcomeDurable: `mmgw_outcome_${tag}_${RUN}`,
    outcomeDeadLetterSubject: `dlq.mmgw.${tag}.${RUN}.${GATEWAY_PROFILE_OUTCOME_V1}`,
  };
}

/** `base` under this run's durable name, dead-letter subject, stream and dead-letter stream. */
function underRun(base: ConsumerDefinition, names: Names, durable: string, deadLetterSubject: string, concurrency: number): ConsumerDefinition {
  return { ...base, name: durable, deadLetterSubject, jetStream: { stream: names.stream, deadLetterStream: names.deadLetterStream, concurrency } };
}

/** The gateway's upsert consumer under this run's names. */
const definitionOf = (names: Names) => underRun(profileUpsertConsumer, names, names.durable, names.deadLetterSubject, 8);

/** merchant-management's outcome consumer under this run's names. */
const outcomeDefinitionOf = (names: Names) => underRun(profileOutcomeConsumer, names, names.outcomeDurable, names.outcomeDeadLetterSubject, 4);

/** Keeps the application's warnings and errors, shown when a test fails to converge. */
class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  log(): void {}
  debug(): void {}
  verbose(): void {}
  warn(message: unknown, context?: string): void {
    this.lines.push(`WARN  [${context ?? ''}] ${String(message)}`);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.lines.push(`ERROR ${rest.map(String).join(' ')} ${String(message)}`);
  }
  tail(n = 40): string {
    return this.lines.slice(-n).join('\n');
  }
}

interface Harness {
  app: NestFastifyApplication;
  database: TestDatabase;
  db: Client;
  baseUrl: string;
  names: Names;
  logger: CapturingLogger;
  newPbo(): Promise<{ mm: Pbo; gateway: GatewayClient }>;
  close(): Promise<void>;
}

/** Runs `work` with a JetStream manager of its own connection to `servers`. */
async function withJetStream<T>(servers: string, work: (jsm: JetStreamManager) => Promise<T>): Promise<T> {
  const connection = await connect({ servers, timeout: 3000, maxReconnectAttempts: 0 });
  try {
    return await work(await connection.jetstreamManager());
  } finally {
    await connection.drain();
  }
}

/** Both contexts in one application on a fresh database, on JetStream at `servers`, with this run's consumer names. */
async function startStandalone(servers: string, names: Names, streamSubjects: readonly string[]): Promise<Harness> {
  const database = await createTestDatabase('mmgwnats');
  const options = testPlatformOptions(database.url, {
    messaging: { transport: 'jetstream', servers, connectionName: `mmgw-${RUN}`, stream: { name: names.stream, subjects: [...streamSubjects] } },
  });
  const definition = definitionOf(names);
  // The gateway's webhook intake is not what this file proves: out of the way, on this run's names.
  const webhooks = await withJetStream(servers, (jsm) => idleConsumer(jsm, transactionWebhookConsumer, RUN));
  // Nor is transactions' order intake, which consumes the same events.
  const orders = await withJetStream(servers, (jsm) => idleConsumer(jsm, orderUpdatesConsumer, RUN));
  // Nor the connector's intake of released terminals (the platform's durable would take other runs' events).
  const released = await withJetStream(servers, (jsm) => idleConsumer(jsm, terminalReleasedConsumer, RUN));
  const logger = new CapturingLogger();
  const moduleRef = await Test.createTestingModule({ imports: [StandaloneModule.register(options)] })
    .overrideProvider(PROFILE_UPSERT_CONSUMER)
    .useValue(definition)
    .overrideProvider(PROFILE_OUTCOME_CONSUMER)
    .useValue(outcomeDefinitionOf(names))
    .overrideProvider(TRANSACTION_WEBHOOK_CONSUMER)
    .useValue(webhooks.definition)
    .overrideProvider(ORDER_UPDATES_CONSUMER)
    .useValue(orders.definition)
    .overrideProvider(TERMINAL_RELEASED_CONSUMER)
    .useValue(released.definition)
    .compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger, bodyParser: false });
  configureHttpApp(app);
  connectMessaging(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const db = new Client({ connectionString: database.url });
  await db.connect();
  return {
    app,
    database,
    db,
    baseUrl,
    names,
    logger,
    newPbo: async () => {
      const pbo = await app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur' });
      const token = await signPboToken(TEST_AUTH, pbo.groupId, 3600);
      const api = new ApiClient(baseUrl, token);
      return { mm: Object.assign(api, { groupId: pbo.groupId }), gateway: new GatewayClient(new ApiClient(baseUrl, token), pbo.groupId, GATEWAY_BASE) };
    },
    close: async () => {
      await db.end().catch(() => undefined);
      await app.close();
      await database.drop();
      await withJetStream(servers, async (jsm) => {
        await webhooks.remove(jsm);
        await orders.remove(jsm);
        await released.remove(jsm);
      }).catch(() => undefined);
    },
  };
}

interface DeviceRow {
  profileId: string;
  profileVersion: number;
}

/** merchant-management's devices of a merchant, with the version of their last push. */
async function devicesOf(h: Harness, mchId: string): Promise<DeviceRow[]> {
  const result = await h.db.query<{ profile_id: string; profile_version: number }>(
    `SELECT d.profile_id, d.profile_version FROM merchant_management.device d
       JOIN merchant_management.merchant m ON m.uuid = d.merchant_uuid
      WHERE m.mch_id = $1 AND d.profile_id IS NOT NULL ORDER BY d.created_at, d.uuid`,
    [mchId],
  );
  return result.rows.map((row) => ({ profileId: row.profile_id, profileVersion: row.profile_version }));
}

/** The gateway's stored versions of `profileIds` (absent when not received yet). */
async function gatewayVersions(h: Harness, profileIds: string[]): Promise<Map<string, number>> {
  const result = await h.db.query<{ id: string; version: number }>('SELECT id, version FROM payment_gateway.profile WHERE id = ANY($1)', [profileIds]);
  return new Map(result.rows.map((row) => [row.id, row.version]));
}

/** Waits until the gateway holds every device's latest version; fails with what lags and the app's last warnings. */
async function waitForConvergence(h: Harness, mchId: string, timeoutMs: number): Promise<DeviceRow[]> {
  let devices: DeviceRow[] = [];
  let versions = new Map<string, number>();
  try {
    await waitForDelivery(
      'every gateway profile to reach its device profile_version',
      async () => {
        devices = await devicesOf(h, mchId);
        versions = await gatewayVersions(
          h,
          devices.map((d) => d.profileId),
        );
        return devices.length > 0 && devices.every((d) => versions.get(d.profileId) === d.profileVersion);
      },
      timeoutMs,
    );
  } catch (error) {
    const lagging = devices
      .filter((d) => versions.get(d.profileId) !== d.profileVersion)
      .map((d) => `${d.profileId}: device ${d.profileVersion}, gateway ${versions.get(d.profileId) ?? 'none'}`);
    const outbox = await h.db.query<{ unpublished: number; attempts: number; last_error: string | null }>(
      `SELECT count(*) FILTER (WHERE published_at IS NULL)::int AS unpublished, coalesce(max(attempts), 0)::int AS attempts, max(last_error) AS last_error
         FROM merchant_management.outbox WHERE subject = $1`,
      [GATEWAY_PROFILE_UPSERT_V1],
    );
    throw new Error(`${String(error)}\nlagging: ${lagging.join('; ')}\noutbox: ${JSON.stringify(outbox.rows[0])}\napp log:\n${h.logger.tail()}`);
  }
  return devices;
}

async function profileOf(gateway: GatewayClient, profileId: string): Promise<ProfileWithAcptView> {
  const response = await gateway.get<ProfileWithAcptView>(`/profiles/${profileId}`);
  if (response.status !== 200) throw new Error(`GET profile ${profileId}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

function acceptanceSummary(acceptances: AcceptanceView[]) {
  return acceptances.map((a) => ({
    acptName: a.acptName,
    hostMessageFormat: a.hostMessageFormat,
    supportedPayments: a.supportedPayments,
    primaryMid: a.primaryMid,
    primaryTid: a.primaryTid,
  }));
}

/** Outbox rows (upserts) of `profileIds`, and how many of them the gateway's inbox recorded for `consumer`. */
async function deliveryCounts(h: Harness, profileIds: string[]): Promise<{ outbox: number; unpublished: number; inbox: number; inboxRows: number }> {
  const result = await h.db.query<{ outbox: number; unpublished: number; inbox: number; inbox_rows: number }>(
    `WITH sent AS (
       SELECT id::text AS id, published_at FROM merchant_management.outbox WHERE subject = $1 AND payload->>'profileId' = ANY($2)
     )
     SELECT (SELECT count(DISTINCT id)::int FROM sent) AS outbox,
            (SELECT count(*)::int FROM sent WHERE published_at IS NULL) AS unpublished,
            (SELECT count(DISTINCT i.message_id)::int FROM payment_gateway.inbox i JOIN sent s ON s.id = i.message_id WHERE i.consumer = $3) AS inbox,
            (SELECT count(*)::int FROM payment_gateway.inbox i JOIN sent s ON s.id = i.message_id WHERE i.consumer = $3) AS inbox_rows`,
    [GATEWAY_PROFILE_UPSERT_V1, profileIds, h.names.durable],
  );
  const row = result.rows[0];
  return { outbox: row.outbox, unpublished: row.unpublished, inbox: row.inbox, inboxRows: row.inbox_rows };
}

async function bind(mm: Pbo, mchId: string, acquirerId: number, mid?: string): Promise<void> {
  dataOf(await mm.post(paymentPath(mchId), { acquirerProfileId: String(acquirerId), currency: 'MYR', ...(mid && { mid }) }));
}

async function createDevice(mm: Pbo, mchId: string, extParams?: Record<string, unknown>): Promise<string> {
  const created = dataOf<{ id: string; profileId: string | null }>(await mm.post('/api/openapi/v1/device', { mchId, ...(extParams && { extParams }) }));
  if (!created.profileId) throw new Error(`device ${created.id} got no profile`);
  return created.profileId;
}

/** Waits until merchant-management shows the device's profile sync in `state` (the outcome travels back over NATS); answers it. */
async function syncSettles(h: Harness, mm: ApiClient, deviceId: string, state: string): Promise<Record<string, unknown>> {
  let sync: Record<string, unknown> | null = null;
  try {
    await waitForDelivery(
      `device ${deviceId} profile ${state}`,
      async () => {
        sync = dataOf<{ profileSync: Record<string, unknown> | null }>(await mm.get(`/api/openapi/v1/device/${deviceId}`)).profileSync;
        return sync?.state === state;
      },
      20_000,
    );
  } catch (error) {
    throw new Error(`${String(error)}\nit shows ${JSON.stringify(sync)}\napp log:\n${h.logger.tail()}`);
  }
  return sync as unknown as Record<string, unknown>;
}

/** Deletes from `stream` the messages after `fromSeq` whose Nats-Msg-Id is one of `msgIds` (bounded by `timeoutMs`). */
async function deleteMessages(jsm: JetStreamManager, stream: string, fromSeq: number, msgIds: Set<string>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const lastSeq = (await jsm.streams.info(stream)).state.last_seq;
  for (let seq = fromSeq; seq <= lastSeq && msgIds.size > 0 && Date.now() < deadline; seq++) {
    const message = await jsm.streams.getMessage(stream, { seq }).catch(() => undefined);
    const id = message?.header?.get('Nats-Msg-Id');
    if (!id || !msgIds.has(id)) continue;
    await jsm.streams.deleteMessage(stream, seq, false).catch(() => undefined);
    msgIds.delete(id);
  }
}

describe("merchant-management → payment-gateway profile sync over the machine's NATS JetStream", () => {
  let observer: NatsConnection;
  let jsm: JetStreamManager;
  let h: Harness;
  let firstSeq = 0;
  const names = namesOf('sync', EVENT_STREAM);

  beforeAll(async () => {
    // Fails (never skips) when NATS is not there: this suite proves the distributed path.
    observer = await connectNatsOrFail();
    jsm = await observer.jetstreamManager();
    // The durable consumer is created here, delivering only what is published from now on: as
    // the app would create it (DeliverPolicy.All), it would first replay every upsert other runs
    // and apps left in the platform's stream. The app finds it with its own settings and keeps it.
    await ensureStream(jsm, { name: EVENT_STREAM, subjects: [...STREAMED_SUBJECTS] });
    firstSeq = (await jsm.streams.info(EVENT_STREAM)).state.last_seq + 1;
    await jsm.consumers.add(EVENT_STREAM, { ...durableConsumerConfig(definitionOf(names)), deliver_policy: DeliverPolicy.New });
    await jsm.consumers.add(EVENT_STREAM, { ...durableConsumerConfig(outcomeDefinitionOf(names)), deliver_policy: DeliverPolicy.New });
    h = await startStandalone(NATS_URL, names, STREAMED_SUBJECTS);
  });

  afterAll(async () => {
    const published = h
      ? await h.db.query<{ id: string }>(
          `SELECT id::text AS id FROM merchant_management.outbox WHERE published_at IS NOT NULL
           UNION ALL SELECT id::text FROM payment_gateway.outbox WHERE published_at IS NOT NULL AND subject = $1`,
          [GATEWAY_PROFILE_OUTCOME_V1],
        )
      : { rows: [] };
    await h?.close();
    if (jsm) {
      // Only what this run created: its durable consumers, its dead-letter stream and its messages in the platform's stream.
      await jsm.consumers.delete(names.stream, names.durable).catch(() => undefined);
      await jsm.consumers.delete(names.stream, names.outcomeDurable).catch(() => undefined);
      await jsm.streams.delete(names.deadLetterStream).catch(() => undefined);
      await deleteMessages(jsm, EVENT_STREAM, firstSeq, new Set(published.rows.map((row) => row.id)), 15_000);
    }
    await observer?.drain();
  });

  it("should give a new device a gateway profile with its binding's acceptance: MID/TID from extParams, supported payments, host format", async () => {
    const { mm, gateway } = await h.newPbo();
    const acquirer = await createCardAcquirer(mm, ['01', '02'], { profileName: 'Acquirer A', enablerMsgFormat: 'ISO8583' });
    const merchant = await createMerchant(mm);
    await bind(mm, merchant.mchId, acquirer.id, 'MIDOFBINDING');

    const profileId = await createDevice(mm, merchant.mchId, { acquirers: { [String(acquirer.id)]: { acqMid: '000000000000001', acqTid: '00000001' } } });
    await waitForConvergence(h, merchant.mchId, 20_000);

    const profile = await profileOf(gateway, profileId);
    expect(profile.profileId).toBe(profileId);
    expect(acceptanceSummary(profile.acceptances)).toEqual([
      {
        acptName: 'Acquirer A',
        hostMessageFormat: 'ISO8583',
        supportedPayments: ['VISA', 'MASTERCARD'],
        primaryMid: '000000000000001',
        primaryTid: '00000001',
      },
    ]);
    expect([...(await gatewayVersions(h, [profileId])).values()]).toEqual([1]);
  });

  it('should add an acceptance when a second acquirer is bound, and remove it when that binding is deleted', async () => {
    const { mm, gateway } = await h.newPbo();
    const first = await createCardAcquirer(mm, ['01'], { profileName: 'Acquirer A', enablerMsgFormat: 'ISO8583' });
    const second = await createCardAcquirer(mm, ['03'], { profileName: 'Acquirer B', enablerMsgFormat: 'MOCK' });
    const merchant = await createMerchant(mm);
    await bind(mm, merchant.mchId, first.id, 'MIDA');
    const profileId = await createDevice(mm, merchant.mchId, { acquirers: { [String(first.id)]: { acqMid: 'MIDADEVICE', acqTid: 'TIDA' } } });
    await waitForConvergence(h, merchant.mchId, 20_000);

    await bind(mm, merchant.mchId, second.id, 'MIDB');
    const [afterBind] = await waitForConvergence(h, merchant.mchId, 20_000);
    expect(afterBind.profileVersion).toBe(2);
    expect(acceptanceSummary((await profileOf(gateway, profileId)).acceptances)).toEqual([
      { acptName: 'Acquirer A', hostMessageFormat: 'ISO8583', supportedPayments: ['VISA'], primaryMid: 'MIDADEVICE', primaryTid: 'TIDA' },
      { acptName: 'Acquirer B', hostMessageFormat: 'MOCK', supportedPayments: ['UNIONPAY'], primaryMid: 'MIDB', primaryTid: null },
    ]);

    dataOf(await mm.delete(`${paymentPath(merchant.mchId)}?acquirerProfileId=${second.id}&currency=MYR`));
    const [afterDelete] = await waitForConvergence(h, merchant.mchId, 20_000);
    expect(afterDelete.profileVersion).toBe(3);
    expect(acceptanceSummary((await profileOf(gateway, profileId)).acceptances)).toEqual([
      { acptName: 'Acquirer A', hostMessageFormat: 'ISO8583', supportedPayments: ['VISA'], primaryMid: 'MIDADEVICE', primaryTid: 'TIDA' },
    ]);
  });

  it('should bring every profile to its latest version after 200 payment-config changes, each message applied once', async () => {
    const { mm, gateway } = await h.newPbo();
    const first = await createCardAcquirer(mm, ['01'], { profileName: 'Acquirer A', enablerMsgFormat: 'ISO8583' });
    const second = await createCardAcquirer(mm, ['02'], { profileName: 'Acquirer B', enablerMsgFormat: 'MOCK' });
    const merchant = await createMerchant(mm);
    await bind(mm, merchant.mchId, first.id, 'MIDSTART');
    const profileIds = [await createDevice(mm, merchant.mchId), await createDevice(mm, merchant.mchId), await createDevice(mm, merchant.mchId)];

    // Every change alters each device's acceptances: a new MID of A, or B bound / unbound (25 times, so B ends bound).
    let mid = 'MIDSTART';
    let secondBound = false;
    for (let i = 0; i < 200; i++) {
      if (i % 8 === 0) {
        if (secondBound) dataOf(await mm.delete(`${paymentPath(merchant.mchId)}?acquirerProfileId=${second.id}&currency=MYR`));
        else await bind(mm, merchant.mchId, second.id, 'MIDB');
        secondBound = !secondBound;
      } else {
        mid = `MID${i}`;
        dataOf(await mm.put(paymentPath(merchant.mchId), { acquirerProfileId: String(first.id), currency: 'MYR', mid }));
      }
    }

    const devices = await waitForConvergence(h, merchant.mchId, 30_000);
    expect(devices.map((d) => d.profileVersion)).toEqual([201, 201, 201]);
    const expected = [
      { acptName: 'Acquirer A', hostMessageFormat: 'ISO8583', supportedPayments: ['VISA'], primaryMid: mid, primaryTid: null },
      ...(secondBound ? [{ acptName: 'Acquirer B', hostMessageFormat: 'MOCK', supportedPayments: ['MASTERCARD'], primaryMid: 'MIDB', primaryTid: null }] : []),
    ];
    expect(secondBound).toBe(true);
    for (const profileId of profileIds) expect(acceptanceSummary((await profileOf(gateway, profileId)).acceptances)).toEqual(expected);
    // 3 × 201 upserts published and each recorded once by the gateway's inbox.
    expect(await deliveryCounts(h, profileIds)).toEqual({ outbox: 603, unpublished: 0, inbox: 603, inboxRows: 603 });
  });
  it('should show REJECTED a device whose profile the gateway refused, list it to its PBO only, and APPLIED after the fix and a replay', async () => {
    const { mm } = await h.newPbo();
    const other = await h.newPbo();
    const acquirer = await createCardAcquirer(mm, ['01'], { profileName: 'Acquirer A', enablerMsgFormat: 'ISO8583' });
    const merchant = await createMerchant(mm);
    await bind(mm, merchant.mchId, acquirer.id, 'MIDOFBINDING');
    const created = dataOf<{ id: string; profileId: string }>(
      await mm.post('/api/openapi/v1/device', { mchId: merchant.mchId, extParams: { acquirers: { [String(acquirer.id)]: { acqMid: 'MID000000000042', acqTid: 'T0000042' } } } }),
    );
    await syncSettles(h, mm, created.id, 'APPLIED');

    // A TID the gateway's contract refuses, as data stored before the edge checked it would be.
    const storeTid = (tid: string) =>
      h.db.query(`UPDATE merchant_management.device SET ext_params = jsonb_set(ext_params, ARRAY['acquirers', $2, 'acqTid'], to_jsonb($3::text)) WHERE profile_id = $1`, [
        created.profileId,
        String(acquirer.id),
        tid,
      ]);
    await storeTid('T'.repeat(40));
    dataOf(await mm.post(`/api/openapi/v1/profileSync/${created.id}/replay`, {}));
    const rejected = await syncSettles(h, mm, created.id, 'REJECTED');
    expect(rejected).toMatchObject({ version: 2, reason: expect.stringContaining('acceptances[0].primaryTid must be shorter than or equal to 32 characters') });

    const listed = dataOf<{ records: Array<{ deviceId: string; profileSync: unknown }> }>(await mm.get('/api/openapi/v1/profileSync?state=REJECTED'));
    expect(listed.records).toEqual([expect.objectContaining({ deviceId: created.id, profileSync: rejected })]);
    expect(dataOf<{ records: unknown[] }>(await other.mm.get('/api/openapi/v1/profileSync')).records).toEqual([]);
    const foreign = await other.mm.post(`/api/openapi/v1/profileSync/${created.id}/replay`, {});
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 14000 });

    await storeTid('T0000043');
    dataOf(await mm.post(`/api/openapi/v1/profileSync/${created.id}/replay`, {}));
    expect(await syncSettles(h, mm, created.id, 'APPLIED')).toMatchObject({ version: 3, reason: null });
    expect([...(await gatewayVersions(h, [created.profileId])).values()]).toEqual([3]);
  });
});

describe('profile sync across a NATS outage in the middle of a burst of payment-config changes', () => {
  let server: NatsServerProcess;
  let storeDir: string;
  let h: Harness;
  const names = namesOf('fault', `MMGW_FAULT_${RUN}`);

  beforeAll(async () => {
    storeDir = mkdtempSync(join(tmpdir(), 'softpos-nats-fault-'));
    server = new NatsServerProcess(await freePort(), storeDir);
    await server.start();
    h = await startStandalone(server.url, names, [GATEWAY_PROFILE_UPSERT_V1, GATEWAY_PROFILE_OUTCOME_V1]);
  });

  afterAll(async () => {
    // The app first: its NATS connection drains against a running server.
    await h?.close();
    await server?.stop();
    if (storeDir) rmSync(storeDir, { recursive: true, force: true });
  });

  it('should converge every profile to its latest version with the final acceptances, nothing lost and nothing applied twice', async () => {
    const { mm, gateway } = await h.newPbo();
    const acquirer = await createCardAcquirer(mm, ['01', '02'], { profileName: 'Acquirer A', enablerMsgFormat: 'ISO8583' });
    const merchant = await createMerchant(mm);
    await bind(mm, merchant.mchId, acquirer.id, 'MIDSTART');
    const profileIds: string[] = [];
    for (let i = 0; i < 10; i++) profileIds.push(await createDevice(mm, merchant.mchId));
    await waitForConvergence(h, merchant.mchId, 20_000);

    // Watches the gateway's versions through the burst and the outage: none may ever go down.
    const decreases: string[] = [];
    const seen = new Map<string, number>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        for (const [id, version] of await gatewayVersions(h, profileIds)) {
          if (version < (seen.get(id) ?? 0)) decreases.push(`${id}: ${seen.get(id)} → ${version}`);
          seen.set(id, version);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const CHANGES = 100;
    const KILL_AT = 30;
    let done = 0;
    const failures: string[] = [];
    const burst = (async () => {
      for (let i = 1; i <= CHANGES; i++) {
        const response = await mm.put(paymentPath(merchant.mchId), { acquirerProfileId: String(acquirer.id), currency: 'MYR', mid: `MID${i}` });
        if (response.status !== 200 || response.body.code !== 0) failures.push(`change ${i}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
        done = i;
        // Paced so that the outage falls inside the burst.
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const outage = (async () => {
      await waitForDelivery('the burst to reach the kill point', () => done >= KILL_AT, 20_000);
      await server.stop('SIGKILL');
      const killedAt = done;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await server.start();
      return { killedAt, restartedAt: done };
    })();
    const [, window] = await Promise.all([burst, outage]);

    expect(failures).toEqual([]);
    // The outage really was in the middle of the burst.
    expect(window.killedAt).toBeLessThan(CHANGES);
    expect(window.restartedAt).toBeGreaterThan(window.killedAt);

    const devices = await waitForConvergence(h, merchant.mchId, 60_000);
    watching = false;
    await watcher;

    expect(devices.map((d) => d.profileVersion)).toEqual(Array.from({ length: 10 }, () => CHANGES + 1));
    for (const profileId of profileIds) {
      expect(acceptanceSummary((await profileOf(gateway, profileId)).acceptances)).toEqual([
        { acptName: 'Acquirer A', hostMessageFormat: 'ISO8583', supportedPayments: ['VISA', 'MASTERCARD'], primaryMid: `MID${CHANGES}`, primaryTid: null },
      ]);
    }
    expect(decreases).toEqual([]);
    const counts = await deliveryCounts(h, profileIds);
    expect(counts).toEqual({ outbox: 10 * (CHANGES + 1), unpublished: 0, inbox: 10 * (CHANGES + 1), inboxRows: 10 * (CHANGES + 1) });
    // On this server only this test's consumer writes the inbox: no other message was recorded either.
    const inboxTotal = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_gateway.inbox WHERE consumer = $1', [names.durable]);
    expect(inboxTotal.rows[0].n).toBe(10 * (CHANGES + 1));
  });
});
