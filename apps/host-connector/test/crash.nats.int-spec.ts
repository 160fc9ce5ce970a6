import { HOST_AUTHORIZE_V1, HOST_REVERSE_V1, HostResponseV1 } from '@app/contracts';
import { NatsRequestReply } from '@app/messaging';
import { ChildServer, connectNatsOrFail, createTestDatabase, NATS_URL, runId, startChildServer, TestDatabase, waitFor } from '@app/testing';
import { NatsConnection } from 'nats';
import { Client } from 'pg';
import { join } from 'node:path';
import { HostSimulator, startHostSimulator } from '@app/host-simulator';
import { RequestLogRepository } from '../src/request-log/persistence/request-log.repository';
import type { IsoConnectorSettings } from './connector-process';
import { authorizePayload, followUpPayload } from './factories';
import { ConnectorHarness, startConnector, testConfig } from './harness';
import { answerOf, IndependentHost } from './independent-host';

/**
 * A host connector killed (SIGKILL) while a sale is on the wire: the host may have approved it,
 * and nobody recorded the outcome. The connector wrote the reversal the sale would need before
 * sending it, so another connector on the same database finds the abandoned request once its
 * deadline has passed, reverses it at the host, and answers a repeat of the requestId REVERSED.
 * The killed connector runs in its own process (connector-process.ts, configured as main.ts
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
    child = await startChildServer(join(__dirname, 'connector-process.ts'), [database.url, JSON.stringify(settings)], 'host connector');
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

  it('should repeat a caller’s reversal whose connector was killed before the answer as 0401 with its STAN and field 7, and answer its repeat REVERSED', async () => {
    await survivor?.close({ drop: false });
    survivor = undefined;
    // Read by iso_8583 (independent-host.ts): silent until the survivor runs.
    let answering = false;
    const host = await IndependentHost.start((request) => (answering ? answerOf(request, '00') : null));
    try {
      const settings: IsoConnectorSettings = {
        natsUrl: NATS_URL,
        isoUrl: host.url,
        stream: `HCCRASH_${RUN.toUpperCase()}`,
        streamSubject: `hccrash.${RUN}.events`,
        subjectPrefix: `crash.${RUN}`,
      };
      child = await startChildServer(join(__dirname, 'connector-process.ts'), [database.url, JSON.stringify(settings)], 'host connector');
      const original = { kind: 'SALE', mti: '0200', stan: '000789', transmittedAt: '0102030405', rrn: '000000789012', approvalCode: 'D1E2F3' };
      const payload = followUpPayload('6100', { hostMessageFormat: 'ISO8583', connUrl: null, tid: 'CRASH002' }, { original, timeoutMs: 1500 });

      const inFlight = new NatsRequestReply(nats)
        .request(`${settings.subjectPrefix}.${HOST_REVERSE_V1}`, payload, { timeoutMs: 1000 })
        .catch((error: unknown) => error);
      await waitFor('the reversal to reach the host', () => host.received.length === 1);
      child.child.kill('SIGKILL');
      await new Promise((resolve) => child!.child.once('exit', resolve));
      child = undefined;
      expect(await inFlight).toBeInstanceOf(Error);

      answering = true;
      survivor = await startConnector({ database, config: testConfig({ HOST_RECOVERY_GRACE_MS: '0', HOST_REVERSAL_POLL_MS: '100' }) });
      await waitFor('the repeated reversal to be acknowledged', async () => {
        const reversals = await survivor!.query<{ status: string }>(`SELECT status FROM host_connector.reversal WHERE request_id = $1`, [payload.requestId]);
        return reversals.length === 1 && reversals[0].status === 'ACKNOWLEDGED';
      });

      const [sent, ...repeats] = host.received;
      expect(sent[0]).toBe('0400');
      expect(String(sent[90]).slice(0, 20)).toBe(`0200${original.stan}${original.transmittedAt}`);
      expect(repeats.length).toBeGreaterThanOrEqual(1);
      for (const repeat of repeats) expect([repeat[0], repeat[11], repeat[7], repeat[90], repeat[4]]).toEqual(['0401', sent[11], sent[7], sent[90], sent[4]]);
      const repeat = (await survivor.ask(HOST_REVERSE_V1, payload)) as unknown as HostResponseV1;
      expect(repeat).toMatchObject({ requestId: payload.requestId, result: 'REVERSED', mti: '0400', stan: sent[11], transmittedAt: sent[7] });
      expect(host.errors).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
