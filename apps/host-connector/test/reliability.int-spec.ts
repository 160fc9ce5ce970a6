import { waitFor } from '@app/testing';
import { HOST_AUTHORIZE_V1, HOST_VOID_V1 } from '@app/contracts';
import { Iso8583Message } from '@app/iso8583';
import { authorizePayload, followUpPayload } from './factories';
import { ConnectorHarness, startConnector, testConfig } from './harness';
import { answerTo, IsoPeer } from './iso-peer';

interface ReversalRow {
  status: string;
  attempts: number;
  transmissions: number;
  ack_resp_code: string | null;
  last_resp_code: string | null;
  stan: string;
}

const reversalsOf = (connector: ConnectorHarness, requestId: string) =>
  connector.query<ReversalRow>(`SELECT status, attempts, transmissions, ack_resp_code, last_resp_code, stan FROM host_connector.reversal WHERE request_id = $1`, [requestId]);

/** Timeouts, reversals, lost connections and silent hosts, as a caller and the host see them. */
describe('host-connector: reversals and sessions', () => {
  let peer: IsoPeer;

  beforeEach(async () => {
    peer = await IsoPeer.start();
  });

  afterEach(() => peer.close());

  const iso = () => ({ hostMessageFormat: 'ISO8583' as const, connUrl: peer.url });

  describe('on one connector', () => {
    let connector: ConnectorHarness;

    beforeAll(async () => {
      connector = await startConnector();
    });

    afterAll(() => connector.close());

    it('should answer REVERSED after the deadline and send 0400, then 0401 repeats until the host acknowledges', async () => {
      let reversalsSeen = 0;
      peer.handler = (message) => {
        if (message.mti === '0200') return null;
        reversalsSeen += 1;
        return reversalsSeen < 3 ? null : answerTo(message, '00');
      };
      const payload = authorizePayload('1200', iso(), { timeoutMs: 300 });

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'REVERSED', hostRespCode: null, mti: '0200' });
      await waitFor('the reversal to be acknowledged', async () => (await reversalsOf(connector, payload.requestId))[0]?.status === 'ACKNOWLEDGED');
      const sale = peer.receivedOf('0200')[0];
      expect(peer.received.map((m) => m.mti)).toEqual(['0200', '0400', '0401', '0401']);
      for (const reversal of peer.received.slice(1)) {
        expect(String(reversal.fields[90]).slice(0, 20)).toBe(`0200${String(sale.fields[11])}${String(sale.fields[7])}`);
        expect(reversal.fields[4]).toBe('000000001200');
      }
      const stans = new Set(peer.received.slice(1).map((m) => m.fields[11]));
      expect(stans.size).toBe(1);
      const [row] = await reversalsOf(connector, payload.requestId);
      expect(row).toMatchObject({ status: 'ACKNOWLEDGED', attempts: 3, transmissions: 3, ack_resp_code: '00' });
    });

    it('should keep a reversal answered 25 open and retried, and close it when the host acknowledges with 00', async () => {
      let reversalsSeen = 0;
      peer.handler = (message) => {
        if (message.mti === '0200') return null;
        reversalsSeen += 1;
        return answerTo(message, reversalsSeen === 1 ? '25' : '00');
      };
      const payload = authorizePayload('1300', iso(), { timeoutMs: 200 });

      await connector.ask(HOST_AUTHORIZE_V1, payload);

      await waitFor('the 0410 with 25 to be recorded', async () => (await reversalsOf(connector, payload.requestId))[0]?.last_resp_code === '25');
      const [open] = await reversalsOf(connector, payload.requestId);
      expect(open).toMatchObject({ status: 'PENDING', ack_resp_code: null });
      expect(connector.logger.lines.some((line) => line.includes('the host answered 25 (Unable to locate original transaction)'))).toBe(true);
      await waitFor('the reversal to be acknowledged', async () => (await reversalsOf(connector, payload.requestId))[0]?.status === 'ACKNOWLEDGED');
      expect(peer.received.map((m) => m.mti)).toEqual(['0200', '0400', '0401']);
      expect((await reversalsOf(connector, payload.requestId))[0]).toMatchObject({ ack_resp_code: '00', last_resp_code: '00', attempts: 2, transmissions: 2 });
    });

    it('should keep a reversal answered 12 pending, with its code, repeating it with the back-off', async () => {
      peer.handler = (message) => (message.mti === '0200' ? null : answerTo(message, '12'));
      const payload = authorizePayload('1400', iso(), { timeoutMs: 200 });

      await connector.ask(HOST_AUTHORIZE_V1, payload);

      await waitFor('two answered attempts', () => peer.received.filter((m) => m.mti.startsWith('040')).length >= 2);
      await waitFor('the second attempt to be recorded', async () => (await reversalsOf(connector, payload.requestId))[0]?.attempts >= 2);
      const [row] = await reversalsOf(connector, payload.requestId);
      expect(row).toMatchObject({ status: 'PENDING', last_resp_code: '12', ack_resp_code: null });
      expect(peer.received.map((m) => m.mti).slice(0, 3)).toEqual(['0200', '0400', '0401']);
      const ready = (await (await fetch(`${connector.baseUrl}/health/ready`)).json()) as { pendingReversals: number; overdueReversals: number };
      expect(ready.pendingReversals).toBeGreaterThanOrEqual(1);

      // Fifteen minutes on, still refused: overdue, on readiness and as an error in the log at each attempt.
      const overdueBefore = ready.overdueReversals;
      await connector.query(`UPDATE host_connector.reversal SET created_at = now() - interval '16 minutes', next_attempt_at = now() WHERE request_id = $1`, [payload.requestId]);
      await waitFor('an overdue attempt to be logged as an error', () =>
        connector.logger.lines.some((line) => line.includes(`STAN ${row.stan}`) && line.includes('OVERDUE: unacknowledged for 16 min, check it with the acquirer')),
      );
      const later = (await (await fetch(`${connector.baseUrl}/health/ready`)).json()) as { overdueReversals: number };
      expect(later.overdueReversals).toBe(overdueBefore + 1);
    });

    it('should repeat a void that timed out (by default the reversal of its original) until the host acknowledges it', async () => {
      let silent = true;
      peer.handler = (message) => {
        if (message.mti !== '0400' || !silent) return answerTo(message);
        silent = false;
        return null;
      };
      const payload = followUpPayload('400', iso(), { timeoutMs: 200 });

      const reply = await connector.ask(HOST_VOID_V1, payload);

      expect(reply.result).toBe('REVERSED');
      await waitFor('the repeat', () => peer.receivedOf('0401').length === 1);
      // The void went out as the reversal (0400): it is owed as that message repeated (0401, same STAN and field 7), not a new 0400.
      const [sent, repeat] = [...peer.receivedOf('0400'), ...peer.receivedOf('0401')];
      expect(peer.receivedOf('0400')).toHaveLength(1);
      expect([repeat.fields[11], repeat.fields[7]]).toEqual([sent.fields[11], sent.fields[7]]);
      // Both name the original (followUpPayload's 0200, STAN 000123), never the void itself.
      for (const message of [sent, repeat]) expect(String(message.fields[90]).slice(0, 10)).toBe('0200000123');
    });

    it('should drop a response nobody waits for, log it masked, and keep the session', async () => {
      await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso()));
      const stray: Iso8583Message = { mti: '0210', fields: { 2: '4761739001010010', 11: '999999', 39: '00', 41: 'TID00001' } };

      peer.push(stray);
      await waitFor('the stray answer to be logged', () => connector.logger.lines.some((line) => line.includes('unmatched or late response dropped')));
      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso()));

      expect(reply.result).toBe('APPROVED');
      expect(peer.accepted).toBe(1);
      const logged = connector.logger.lines.find((line) => line.includes('unmatched or late response dropped')) ?? '';
      expect(logged).toContain('476173******0010');
      expect(logged).not.toContain('4761739001010010');
    });

    it('should drop a late answer after the deadline: the caller has REVERSED, the session goes on', async () => {
      const held: Iso8583Message[] = [];
      peer.handler = (message) => {
        if (message.mti === '0200' && held.length === 0) {
          held.push(message);
          return null;
        }
        return answerTo(message);
      };
      const late = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso(), { timeoutMs: 200 }));

      peer.push(answerTo(held[0]));
      await waitFor('the late answer to be logged', () => connector.logger.lines.some((line) => line.includes(`"11":"${String(held[0].fields[11])}"`)));
      const next = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso()));

      expect(late.result).toBe('REVERSED');
      expect(next.result).toBe('APPROVED');
      expect(peer.accepted).toBe(1);
    });

    it('should reconnect after the host closes the connection', async () => {
      expect((await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso()))).result).toBe('APPROVED');

      peer.dropConnections();
      await waitFor('the reconnection', () => peer.accepted === 2);
      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso()));

      expect(reply.result).toBe('APPROVED');
    });

    it('should answer REVERSED at once when the host drops the connection after the request was sent', async () => {
      peer.handler = (message, host) => {
        if (message.mti === '0200') host.dropConnections();
        return message.mti === '0400' ? answerTo(message) : null;
      };
      const started = Date.now();

      // Waiting for the host's deadline would take 30 s: "at once" is anything far below.
      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso(), { timeoutMs: 30_000 }), 40_000);

      expect(reply.result).toBe('REVERSED');
      expect(Date.now() - started).toBeLessThan(10_000);
      await waitFor('the reversal on the new connection', () => peer.receivedOf('0400').length === 1);
    });

    it('should drop an undecodable message and keep the session', async () => {
      await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso()));

      peer.pushRaw(Buffer.from([0x00, 0x03, 0x41, 0x42, 0x43]));
      await waitFor('the message to be logged', () => connector.logger.lines.some((line) => line.includes('undecodable message dropped (3 bytes)')));
      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso()));

      expect(reply.result).toBe('APPROVED');
      expect(peer.accepted).toBe(1);
    });
  });

  it('should mark a host down after missed echoes, refuse requests meanwhile, and up again when an echo is answered', async () => {
    // Misses come from echoes the peer does not answer, not from a short timeout: with 1 s per echo,
    // a stall of the machine does not count as two misses in a row.
    const connector = await startConnector({ config: testConfig({ HOST_ECHO_INTERVAL_MS: '200', HOST_ECHO_MAX_MISSES: '2', HOST_TIMEOUT_MS: '1000' }) });
    try {
      let echoes = true;
      peer.handler = (message) => (message.mti === '0800' && !echoes ? null : answerTo(message));
      expect((await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso(), { timeoutMs: 1000 }))).result).toBe('APPROVED');
      const state = async () =>
        ((await (await fetch(`${connector.baseUrl}/health/ready`)).json()) as { hosts: Array<{ available: string }> }).hosts[0]?.available;
      await waitFor('an echo', () => peer.receivedOf('0800').length > 0);
      expect(await state()).toBe('up');

      echoes = false;
      await waitFor('the host to be marked down', async () => (await state()) === 'down');
      const refused = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso(), { timeoutMs: 1000 }));
      echoes = true;
      await waitFor('the host to be marked up', async () => (await state()) === 'up');
      const accepted = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso(), { timeoutMs: 1000 }));

      expect(refused).toMatchObject({ result: 'HOST_UNAVAILABLE', mti: null });
      expect(refused.hostRespMessage).toContain('marked down');
      expect(accepted.result).toBe('APPROVED');
    } finally {
      await connector.close();
    }
  });

  it('should send a pending reversal from a new connector instance on the same database (restart)', async () => {
    peer.handler = () => null;
    const first = await startConnector();
    const payload = authorizePayload('1700', iso(), { timeoutMs: 200 });
    const reply = await first.ask(HOST_AUTHORIZE_V1, payload);
    await waitFor('a first reversal attempt', () => peer.receivedOf('0400').length >= 1);
    await first.close({ drop: false });
    peer.handler = (message) => answerTo(message);

    const second = await startConnector({ database: first.database });
    try {
      await waitFor('the reversal to be acknowledged', async () => (await reversalsOf(second, payload.requestId))[0]?.status === 'ACKNOWLEDGED');

      expect(reply.result).toBe('REVERSED');
      expect(peer.receivedOf('0401').length).toBeGreaterThanOrEqual(1);
      expect(peer.accepted).toBe(2);
    } finally {
      await second.close();
    }
  });
});
