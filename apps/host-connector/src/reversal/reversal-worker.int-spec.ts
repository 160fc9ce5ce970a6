import { HostFollowUpRequestV1 } from '@app/contracts';
import { createTestDatabase, TestDatabase, waitFor } from '@app/testing';
import { Client } from 'pg';
import { ConnectorHarness, startConnector, testConfig } from '../../test/harness';
import { answerTo, IsoPeer } from '../../test/iso-peer';
import { merchantOf, targetOf } from '../../test/factories';

/** The reversal queue shared by two connector replicas on one database. */
describe('ReversalWorker with two replicas', () => {
  let database: TestDatabase;
  let peer: IsoPeer;
  const COUNT = 40;

  beforeAll(async () => {
    database = await createTestDatabase('revq');
    peer = await IsoPeer.start((message) => (message.mti.startsWith('04') ? answerTo(message) : null));
  });

  afterAll(async () => {
    await peer.close();
    await database.drop();
  });

  it('should send every reversal exactly once between them', async () => {
    // Migrate, then queue the reversals while no worker runs.
    const migrate = await startConnector({ database });
    await migrate.close({ drop: false });
    const db = new Client({ connectionString: database.url });
    await db.connect();
    for (let i = 1; i <= COUNT; i++) {
      const stan = String(i).padStart(6, '0');
      const request: HostFollowUpRequestV1 = {
        requestId: `rev_${i}`,
        target: targetOf({ hostMessageFormat: 'ISO8583', connUrl: peer.url }),
        amount: { minor: '100', currency: '458' },
        original: { mti: '0200', stan: String(500000 + i), transmittedAt: '0101000000', rrn: null, approvalCode: null },
        merchant: merchantOf(),
      };
      await db.query(
        `INSERT INTO host_connector.reversal (id, request_id, format, host_url, tid, stan, request, reason, next_attempt_at)
         VALUES (gen_random_uuid(), $1, 'ISO8583', $2, 'TID00001', $3, $4, 'test', now())`,
        [request.requestId, peer.url, stan, JSON.stringify(request)],
      );
    }
    await db.end();

    const config = testConfig({ HOST_REVERSAL_CONCURRENCY: '4', HOST_REVERSAL_POLL_MS: '50' });
    const replicas: ConnectorHarness[] = await Promise.all([startConnector({ database, config }), startConnector({ database, config })]);
    try {
      await waitFor(
        'every reversal to be acknowledged',
        async () => {
          const [row] = await replicas[0].query<{ n: number }>(`SELECT count(*)::int AS n FROM host_connector.reversal WHERE status = 'ACKNOWLEDGED'`);
          return row.n === COUNT;
        },
        20_000,
      );

      const sentStans = peer.received.map((message) => String(message.fields[11]));
      expect(sentStans).toHaveLength(COUNT);
      expect(new Set(sentStans).size).toBe(COUNT);
      expect(peer.received.every((message) => message.mti === '0400')).toBe(true);
      expect(peer.accepted).toBe(2);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close({ drop: false })));
    }
  });

  it('should repeat (0401) a reversal whose claim a crash left unrecorded, where 94 acknowledges it, and refuse a 94 to a first 0400', async () => {
    const duplicateHost = await IsoPeer.start((message) => answerTo(message, '94'));
    const db = new Client({ connectionString: database.url });
    await db.connect();
    const insert = async (requestId: string, stan: string, sendingSince: string) => {
      const request: HostFollowUpRequestV1 = {
        requestId,
        target: targetOf({ hostMessageFormat: 'ISO8583', connUrl: duplicateHost.url }),
        amount: { minor: '100', currency: '458' },
        original: { mti: '0200', stan: String(600000 + Number(stan)), transmittedAt: '0101000000', rrn: null, approvalCode: null },
        merchant: merchantOf(),
      };
      // A claim whose lease ran out without an outcome: the worker that made it stopped while sending.
      await db.query(
        `INSERT INTO host_connector.reversal (id, request_id, format, host_url, tid, stan, request, reason, next_attempt_at, sending_since)
         VALUES (gen_random_uuid(), $1, 'ISO8583', $2, 'TID00001', $3, $4, 'test', now(), ${sendingSince})`,
        [requestId, duplicateHost.url, stan, JSON.stringify(request)],
      );
    };
    await insert('crashed_1', '000901', "now() - interval '1 minute'");
    await insert('fresh_1', '000902', 'NULL');
    await db.end();
    const connector = await startConnector({ database, config: testConfig({ HOST_REVERSAL_POLL_MS: '50', HOST_REVERSAL_BACKOFF_MS: '60000', HOST_REVERSAL_BACKOFF_MAX_MS: '60000' }) });
    try {
      const rowOf = async (requestId: string) =>
        (await connector.query<{ status: string; attempts: number; transmissions: number; ack_resp_code: string | null; last_resp_code: string | null; last_error: string | null; sending_since: Date | null }>(
          `SELECT status, attempts, transmissions, ack_resp_code, last_resp_code, last_error, sending_since FROM host_connector.reversal WHERE request_id = $1`,
          [requestId],
        ))[0];
      await waitFor('both reversals to be answered', async () => (await rowOf('crashed_1')).status === 'ACKNOWLEDGED' && (await rowOf('fresh_1')).last_resp_code === '94', 10_000);

      // The crashed attempt counts as made and transmitted: the next is the repeat, and its 94 acknowledges.
      expect(await rowOf('crashed_1')).toMatchObject({ status: 'ACKNOWLEDGED', attempts: 2, transmissions: 2, ack_resp_code: '94', sending_since: null });
      // Nothing of the fresh one went out before its 0400: a 94 duplicates nothing, and it stays owed (retried as 0401 after its backoff).
      const fresh = await rowOf('fresh_1');
      expect(fresh).toMatchObject({ status: 'PENDING', attempts: 1, transmissions: 1, ack_resp_code: null, sending_since: null });
      expect(fresh.last_error).toContain('a duplicate on a first transmission, which duplicates nothing sent before: not an acknowledgement');
      const mtiOf = (stan: string) => duplicateHost.received.filter((message) => String(message.fields[11]) === stan).map((message) => message.mti);
      expect(mtiOf('000901')).toEqual(['0401']);
      expect(mtiOf('000902')).toEqual(['0400']);
    } finally {
      await connector.close({ drop: false });
      await duplicateHost.close();
    }
  });
});
