import { freePort } from '@app/database';
import { AddressInfo, connect, createServer, Socket } from 'node:net';
import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { createAcquirer, createEmv, createMerchant, queryDatabase, startTestApp, TestApp, unique, waitFor } from '@app/testing';
import { HostSandbox, hostSandboxSettingsFrom, StandaloneModule, startHostSandbox } from '../apps/standalone/src';
import { Acquiring, activateTill, newTid, onboardMerchant, tap, Till } from './money-support';
import { Retirement, RETIREMENTS, signOn, terminalMovesToAnotherPbo } from './terminal-release';

/**
 * One owner per terminal, whatever the spelling (docs/decisions.md): PBO B naming PBO A's MID/TID
 * at A's host by another spelling of its address (the connector's default named explicitly, a
 * trailing slash, another name of the same address) or of the MID (the space pad ISO 8583 adds) is
 * refused: by merchant-management where it can tell, else by the host connector, which knows the
 * address it connects to. B's sign-on and sale fail with the documented reason; A's working key
 * stays and A still signs on and sells. Standalone, against the host simulator over real TCP.
 */
describe('standalone: a terminal is one PBO\'s, however its host or MID is spelt', () => {
  let hosts: HostSandbox;
  let app: TestApp;
  let defaultUrl: string;

  beforeAll(async () => {
    hosts = await startHostSandbox(hostSandboxSettingsFrom({ HOST_ECHO_INTERVAL_MS: '0', HOST_TIMEOUT_MS: '3000' }));
    app = await startTestApp((options) => StandaloneModule.register(options, hosts.config));
    defaultUrl = hosts.simulator!.connUrls.ISO8583!;
  });

  const relays: Array<() => Promise<void>> = [];

  afterAll(async () => {
    await app?.close();
    await hosts?.close();
    await Promise.all(relays.map((close) => close()));
  });

  /** A byte-for-byte relay on 127.0.0.1 to `to`: another ip:port of the same host; `close` ends it and every connection through it. */
  async function relay(to: number): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
    const sockets = new Set<Socket>();
    let connections = 0;
    const server = createServer((inbound) => {
      connections += 1;
      const outbound = connect({ host: '127.0.0.1', port: to });
      for (const socket of [inbound, outbound]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      }
      inbound.pipe(outbound).pipe(inbound);
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    const close = () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    relays.push(close);
    return { port: (server.address() as AddressInfo).port, connections: () => connections, close };
  }

  /** PBO A on the default ISO 8583 host (no connUrl), signed on. */
  async function owner(): Promise<{ a: Acquiring; till: Till; mid: string; tid: string }> {
    const [mid, tid] = [`SM${unique().replace(/\W/g, '').slice(-10)}`.toUpperCase(), newTid()];
    const a = await onboardMerchant(app, 'ISO8583');
    const till = await activateTill(app, a, { mid, tid });
    expect(await signOn(a, till)).toEqual(expect.objectContaining({ resultReason: 'HostSuccess', hostRespCode: '00' }));
    return { a, till, mid, tid };
  }

  // The reviewer's steps (r14, r14f): A's device at the default host, not signed on yet; B at the
  // default host, then B naming it explicitly or by a name that resolves to it: both 409 at
  // merchant-management (v1 and /api/v2), keyed on the host the connector names and on the
  // addresses its claim resolves; A then signs on and sells.
  it.each([
    ['the default address named explicitly', 'v1', (url: string) => url],
    ['the default address with a trailing slash', 'v2', (url: string) => `${url}/`],
    ['the default address as an IPv4-mapped IPv6 address', 'v1', (url: string) => url.replace('127.0.0.1', '[::ffff:127.0.0.1]')],
    ['the default address named explicitly', 'v2', (url: string) => url],
    ['another name of the default address (localhost)', 'v1', (url: string) => url.replace('127.0.0.1', 'localhost')],
    ['another name of the default address (LOCALHOST)', 'v2', (url: string) => url.replace('127.0.0.1', 'LOCALHOST')],
  ])('should refuse B in merchant-management before any sign-on when B names A\'s default host by %s (%s); A then signs on and sells', async (_, api, spell) => {
    const [mid, tid] = [`5${unique().replace(/\D/g, '').slice(-14)}`.padEnd(15, '5'), newTid()];
    const a = await onboardMerchant(app, 'ISO8583');
    const till = await activateTill(app, a, { mid, tid });
    const refusal = (host: string) => ({ code: 10000, msg: `MID ${mid} / TID ${tid} at ${host} is another PBO's terminal` });
    const create = (b: Acquiring) =>
      api === 'v1'
        ? b.pbo.post('/api/openapi/v1/device', { mchId: b.mchId, deviceAlias: 'Till B', extParams: { acquirers: { [b.acquirer]: { acqMid: mid, acqTid: tid } } } })
        : b.pbo.post('/api/v2/device', { mchId: b.mchId, activateCodeAlias: 'Till B', deviceType: 'COTS', extParams: { acquirers: { [b.acquirer]: { acqMid: mid, acqTid: tid } } } });

    const plain = await onboardMerchant(app, 'ISO8583');
    expect(await create(plain)).toEqual(expect.objectContaining({ status: 409, body: refusal('the default ISO8583 host') }));
    const spelt = await onboardMerchant(app, 'ISO8583', { acquirer: { connUrl: spell(defaultUrl) } });
    // B reads its own spelling (a name that is not the default's spelling) or "the default": never A's.
    const named = spell(defaultUrl).toLowerCase().includes('localhost') ? `ISO8583 host ${spell(defaultUrl).toLowerCase()}` : 'the default ISO8583 host';
    expect(await create(spelt)).toEqual(expect.objectContaining({ status: 409, body: refusal(named) }));

    expect(await signOn(a, till)).toEqual(expect.objectContaining({ resultReason: 'HostSuccess', hostRespCode: '00' }));
    expect((await tap(till, '2.00')).tranStatus).toBe('APPROVED');
  });

  // Review r14m: after a release, a device of the same PBO on the same MID/TID under another acquirer profile (never used, the
  // host written another way) made the gateway's check pass. The check is now of the terminal at the host the sale's acceptance
  // names now (r14n): that one was released, so the refund is refused before anything is sent, and nothing is claimed.
  it('should refuse a refund on a released terminal, though the PBO registers the MID/TID again under another spelling of the host', async () => {
    const { a, till, mid, tid } = await owner();
    const sale = await tap(till, '7.00');
    expect(sale.tranStatus).toBe('APPROVED');
    expect((await a.pbo.delete(`/api/openapi/v1/device/${till.deviceId}?deviceStatus=3`)).status).toBe(200);
    const claimsOf = () => queryDatabase(app.database.url, 'SELECT group_id FROM host_connector.terminal_claim WHERE mid = $1 AND tid = $2', [mid, tid]);
    await waitFor('the release at the connector', async () => (await claimsOf()).length === 0, 20_000);
    // A's own second acquirer profile (another text of the host), and a device on it with the released MID/TID.
    const emvId = await createEmv(a.pbo, { paymentMethod: '01' });
    const acquirer = await createAcquirer(a.pbo, { '01': [emvId] }, { connMessageFormat: 'ISO8583', enablerMsgFormat: null, connUrl: defaultUrl.replace('127.0.0.1', 'localhost') });
    const merchant = await createMerchant(a.pbo, { country: 'MY', timeZone: 'Asia/Kuala_Lumpur', mcc: '5814' });
    const bound = await a.pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirer), currency: 'MYR' });
    expect(bound.status).toBe(200);
    const created = await a.pbo.post('/api/openapi/v1/device', {
      mchId: merchant.mchId,
      deviceAlias: 'Till again',
      extParams: { acquirers: { [acquirer]: { acqMid: mid, acqTid: tid } } },
    });
    expect(created.status).toBe(200);
    await waitFor('the gateway to hold the MID/TID for A again', async () =>
      (await queryDatabase(app.database.url, 'SELECT 1 FROM payment_gateway.terminal_identity WHERE group_id = $1 AND mid = $2 AND tid = $3', [a.groupId, mid, tid])).length === 1,
    20_000);

    const refunded = await a.pbo.request('POST', `/${DEFAULT_GATEWAY_NAMESPACE}/api/v1/transaction/${sale.tranId}/refund`, { amount: '1.00' }, { 'idempotency-key': unique('refund-') });

    expect(refunded.status).toBe(409);
    expect(JSON.stringify(refunded.body)).toContain(`its terminal (MID ${mid} / TID ${tid} at the default ISO8583 host) was given up`);
    expect(await claimsOf()).toEqual([]);
  });

  /**
   * PBO A with an ISO 8583 acquirer at a relay to the simulator, a MID and a TID; `move` edits the
   * acquirer's address to another relay (v1 or /api/v2 PUT), waits for it at the gateway and closes
   * the first, so nothing sent to the old address is answered.
   */
  async function acquirerThatMoves(): Promise<{ a: Acquiring; mid: string; tid: string; move: (api: 'v1' | 'v2') => Promise<void> }> {
    const simulatorPort = Number(new URL(defaultUrl).port);
    const [before, after] = [await relay(simulatorPort), await relay(simulatorPort)];
    const [mid, tid] = [`SM${unique().replace(/\W/g, '').slice(-10)}`.toUpperCase(), newTid()];
    const a = await onboardMerchant(app, 'ISO8583', { acquirer: { connUrl: `tcp://127.0.0.1:${before.port}` } });
    const move = async (api: 'v1' | 'v2') => {
      const connUrl = `tcp://127.0.0.1:${after.port}`;
      expect((await a.pbo.put(`${api === 'v1' ? '/api/openapi/v1' : '/api/v2'}/acquirer/${a.acquirer}`, { connUrl })).status).toBe(200);
      const unmoved = () =>
        queryDatabase(app.database.url, 'SELECT 1 FROM payment_gateway.acceptance a JOIN payment_gateway.profile_acceptance b ON b.acceptance_id = a.id JOIN payment_gateway.profile p ON p.id = b.profile_id WHERE a.group_id = $1 AND a.primary_tid = $2 AND NOT p.retired AND a.host_url IS DISTINCT FROM $3', [a.groupId, tid, connUrl]);
      await waitFor('the new address at the gateway', async () => (await unmoved()).length === 0, 20_000);
      await before.close();
      expect(after.connections()).toBe(0);
    };
    return { a, mid, tid, move };
  }

  /** A follow-up through the gateway's own route: its status and its action's status (or the problem's detail). */
  async function followUp(a: Acquiring, tranId: string, kind: 'refund' | 'capture' | 'void', body: Record<string, string> = {}): Promise<{ status: number; outcome?: string }> {
    const answered = await a.pbo.request('POST', `/${DEFAULT_GATEWAY_NAMESPACE}/api/v1/transaction/${tranId}/${kind}`, body, { 'idempotency-key': unique(`${kind}-`) });
    const shown = answered.body as unknown as { actions?: Array<{ actionType: string; actionStatus: string }>; detail?: string };
    return { status: answered.status, outcome: shown.actions?.filter((each) => each.actionType === kind.toUpperCase()).pop()?.actionStatus ?? shown.detail };
  }

  /** Settles the terminal's open batch through /api/v2/settlement/settle: the answer's envelope. */
  async function settleOpenBatch(a: Acquiring, tid: string): Promise<unknown> {
    let batchId: string | undefined;
    // The transactions context builds batches from the gateway's events: it may be a moment behind.
    await waitFor('the open batch', async () => {
      const page = (await a.pbo.get('/api/v2/settlement?pageSize=-1')).body as unknown as { data: { records: Array<{ batchId: string; acquirerTid: string; state: number }> } };
      batchId = page.data.records.find((batch) => batch.acquirerTid === tid && batch.state === 0)?.batchId;
      return batchId !== undefined;
    }, 20_000);
    return (await a.pbo.post('/api/v2/settlement/settle', { batchId })).body;
  }

  const SETTLED = expect.objectContaining({ code: 0, data: expect.objectContaining({ state: 1 }) });

  // Review r14n: an edit of the acquirer's address to another ip:port (a new IP, a DR site) moves its
  // terminals. The refund, capture and void of transactions made before the edit, and the settle of
  // their batch, go to the new address; the old one no longer answers.
  it("should send follow-ups and the settle of sales made before an acquirer address edit to the acquirer's new address", async () => {
    const { a, mid, tid, move } = await acquirerThatMoves();
    const till = await activateTill(app, a, { mid, tid });
    expect(await signOn(a, till)).toEqual(expect.objectContaining({ resultReason: 'HostSuccess', hostRespCode: '00' }));
    const [refunded, voided, authorised] = [await tap(till, '9.00'), await tap(till, '3.00'), await tap(till, '5.00', 'AUTH')];
    for (const sale of [refunded, voided, authorised]) expect(sale.tranStatus).toBe('APPROVED');

    await move('v1');

    expect(await followUp(a, refunded.tranId, 'refund', { amount: '2.00' })).toEqual({ status: 200, outcome: 'SUCCESS' });
    expect(await followUp(a, authorised.tranId, 'capture', { amount: '4.00' })).toEqual({ status: 200, outcome: 'SUCCESS' });
    expect(await followUp(a, voided.tranId, 'void')).toEqual({ status: 200, outcome: 'SUCCESS' });
    expect(await settleOpenBatch(a, tid)).toEqual(SETTLED);
  });

  // Review r14p: the acquirer renamed (its acceptance keeps its id: merchant-management names the acquirer profile), later moved.
  it.each(['v1', 'v2'] as const)("should send the refund of a sale made before an acquirer was renamed (%s), then moved, and the terminal's settle, to its new address", async (api) => {
    const { a, mid, tid, move } = await acquirerThatMoves();
    const till = await activateTill(app, a, { mid, tid });
    const before = await tap(till, '8.00');
    const profileName = unique('Renamed acquirer ');
    expect((await a.pbo.put(`${api === 'v1' ? '/api/openapi/v1' : '/api/v2'}/acquirer/${a.acquirer}`, { profileName })).status).toBe(200);
    await waitFor('the new name at the gateway', async () =>
      (await queryDatabase(app.database.url, 'SELECT 1 FROM payment_gateway.acceptance WHERE group_id = $1 AND primary_tid = $2 AND acpt_name = $3', [a.groupId, tid, profileName])).length > 0,
    20_000);
    expect((await tap(till, '2.00')).tranStatus).toBe('APPROVED');

    await move(api);

    expect(await followUp(a, before.tranId, 'refund', { amount: '1.00' })).toEqual({ status: 200, outcome: 'SUCCESS' });
    expect(await settleOpenBatch(a, tid)).toEqual(SETTLED);
  });

  // Review r14q: the merchant settled its batch at acquirer X, then moved to acquirer Y on the same MID/TID with an AUTH of X still
  // open. The AUTH rolls over into the next batch under X's acceptance; that batch settles Y's sales alone, at Y.
  it("should settle a batch of the new acquirer's sales at the new acquirer though an AUTH of the old one rolled over into it", async () => {
    const simulatorPort = Number(new URL(defaultUrl).port);
    const [x, y] = [await relay(simulatorPort), await relay(simulatorPort)];
    const [mid, tid] = [`SM${unique().replace(/\W/g, '').slice(-10)}`.toUpperCase(), newTid()];
    const a = await onboardMerchant(app, 'ISO8583', { acquirer: { connUrl: `tcp://127.0.0.1:${x.port}` } });
    const till = await activateTill(app, a, { mid, tid });
    expect([(await tap(till, '9.00')).tranStatus, (await tap(till, '5.00', 'AUTH')).tranStatus]).toEqual(['APPROVED', 'APPROVED']);
    expect(await settleOpenBatch(a, tid)).toEqual(SETTLED);

    expect((await a.pbo.delete(`/api/openapi/v1/mchInfo/payment/${a.mchId}?acquirerProfileId=${a.acquirer}&currency=MYR`)).status).toBe(200);
    const emvId = await createEmv(a.pbo, { paymentMethod: '01' });
    const other = await createAcquirer(a.pbo, { '01': [emvId] }, { connMessageFormat: 'ISO8583', enablerMsgFormat: null, connUrl: `tcp://127.0.0.1:${y.port}` });
    expect((await a.pbo.post(`/api/openapi/v1/mchInfo/payment/${a.mchId}`, { acquirerProfileId: String(other), currency: 'MYR' })).status).toBe(200);
    const extParams = JSON.stringify({ acquirers: { [other]: { acqMid: mid, acqTid: tid } } });
    expect((await a.pbo.put(`/api/openapi/v1/device/${till.deviceId}`, { extParams })).status).toBe(200);
    await waitFor('the new acquirer at the gateway', async () =>
      (await queryDatabase(app.database.url, 'SELECT 1 FROM payment_gateway.acceptance WHERE group_id = $1 AND primary_tid = $2 AND host_url = $3', [a.groupId, tid, `tcp://127.0.0.1:${y.port}`])).length > 0,
    20_000);
    expect([(await tap(till, '7.00')).tranStatus, (await tap(till, '3.00')).tranStatus]).toEqual(['APPROVED', 'APPROVED']);
    await x.close();

    expect(await settleOpenBatch(a, tid)).toEqual(SETTLED);
  });

  // Review r14o: the phone that made a sale was replaced by another on the same terminal, then the acquirer's address edited. The
  // retired device's profile is not pushed again; the replacement's acceptance of the same acquirer says where the terminal is now.
  it("should send the refund of a replaced device's sale, and the terminal's settle, to the acquirer's new address", async () => {
    const { a, mid, tid, move } = await acquirerThatMoves();
    const first = await activateTill(app, a, { mid, tid });
    const sale = await tap(first, '6.00');
    expect(sale.tranStatus).toBe('APPROVED');
    expect((await a.pbo.delete(`/api/openapi/v1/device/${first.deviceId}?deviceStatus=3`)).status).toBe(200);
    const replacement = await activateTill(app, a, { mid, tid }, 'Till 2');
    expect((await tap(replacement, '2.00')).tranStatus).toBe('APPROVED');

    await move('v2');

    expect(await followUp(a, sale.tranId, 'refund', { amount: '1.00' })).toEqual({ status: 200, outcome: 'SUCCESS' });
    expect(await settleOpenBatch(a, tid)).toEqual(SETTLED);
  });

  // A TID with spaces is refused at the edge already (1 to 8 letters or digits, field 41).
  it('should refuse B in merchant-management when its MID is A\'s with the space pad ISO 8583 adds', async () => {
    const { a, till, mid, tid } = await owner();
    for (const [spelling, acquirer] of [
      [{ mid: `${mid} `, tid }, {}],
      [{ mid: mid.padEnd(15), tid: `${tid}` }, {}],
    ] as const) {
      const b = await onboardMerchant(app, 'ISO8583', { acquirer });
      const response = await b.pbo.post('/api/openapi/v1/device', {
        mchId: b.mchId,
        deviceAlias: 'Till B',
        extParams: { acquirers: { [b.acquirer]: { acqMid: spelling.mid, acqTid: spelling.tid } } },
      });
      expect(response.body).toEqual({ code: 10000, msg: `MID ${mid} / TID ${tid} at the default ISO8583 host is another PBO's terminal` });
    }
    expect(await signOn(a, till)).toEqual(expect.objectContaining({ resultReason: 'HostSuccess', hostRespCode: '00' }));
  });

  // Review r14i (MEDIUM): both contexts freed A's terminal, but the connector's confirmed claim
  // stayed A's, so B's sign-on was refused until an operator ran `claims release`.
  it.each(Object.keys(RETIREMENTS) as Retirement[])("should let B sign on and sell on A's terminal once A %s, and keep B's claim", (retirement) =>
    terminalMovesToAnotherPbo(app, retirement),
  );

  it('should leave a terminal free when the first PBO\'s requests never reached the host: no claim is kept for them', async () => {
    const port = await freePort();
    const [mid, tid] = [`SM${unique().replace(/\W/g, '').slice(-10)}`.toUpperCase(), newTid()];
    const claimsOf = () => queryDatabase(app.database.url, 'SELECT group_id FROM host_connector.terminal_claim WHERE tid = $1', [tid]);
    const a = await onboardMerchant(app, 'ISO8583', { acquirer: { connUrl: `tcp://127.0.0.1:${port}` } });
    const aTill = await activateTill(app, a, { mid, tid });

    // Nothing listens there: A's sign-on and sale reach no host.
    expect((await signOn(a, aTill)).hostRespCode).toBe('');
    expect((await tap(aTill, '1.00')).tranStatus).not.toBe('APPROVED');
    expect(await claimsOf()).toEqual([]);

    // B names the same ip:port by another name: merchant-management refuses it while A's device names
    // the terminal (r14f); once A retires that device, the connector holds no claim of A's failed
    // requests against B.
    const b = await onboardMerchant(app, 'ISO8583', { acquirer: { connUrl: `tcp://localhost:${port}` } });
    await expect(activateTill(app, b, { mid, tid })).rejects.toThrow(/409/);
    expect((await a.pbo.delete(`/api/openapi/v1/device/${aTill.deviceId}?deviceStatus=3`)).status).toBe(200);
    const bTill = await activateTill(app, b, { mid, tid });
    const bSignOn = await signOn(b, bTill);
    expect(bSignOn.resultReason).not.toBe('InvalidAcceptance');
    expect(bSignOn.hostRespMessage).not.toContain("another PBO's terminal");
    expect(await claimsOf()).toEqual([]);
  });
});
