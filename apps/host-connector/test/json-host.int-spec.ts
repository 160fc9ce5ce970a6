import { waitFor } from '@app/testing';
import { HOST_AUTHORIZE_V1, JsonHostFormat } from '@app/contracts';
import { AddressInfo } from 'node:net';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { authorizePayload } from './factories';
import { ConnectorHarness, startConnector } from './harness';

interface Seen {
  method: string;
  url: string;
  body: Record<string, unknown>;
}

/** A scripted JSON host: records requests, answers through `handler` (or not at all). */
async function startJsonHost(handler: (seen: Seen, response: ServerResponse) => void): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', body: JSON.parse(text || '{}') as Record<string, unknown> };
      seen.push(entry);
      handler(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/rest`, seen };
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/** JSON over HTTP through the MPGS_AP dialect. */
describe('host-connector: JSON host (MPGS_AP)', () => {
  let connector: ConnectorHarness;

  beforeAll(async () => {
    connector = await startConnector();
  });

  afterAll(() => connector.close());

  it('should answer APPROVED with the host references', async () => {
    const host = await startJsonHost((_seen, response) =>
      json(response, 200, {
        result: 'SUCCESS',
        response: { gatewayCode: 'APPROVED', acquirerCode: '00' },
        transaction: { receipt: '123456789012', authorizationCode: 'AB1234' },
      }),
    );
    try {
      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', { hostMessageFormat: 'MPGS_AP', connUrl: host.url }));

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', mti: '0200', rrn: '123456789012', approvalCode: 'AB1234' });
      expect(host.seen[0].method).toBe('PUT');
      expect(host.seen[0].url.startsWith('/api/rest/')).toBe(true);
    } finally {
      host.server.closeAllConnections();
      host.server.close();
    }
  });

  it('should answer REVERSED when the host does not answer in time, and send the reversal until acknowledged', async () => {
    let calls = 0;
    const host = await startJsonHost((_seen, response) => {
      calls += 1;
      // The sale hangs; the first reversal fails with 503 a second later (so the repeat goes in
      // another second of the clock and must still be the same transaction); the second is answered.
      if (calls === 1) return;
      if (calls === 2) return void setTimeout(() => json(response, 503, 'busy'), 1100);
      json(response, 200, { result: 'SUCCESS', response: { gatewayCode: 'APPROVED', acquirerCode: '00' } });
    });
    try {
      const payload = authorizePayload('1000', { hostMessageFormat: 'MPGS_AP', connUrl: host.url }, { timeoutMs: 300 });

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'REVERSED', mti: '0200' });
      await waitFor('the reversal to be acknowledged', async () => {
        const rows = await connector.query<{ status: string }>(`SELECT status FROM host_connector.reversal WHERE request_id = $1`, [payload.requestId]);
        return rows[0]?.status === 'ACKNOWLEDGED';
      });
      expect(host.seen).toHaveLength(3);
      expect(host.seen[2]).toEqual(host.seen[1]);
    } finally {
      host.server.closeAllConnections();
      host.server.close();
    }
  });

  it('should answer HOST_UNAVAILABLE when nothing listens at the address', async () => {
    const host = await startJsonHost(() => undefined);
    const url = host.url;
    await new Promise((resolve) => host.server.close(resolve));

    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', { hostMessageFormat: 'MPGS_AP', connUrl: url }));

    expect(reply).toMatchObject({ result: 'HOST_UNAVAILABLE', mti: null });
    // A reason, not the socket's text: a refused port and a silent one read alike.
    expect(reply.hostRespMessage).toMatch(/^cannot connect to MPGS_AP http:\/\/\S+: the host did not take the connection; nothing was sent$/);
    expect(reply.hostRespMessage).not.toMatch(/ECONNREFUSED|connect E/);
  });
});

/**
 * What acknowledges a JSON reversal (docs/decisions.md, "JSON formats: follow-ups and reversals"):
 * "original not found" (25) keeps it PENDING and repeated under the same id; "already reversed"
 * (94) acknowledges it.
 */
describe('host-connector: JSON reversals answered "not found", then "already reversed"', () => {
  let connector: ConnectorHarness;

  beforeAll(async () => {
    connector = await startConnector();
  });

  afterAll(() => connector.close());

  const ANSWERS: Record<JsonHostFormat, (code: '25' | '94' | '00') => unknown> = {
    MPGS_AP: (code) =>
      code === '00'
        ? {
            result: 'SUCCESS',
            response: { gatewayCode: 'APPROVED', acquirerCode: code },
            transaction: { id: 'x', receipt: '612345678901', authorizationCode: 'APR123' },
          }
        : { result: 'FAILURE', response: { gatewayCode: 'DECLINED', acquirerCode: code } },
    POMELO_JSON: (code) => ({
      transaction_id: 'x',
      status: code === '00' ? 'APPROVED' : 'REJECTED',
      status_detail: 'REVERSAL',
      response_code: code,
      message: 'reversal',
    }),
    EZ_AIO: (code) => ({ txnRef: 'x', respCode: code, respMessage: 'reversal', txnStatus: code === '00' ? 'APPROVED' : 'DECLINED' }),
    EZ_WALLET: (code) =>
      code === '00' ? { id: 'x', state: 'SUCCEEDED' } : { id: 'x', state: 'DECLINED', reason: code === '25' ? 'ORIGINAL_NOT_FOUND' : 'ALREADY_REVERSED' },
  };

  it.each(Object.keys(ANSWERS) as JsonHostFormat[])(
    '%s: should keep the reversal open on 25, and on the "already reversed" (94) that follows it, and show it ACKNOWLEDGED once approved, one id throughout',
    async (format) => {
      let answer: '25' | '94' | '00' = '25';
      const host = await startJsonHost((seen, response) => {
        // The sale hangs; each reversal is answered "not found", then "already reversed", then approved, as the test moves on.
        if (host.seen.indexOf(seen) === 0) return;
        json(response, 200, ANSWERS[format](answer));
      });
      const reversalOf = async (requestId: string) =>
        (
          await connector.query<{ status: string; ack_resp_code: string | null; last_resp_code: string | null }>(
            `SELECT status, ack_resp_code, last_resp_code FROM host_connector.reversal WHERE request_id = $1`,
            [requestId],
          )
        )[0];
      try {
        const payload = authorizePayload('1000', { hostMessageFormat: format, connUrl: host.url }, { timeoutMs: 300 });

        expect(await connector.ask(HOST_AUTHORIZE_V1, payload)).toMatchObject({ result: 'REVERSED' });
        await waitFor('the reversal to be repeated after 25', async () => host.seen.length >= 3);
        expect(await reversalOf(payload.requestId)).toMatchObject({ status: 'PENDING', last_resp_code: '25', ack_resp_code: null });
        // The host refused the reversal: its "already reversed" now names the refused one, which undid nothing.
        answer = '94';
        await waitFor('the 94 to be recorded', async () => (await reversalOf(payload.requestId))?.last_resp_code === '94');
        expect(await reversalOf(payload.requestId)).toMatchObject({ status: 'PENDING', ack_resp_code: null });
        answer = '00';
        await waitFor('the reversal to be acknowledged', async () => (await reversalOf(payload.requestId))?.status === 'ACKNOWLEDGED');

        expect(await reversalOf(payload.requestId)).toMatchObject({ status: 'ACKNOWLEDGED', ack_resp_code: '00' });
        const [, ...reversals] = host.seen;
        for (const repeat of reversals) expect({ url: repeat.url, body: repeat.body }).toEqual({ url: reversals[0].url, body: reversals[0].body });
      } finally {
        host.server.closeAllConnections();
        host.server.close();
      }
    },
  );
});
