import { randomUUID } from 'node:crypto';
import { envSchema } from '@app/common';
import { openContextDataSource } from '@app/database';
import { ApiClient, envelopeData, queryDatabase, startTestApp, TestApp, transactionsClient, waitFor } from '@app/testing';
import fc from 'fast-check';
import type { MigrationInterface } from 'typeorm';
import { paymentGatewayDatabase, paymentGatewayOptionsFrom, paymentGatewayVariables } from '../apps/payment-gateway/src';
import { HostSandbox, hostSandboxSettingsFrom, StandaloneModule, startHostSandbox } from '../apps/standalone/src';
import { Acquiring, activateTill, ADMIN_PASSWORD, gatewayTransaction, NAMESPACE, newTid, onboardMerchant, orderOf, tap, Till } from './money-support';

/**
 * The two APIs that void, refund and capture a transaction (the gateway's own
 * `/{ns}/api/v1/transaction/{id}/…` and the transactions context's `/api/v2/order/…`) over HTTP in
 * standalone, against the host simulator's ISO 8583 acquirer (outside review of issue 13):
 * - each keeps its Idempotency-Keys in its own namespace at the gateway, so a key on one never
 *   replays the other's;
 * - the same key with another body is 422 on both (envelope code 10000 on /api/v2);
 * - a terminal held by a settlement answers every /api/v2 route 409 with Retry-After.
 */
describe('the gateway and /api/v2 follow-ups, side by side', () => {
  let hosts: HostSandbox;
  let app: TestApp;
  let acquiring: Acquiring;
  let till: Till;
  let tid: string;

  beforeAll(async () => {
    hosts = await startHostSandbox(hostSandboxSettingsFrom({ HOST_ECHO_INTERVAL_MS: '0', HOST_TIMEOUT_MS: '2000' }));
    // A held terminal refuses at once (no wait), so the held routes answer without waiting out the default 10 s.
    // A follow-up the host never answers (an amount ending in 91) is reversed after 1.5 s: a repeat of it meanwhile is in flight.
    const gateway = paymentGatewayOptionsFrom(envSchema(paymentGatewayVariables).read({ TRANSACTION_SETTLE_WAIT_MS: '0', TRANSACTION_HOST_TIMEOUT_MS: '1500' }), {
      standalone: true,
      production: false,
    });
    app = await startTestApp((options) => StandaloneModule.register(options, hosts.config, gateway));
    acquiring = await onboardMerchant(app, 'ISO8583');
    tid = newTid();
    till = await activateTill(app, acquiring, { mid: 'MID000000000088', tid });
  });

  afterAll(async () => {
    await app?.close();
    await hosts?.close();
  });

  const tx = () => transactionsClient(acquiring.pbo);
  const path = (transactionId: string) => ({ params: { path: { transactionId } } });

  /** `/api/v2/order/refund` under `key`. */
  const legacyRefund = (tranId: string, amount: number, key: string) =>
    tx().POST('/api/v2/order/refund/{transactionId}', {
      params: { path: { transactionId: tranId }, header: { 'idempotency-key': key } },
      body: { refundAmount: amount, refundReason: 'returned', adminPwd: ADMIN_PASSWORD },
    });

  /** The gateway's own refund under `key`. */
  const gatewayRefund = (pbo: ApiClient, tranId: string, amount: string, key: string) =>
    pbo.request('POST', `/${NAMESPACE.namespace}/api/v1/transaction/${tranId}/refund`, { amount }, { 'idempotency-key': key });

  const refundsOf = async (tranId: string) =>
    (await gatewayTransaction(acquiring.pbo, tranId)).actions.filter((action) => action.actionType === 'REFUND' && action.actionStatus === 'SUCCESS');

  it("should never answer a key of one API with the other's refund: each refund under its own key is done", async () => {
    // Keys as a client of each API may write them: plain, and ones that look like the other API's request ids.
    const key = fc.stringMatching(/^[A-Za-z0-9_-]{1,55}$/);
    await fc.assert(
      fc.asyncProperty(key, fc.boolean(), async (k, legacyFirst) => {
        const sale = await tap(till, '50.00');
        await orderOf(acquiring.pbo, sale.tranId);
        // `<k>` on /api/v2; on the gateway `refund-<k>` (what /api/v2 sent for `<k>` before) and `<k>` itself.
        const legacy = async () => expect(envelopeData(await legacyRefund(sale.tranId, 1, k))).toMatchObject({ actionStatus: 'SUCCESS' });
        const gateway = async (key: string) => expect((await gatewayRefund(acquiring.pbo, sale.tranId, '2.00', key)).status).toBe(200);
        const steps = [legacy, () => gateway(`refund-${k}`), () => gateway(k)];
        for (const step of legacyFirst ? steps : steps.reverse()) await step();
        expect(await refundsOf(sale.tranId)).toHaveLength(3);

        // Each API's repeat is still its own replay: nothing more is refunded.
        for (const step of steps) await step();
        expect(await refundsOf(sale.tranId)).toHaveLength(3);
      }),
      { numRuns: 3 },
    );
  });

  it('should answer an /api/v2 retry across the deploy its first refund, stored under the id of before (refund-<key>)', async () => {
    const sale = await tap(till, '40.00');
    await orderOf(acquiring.pbo, sale.tranId);
    envelopeData(await legacyRefund(sale.tranId, 4, 'across-deploy'));
    // The refund as the gateway stored it before the namespaces, then the deploy's migration run over it.
    await queryDatabase(app.database.url, `UPDATE payment_gateway.transaction_action SET client_request_id = 'refund-across-deploy' WHERE tran_id = $1 AND action_type = 'REFUND'`, [sale.tranId]);
    const gatewayData = await openContextDataSource(app.database.url, paymentGatewayDatabase);
    const runner = gatewayData.createQueryRunner();
    try {
      const migrations = paymentGatewayDatabase.migrations as Array<new () => MigrationInterface>;
      const migration = new (migrations.find((each) => each.name === 'ActionLegacyRequestId1764800004713')!)();
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
      await gatewayData.destroy();
    }

    const retried = envelopeData(await legacyRefund(sale.tranId, 4, 'across-deploy'));

    expect(retried).toMatchObject({ actionStatus: 'SUCCESS' });
    expect(await refundsOf(sale.tranId)).toHaveLength(1);
    // The gateway's own key of that text still finds the row it found before; a key of its own is a refund of its own.
    const sameText = await acquiring.pbo.request('POST', `/${NAMESPACE.namespace}/api/v1/transaction/${sale.tranId}/refund`, { amount: '4.00', reason: 'returned' }, {
      'idempotency-key': 'refund-across-deploy',
    });
    expect(sameText.status).toBe(200);
    expect(await refundsOf(sale.tranId)).toHaveLength(1);
    expect((await gatewayRefund(acquiring.pbo, sale.tranId, '4.00', 'across-deploy')).status).toBe(200);
    expect(await refundsOf(sale.tranId)).toHaveLength(2);
  });

  it('should answer the same key with another body 422, code 10000, on /api/v2 as the gateway does', async () => {
    const sale = await tap(till, '30.00');
    await orderOf(acquiring.pbo, sale.tranId);
    envelopeData(await legacyRefund(sale.tranId, 3, 'same-key'));

    const other = await legacyRefund(sale.tranId, 4, 'same-key');

    expect(other.response.status).toBe(422);
    expect(other.error).toMatchObject({ code: 10000, msg: expect.stringMatching(/was used for another request/) as string });
    expect(await refundsOf(sale.tranId)).toHaveLength(1);
  });

  it('should answer a key reused for another kind of request 422 on /api/v2, as the gateway does: one key, one request', async () => {
    const auth = await tap(till, '20.00', 'AUTH');
    await orderOf(acquiring.pbo, auth.tranId);
    const key = `kinds-${randomUUID()}`;
    const captured = await tx().POST('/api/v2/order/capture/{transactionId}', {
      params: { path: { transactionId: auth.tranId }, header: { 'idempotency-key': key } },
      body: { amount: '10' },
    });
    expect(captured.response.status).toBe(200);

    const refund = await legacyRefund(auth.tranId, 3, key);

    expect(refund.response.status).toBe(422);
    expect(refund.error).toMatchObject({ code: 10000, msg: expect.stringMatching(new RegExp(`^Idempotency-Key ${key} was used for another request on transaction ${auth.tranId} \\(CAPTURE 10\\.00\\)`)) as string });
    expect(await refundsOf(auth.tranId)).toHaveLength(0);
  });

  it('should answer a repeat of a refund or capture whose first is still in flight 409 with Retry-After, on both APIs', async () => {
    const sale = await tap(till, '50.00');
    const auth = await tap(till, '15.00', 'AUTH');
    await orderOf(acquiring.pbo, sale.tranId);
    await orderOf(acquiring.pbo, auth.tranId);
    // The first request's time at the gateway: TRANSACTION_HOST_TIMEOUT_MS + REPLY_MARGIN_MS + REASK_WAIT_MS (1.5 + 3 + 5 s).
    const askingSeconds = 9.5;
    const key = () => randomUUID();
    const gatewayCapture = (tranId: string, amount: string, k: string) =>
      acquiring.pbo.request('POST', `/${NAMESPACE.namespace}/api/v1/transaction/${tranId}/capture`, { amount }, { 'idempotency-key': k });
    const legacyCapture = (tranId: string, amount: string, k: string) =>
      tx().POST('/api/v2/order/capture/{transactionId}', { params: { path: { transactionId: tranId }, header: { 'idempotency-key': k } }, body: { amount } });
    const pendingOf = async (tranId: string, type: string) =>
      (await gatewayTransaction(acquiring.pbo, tranId)).actions.filter((action) => action.actionType === type && action.actionStatus === 'PENDING').length;
    /** A repeat sent once the first one's action is PENDING at the gateway (the host says nothing), and the first one's answer. */
    const inFlight = async <T>(tranId: string, type: string, send: () => Promise<T>) => {
      // The first request's action is made after this instant, and the repeat answered before the next one:
      // whatever the machine's load, the Retry-After cannot be less than what is left of the asking time between them.
      const startedAt = Date.now();
      const first = send();
      await waitFor(`a PENDING ${type}`, async () => (await pendingOf(tranId, type)) === 1);
      const repeat = await send();
      return { repeat, lowest: Math.floor(askingSeconds - (Date.now() - startedAt) / 1000), first: await first };
    };
    const retryAfterOf = (headers: Headers, lowest: number) => {
      const seconds = Number(headers.get('retry-after'));
      expect(seconds).toBeGreaterThanOrEqual(Math.max(1, lowest));
      expect(seconds).toBeLessThanOrEqual(Math.ceil(askingSeconds));
    };

    const legacyKey = key();
    const legacy = await inFlight(sale.tranId, 'REFUND', () => legacyRefund(sale.tranId, 0.91, legacyKey));
    expect(legacy.repeat.response.status).toBe(409);
    expect(legacy.repeat.error).toMatchObject({ code: 10000, msg: expect.stringMatching(/^the refund act_[A-Za-z0-9_-]{22} of this request is still in flight; ask again later$/) as string });
    retryAfterOf(legacy.repeat.response.headers, legacy.lowest);

    const captureKey = key();
    const legacyCaptured = await inFlight(auth.tranId, 'CAPTURE', () => legacyCapture(auth.tranId, '1.91', captureKey));
    expect({ status: legacyCaptured.repeat.response.status, code: (legacyCaptured.repeat.error as { code: number }).code }).toEqual({ status: 409, code: 10000 });
    retryAfterOf(legacyCaptured.repeat.response.headers, legacyCaptured.lowest);

    const gatewayKey = key();
    const own = await inFlight(sale.tranId, 'REFUND', () => gatewayRefund(acquiring.pbo, sale.tranId, '0.91', gatewayKey));
    expect(own.repeat.status).toBe(409);
    expect(own.repeat.body).toMatchObject({
      type: 'urn:softpos:problem:conflict',
      status: 409,
      detail: expect.stringMatching(/^the refund act_[A-Za-z0-9_-]{22} of this request is still in flight; ask again later$/) as string,
    });
    retryAfterOf(own.repeat.headers, own.lowest);

    const ownCaptureKey = key();
    const ownCaptured = await inFlight(auth.tranId, 'CAPTURE', () => gatewayCapture(auth.tranId, '2.91', ownCaptureKey));
    expect(ownCaptured.repeat).toMatchObject({ status: 409, body: { type: 'urn:softpos:problem:conflict', status: 409 } });
    retryAfterOf(ownCaptured.repeat.headers, ownCaptured.lowest);
  }, 60_000);

  it('should answer every /api/v2 route of a terminal being settled 409 with Retry-After, code 10000, doing nothing', async () => {
    const sale = await tap(till, '20.00');
    const auth = await tap(till, '15.00', 'AUTH');
    await orderOf(acquiring.pbo, sale.tranId);
    await orderOf(acquiring.pbo, auth.tranId);
    const batch = await waitForBatch(tid);
    await queryDatabase(app.database.url, `UPDATE payment_gateway.terminal_batch SET settle_hold_id = 'hold_test', settle_hold_until = now() + interval '1 hour' WHERE tid = $1`, [tid]);
    try {
      const answers = {
        void: await tx().POST('/api/v2/order/void/{transactionId}', { ...path(sale.tranId), body: { adminPwd: ADMIN_PASSWORD } }),
        refund: await tx().POST('/api/v2/order/refund/{transactionId}', { ...path(sale.tranId), body: { refundAmount: 1, refundReason: 'r', adminPwd: ADMIN_PASSWORD } }),
        capture: await tx().POST('/api/v2/order/capture/{transactionId}', { ...path(auth.tranId), body: { amount: '5.00' } }),
        settle: await tx().POST('/api/v2/settlement/settle', { body: { batchId: batch } }),
      };
      for (const [route, answer] of Object.entries(answers)) {
        expect({ route, status: answer.response.status, code: (answer.error as { code?: number } | undefined)?.code }).toEqual({ route, status: 409, code: 10000 });
        expect({ route, retryAfter: Number(answer.response.headers.get('retry-after')) > 0 }).toEqual({ route, retryAfter: true });
        expect((answer.error as { msg: string }).msg).toMatch(/is being settled/);
      }
      expect((await gatewayTransaction(acquiring.pbo, sale.tranId)).actions.map((action) => action.actionType)).toEqual(['NEW']);
      expect((await gatewayTransaction(acquiring.pbo, auth.tranId)).actions.map((action) => action.actionType)).toEqual(['NEW']);
    } finally {
      await queryDatabase(app.database.url, `UPDATE payment_gateway.terminal_batch SET settle_hold_id = NULL, settle_hold_until = NULL WHERE tid = $1`, [tid]);
    }
  });

  /** The open settlement batch of the terminal, once the transactions context has one. */
  async function waitForBatch(terminalTid: string): Promise<string> {
    const page = envelopeData(await tx().GET('/api/v2/settlement', { params: { query: { pageSize: -1 } } }));
    const batch = page.records.find((record) => record.acquirerTid === terminalTid && record.state === 0);
    if (!batch) throw new Error(`no open batch of ${terminalTid}`);
    return batch.batchId;
  }
});
