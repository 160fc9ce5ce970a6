import { HOST_AUTHORIZE_V1, HOST_CAPTURE_V1, HOST_ECHO_V1, HOST_REFUND_V1, HOST_SETTLE_V1, HOST_SIGNON_V1, HOST_VOID_V1 } from '@app/contracts';
import { authorizePayload, followUpPayload, networkPayload, settlePayload } from './factories';
import { ConnectorHarness, startConnector } from './harness';

/** The in-process MOCK host and the validation of payloads, as a caller sees them. */
describe('host-connector: MOCK host and payload validation', () => {
  let connector: ConnectorHarness;

  beforeAll(async () => {
    connector = await startConnector();
  });

  afterAll(() => connector.close());

  it('should approve an ordinary MOCK amount with 00, a STAN, an RRN and an approval code', async () => {
    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', { hostMessageFormat: 'MOCK' }));

    expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', mti: '0200' });
    expect(reply.stan).toMatch(/^[0-9]{6}$/);
    expect(reply.transmittedAt).toMatch(/^[0-9]{10}$/);
    expect(reply.rrn).toMatch(/^[0-9]{12}$/);
    expect(reply.approvalCode).toMatch(/^[0-9]{6}$/);
  });

  it('should decline a MOCK amount ending in 51 with 51', async () => {
    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('2051', { hostMessageFormat: 'MOCK' }));

    expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: '51', approvalCode: null });
  });

  it('should answer a MOCK amount ending in 91 REVERSED after the deadline and record the reversal as acknowledged', async () => {
    const payload = authorizePayload('3091', { hostMessageFormat: 'MOCK' }, { timeoutMs: 300 });
    const started = Date.now();

    const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(reply).toMatchObject({ requestId: payload.requestId, result: 'REVERSED', hostRespCode: null, mti: '0200' });
    const rows = await connector.query(`SELECT status, ack_resp_code FROM host_connector.reversal WHERE request_id = $1`, [payload.requestId]);
    expect(rows).toEqual([{ status: 'ACKNOWLEDGED', ack_resp_code: '00' }]);
  });

  it('should give consecutive MOCK requests of one terminal consecutive STANs', async () => {
    const first = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', { hostMessageFormat: 'MOCK', tid: 'SEQ00001' }));
    const second = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', { hostMessageFormat: 'MOCK', tid: 'SEQ00001' }));

    expect([first.stan, second.stan]).toEqual(['000001', '000002']);
  });

  it.each([
    [HOST_VOID_V1, () => followUpPayload('1000', { hostMessageFormat: 'MOCK' })],
    [HOST_REFUND_V1, () => followUpPayload('1000', { hostMessageFormat: 'MOCK' })],
    [HOST_CAPTURE_V1, () => followUpPayload('1000', { hostMessageFormat: 'MOCK' })],
    [HOST_SETTLE_V1, () => settlePayload({ hostMessageFormat: 'MOCK' })],
    [HOST_SIGNON_V1, () => networkPayload({ hostMessageFormat: 'MOCK' })],
    [HOST_ECHO_V1, () => networkPayload({ hostMessageFormat: 'MOCK' })],
  ])('should approve %s on MOCK', async (subject, payload) => {
    const reply = await connector.ask(subject, payload());

    expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00' });
  });

  it('should answer a repeated requestId with the first reply instead of a second transaction', async () => {
    const payload = authorizePayload('1000', { hostMessageFormat: 'MOCK' });

    const first = await connector.ask(HOST_AUTHORIZE_V1, payload);
    const second = await connector.ask(HOST_AUTHORIZE_V1, payload);

    expect(second).toEqual(first);
  });

  it('should reject a payload with a missing field, naming the field', async () => {
    const payload = authorizePayload('1000', { hostMessageFormat: 'MOCK' }) as Record<string, unknown>;
    delete payload.amount;

    const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

    expect(reply).toMatchObject({ requestId: payload.requestId, result: 'REJECTED', hostRespCode: null, mti: null, stan: null });
    expect(reply.hostRespMessage).toContain('amount');
  });

  it('should reject a payload without its target, naming it', async () => {
    const payload = authorizePayload('1000', { hostMessageFormat: 'MOCK' }) as Record<string, unknown>;
    delete payload.target;

    const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

    expect(reply).toMatchObject({ result: 'REJECTED', hostRespMessage: 'target is required' });
  });

  it('should answer liveness and readiness over HTTP, readiness with the database state', async () => {
    const live = await fetch(`${connector.baseUrl}/health/live`);
    const ready = await fetch(`${connector.baseUrl}/health/ready`);

    expect({ status: live.status, body: await live.json() }).toEqual({ status: 200, body: { status: 'ok' } });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', database: 'up', pendingReversals: 0, hosts: [] });
  });

  it('should reject a bad nested field, naming its path', async () => {
    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('12.50', { hostMessageFormat: 'MOCK' }));

    expect(reply.result).toBe('REJECTED');
    expect(reply.hostRespMessage).toContain('amount.minor');
  });

  it('should reject an unknown host format, naming the field', async () => {
    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', { hostMessageFormat: 'SVC_ENABLER' as never }));

    expect(reply.result).toBe('REJECTED');
    expect(reply.hostRespMessage).toContain('target.hostMessageFormat');
  });

  it('should reject an unknown field', async () => {
    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', { hostMessageFormat: 'MOCK' }, { pan: '4111111111111111' }));

    expect(reply.result).toBe('REJECTED');
    expect(reply.hostRespMessage).toContain('pan');
  });

  it('should reject a payload that is not an object', async () => {
    const reply = await connector.ask(HOST_SETTLE_V1, [] as unknown as object);

    expect(reply).toMatchObject({ requestId: '', result: 'REJECTED' });
  });

  it('should reject a payload nested far deeper than any contract, or carrying a prototype key, naming why and sending nothing', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1000; i += 1) deep = { n: deep };
    const nested = authorizePayload('100', { hostMessageFormat: 'MOCK' }, { card: deep }) as Record<string, unknown>;
    const hostile = JSON.parse(`{"__proto__":{"polluted":true},"requestId":"${String((nested as { requestId: string }).requestId)}x"}`) as object;

    const replies = [await connector.ask(HOST_AUTHORIZE_V1, nested), await connector.ask(HOST_AUTHORIZE_V1, hostile)];

    expect(replies.map((reply) => [reply.result, reply.hostRespMessage, reply.mti])).toEqual([
      ['REJECTED', 'payload nests deeper than 32 levels', null],
      ['REJECTED', '__proto__ is not an accepted field', null],
    ]);
  });
});
