import { HOST_AUTHORIZE_V1, HostResponseV1 } from '@app/contracts';
import { NatsRequestReply } from '@app/messaging';
import { createTestDatabase, runId, TestDatabase, waitFor } from '@app/testing';
import { NatsConnection } from 'nats';
import { Client } from 'pg';
import { authorizePayload } from '../apps/host-connector/test/factories';
import { ConnectorHarness, startConnector, testConfig } from '../apps/host-connector/test/harness';
import { HostSimulator, startHostSimulator } from '../apps/host-simulator/src';
import { connectNatsOrFail, NATS_URL } from '../apps/payment-gateway/test/nats';
import { RequestLogRepository } from '../apps/host-connector/src';
import { ChildServer, startChildServer } from '../bench/child-server';
import type { IsoConnectorSettings } from '../bench/iso-connector';

/**
 * A host connector killed (SIGKILL) while a sale is on the wire: the host may have approved it,
 * and nobody recorded the outcome. The connector wrote the reversal the sale would need before
 * sending it, so another connector on the same database finds the abandoned request once its
 * deadline has passed, reverses it at the host, and answers a repeat of the requestId REVERSED.
 * The killed connector runs in its own process (bench/iso-connector.ts, configured as main.ts
 * configures it) and serves this run's prefixed subjects, so no other connector on the machine's
 * NATS takes part.
 */
const RUN = runId();

describe('host-connector: recovery of a request in flight when the connector dies', () => {
  let simulator: HostSimulator;
  let database: TestDatabase;
  let nats: NatsConnection;
  let child: ChildServer | undefined;
  let survivor: ConnectorHarness | undefined;
  let db: Client;

  beforeAll(async () => {
    nats = await connectNatsOrFail();
    simulator = await startHostSimulator({ isoPorts: { ISO8583: 0 } });
    database = await createTestDatabase('crash');
    db = new Client({ connectionString: database.url });
    await db.connect();
  });

  afterAll(async () => {
    child?.child.kill('SIGKILL');
    await db?.end();
    if (survivor) await survivor.close();
    else await database?.drop();
    const jsm = await nats?.jetstreamManager();
    await jsm?.streams.delete(`HCCRASH_${RUN.toUpperCase()}`).catch(() => undefined);
    await nats?.close();
    await simulator?.close();
  });

  it('should reverse at the host a sale whose connector was killed before the answer, and answer its repeat REVERSED', async () => {
    const settings: IsoConnectorSettings = {
      natsUrl: NATS_URL,
      isoUrl: simulator.connUrls.ISO8583!,
      stream: `HCCRASH_${RUN.toUpperCase()}`,
      streamSubject: `hccrash.${RUN}.events`,
      subjectPrefix: `crash.${RUN}`,
    };
    child = await startChildServer('iso-connector.ts', [database.url, JSON.stringify(settings)], 'host connector');
    // Amount ending in 91: the simulator never answers, so the sale is surely on the wire when the connector dies.
    const payload = authorizePayload('5091', { hostMessageFormat: 'ISO8583', connUrl: null, tid: 'CRASH001' }, { timeoutMs: 1500 });
    const reversalsBefore = simulator.stats().reversalsCounted;

    const inFlight = new NatsRequestReply(nats)
      .request(`${settings.subjectPrefix}.${HOST_AUTHORIZE_V1}`, payload, { timeoutMs: 1000 })
      .catch((error: unknown) => error);
    await waitFor('the sale to reach the host', () => simulator.stats().unanswered === 1);
    child.child.kill('SIGKILL');
    await new Promise((resolve) => child!.child.once('exit', resolve));
    child = undefined;

    expect(await inFlight).toBeInstanceOf(Error);
    const [row] = (await db.query(`SELECT response, pending_reversal FROM host_connector.request_log WHERE request_id = $1`, [payload.requestId])).rows;
    expect(row).toMatchObject({ response: null, pending_reversal: { requestId: payload.requestId, original: { mti: '0200' } } });
    expect(simulator.stats().reversalsCounted).toBe(reversalsBefore);

    survivor = await startConnector({ database, config: testConfig({ HOST_RECOVERY_GRACE_MS: '0', HOST_REVERSAL_POLL_MS: '100' }) });

    await waitFor('the reversal to reach the host', () => simulator.stats().reversalsCounted === reversalsBefore + 1);
    const repeat = (await survivor.ask(HOST_AUTHORIZE_V1, payload)) as unknown as HostResponseV1;
    expect(repeat).toMatchObject({ requestId: payload.requestId, result: 'REVERSED', mti: '0200', stan: row.pending_reversal.original.stan });
    await waitFor('the reversal to be acknowledged', async () => {
      const reversals = await survivor!.query<{ status: string }>(`SELECT status FROM host_connector.reversal WHERE request_id = $1`, [payload.requestId]);
      return reversals.length === 1 && reversals[0].status === 'ACKNOWLEDGED';
    });
    // A handler that outlived its deadline by the grace period and finishes now cannot overwrite
    // the recovered reply: the reversal is under way, so REVERSED stands.
    const late = await survivor.app.get(RequestLogRepository).complete('authorize', { ...repeat, result: 'APPROVED', hostRespCode: '00' });
    expect(late).toMatchObject({ result: 'REVERSED', hostRespCode: null });
  });
});
