import type { HostResponseV1 } from '@app/contracts';
import { approvedReply } from '@app/testing';
import { Client } from 'pg';
import { RequestLogRepository } from '../src/request-log/persistence/request-log.repository';
import { ConnectorHarness, startConnector } from './harness';

/** The request log's completions written together (group commit), each answered only once its row is committed. */
describe('host-connector request log: completions', () => {
  let connector: ConnectorHarness;
  let requestLog: RequestLogRepository;
  let seq = 0;

  beforeAll(async () => {
    connector = await startConnector();
    requestLog = connector.app.get(RequestLogRepository, { strict: false });
  });

  afterAll(() => connector.close());

  /** A claimed authorisation, as a handler holds it before the host's reply is recorded. */
  async function claimed(): Promise<string> {
    const requestId = `complete-${++seq}`;
    expect((await requestLog.claim('authorize', requestId, 'ISO8583', 'T0000001', Date.now() + 60_000)).kind).toBe('new');
    return requestId;
  }

  const reply = (requestId: string, mti = '0110'): HostResponseV1 => approvedReply(requestId, mti, String(seq).padStart(6, '0'));

  async function rowsOf(...requestIds: string[]): Promise<Record<string, { result: string | null; response: HostResponseV1 | null }>> {
    const rows = await connector.query<{ request_id: string; result: string | null; response: HostResponseV1 | null }>(
      `SELECT request_id, result, response FROM host_connector.request_log WHERE operation = 'authorize' AND request_id = ANY($1)`,
      [requestIds],
    );
    return Object.fromEntries(rows.map((row) => [row.request_id, { result: row.result, response: row.response }]));
  }

  it('should write concurrent completions in one statement and answer each only once it has committed', async () => {
    const [first, second] = [await claimed(), await claimed()];
    // Another session holds the first row: the statement that writes it waits for that lock.
    const locker = new Client({ connectionString: connector.database.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query(`SELECT 1 FROM host_connector.request_log WHERE operation = 'authorize' AND request_id = $1 FOR UPDATE`, [first]);
      const answered: string[] = [];
      const completions = [first, second].map((requestId) => requestLog.complete('authorize', reply(requestId)).then((response) => answered.push(response.requestId)));
      await new Promise((resolve) => setTimeout(resolve, 500));
      // The second completion went in the first's statement: neither is answered nor visible while it waits.
      expect(answered).toEqual([]);
      expect(await rowsOf(second)).toEqual({ [second]: { result: null, response: null } });
      await locker.query('COMMIT');
      await Promise.all(completions);
      expect(answered.sort()).toEqual([first, second].sort());
    } finally {
      await locker.end();
    }
    const rows = await rowsOf(first, second);
    expect(rows[first]).toEqual({ result: 'APPROVED', response: reply(first) });
    expect(rows[second]).toEqual({ result: 'APPROVED', response: reply(second) });
  });

  it('should fail only the request whose reply cannot be written when a merged statement fails', async () => {
    const [good, bad] = [await claimed(), await claimed()];
    // An MTI longer than its column: the merged statement fails, and each completion is written again alone.
    const [goodOutcome, badOutcome] = await Promise.allSettled([requestLog.complete('authorize', reply(good)), requestLog.complete('authorize', reply(bad, '01100'))]);
    expect(goodOutcome).toEqual({ status: 'fulfilled', value: reply(good) });
    expect(badOutcome.status).toBe('rejected');
    const rows = await rowsOf(good, bad);
    expect(rows[good].result).toBe('APPROVED');
    expect(rows[bad]).toEqual({ result: null, response: null });
  });

  it('should answer none as done when no completion of a merged statement can be written', async () => {
    const requestIds = [await claimed(), await claimed(), await claimed()];
    const outcomes = await Promise.allSettled(requestIds.map((requestId) => requestLog.complete('authorize', reply(requestId, '01100'))));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const rows = await rowsOf(...requestIds);
    expect(Object.values(rows)).toEqual(requestIds.map(() => ({ result: null, response: null })));
  });

  it('should answer the reply recovery recorded first, in a merged statement too', async () => {
    const [recovered, fresh] = [await claimed(), await claimed()];
    const recorded: HostResponseV1 = { ...reply(recovered), result: 'REVERSED', hostRespMessage: 'recorded by recovery' };
    await connector.query(`UPDATE host_connector.request_log SET result = 'REVERSED', response = $2 WHERE operation = 'authorize' AND request_id = $1`, [recovered, recorded]);
    const answers = await Promise.all([requestLog.complete('authorize', reply(recovered)), requestLog.complete('authorize', reply(fresh))]);
    expect(answers).toEqual([recorded, reply(fresh)]);
  });
});
