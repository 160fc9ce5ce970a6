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
});
