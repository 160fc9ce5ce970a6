import { testCardEmv } from '@app/host-protocol';
import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import {
  ApiClient,
  cardDataIn,
  createAcquirer,
  createEmv,
  createMerchant,
  dataOf,
  dumpSchemas,
  gatewayBase,
  startTestApp,
  TestApp,
  textsOf,
  unique,
  waitFor,
} from '@app/testing';
import { randomUUID } from 'node:crypto';
import { PboService } from '../apps/merchant-management/src';
import { HostSandbox, hostSandboxSettingsFrom, StandaloneModule, startHostSandbox } from '../apps/standalone/src';

const GATEWAY_BASE = gatewayBase(DEFAULT_GATEWAY_NAMESPACE);
const ADMIN_PASSWORD = 'Till-Admin-2468';
const VISA_PAN = '4761739001010119';

interface Transaction {
  tranId: string;
  tranType: string;
  tranStatus: string;
  amount: { value: string; currency: string };
  capturedAmount: string;
  refundedAmount: string;
  accountMasked: string;
  batchNo: string | null;
}

interface Order {
  tranId: string;
  tranStatus: string;
  tranType: string;
  state: number;
  settleState: number;
  amount: { value: number; currency: string };
  batchNo: string | null;
  actions?: { actionType: string; actionStatus: string; amount: number }[];
}

interface Batch {
  batchId: string;
  state: number;
  paymentCount: number;
  paymentAmt: number;
  refundCount: number;
  refundAmt: number;
  voidCount: number;
  voidAmt: number;
}

/**
 * Money moves, the whole journey over HTTP as a PBO and a phone would take it, in standalone
 * (every context in one process, the host connector speaking to the host simulator over TCP):
 * onboarding, activation, sales, refunds, a void, a decline, a timeout that is reversed, an
 * authorisation captured in part, and the settlement of the batch. Then no full card number in
 * any table of any schema.
 */
describe('money moves: from onboarding to a settled batch, over HTTP', () => {
  let hosts: HostSandbox;
  let app: TestApp;

  beforeAll(async () => {
    hosts = await startHostSandbox(hostSandboxSettingsFrom({ HOST_ECHO_INTERVAL_MS: '0', HOST_TIMEOUT_MS: '2000' }));
    app = await startTestApp((options) => StandaloneModule.register(options, hosts.config));
  });

  afterAll(async () => {
    await app?.close();
    await hosts?.close();
  });

  describe.each(['MOCK', 'ISO8583'])('with a %s acquirer', (format) => {
    let pbo: ApiClient;
    let phone: ApiClient;
    let profileId: string;

    beforeAll(async () => {
      const created = await app.app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur' });
      pbo = await app.clientFor(created.groupId);
      const emvId = await createEmv(pbo, { paymentMethod: '01' });
      const acquirer = await createAcquirer(pbo, { '01': [emvId] }, { profileName: unique('Acquirer '), connMessageFormat: format, enablerMsgFormat: null, connUrl: null });
      const merchant = await createMerchant(pbo, { country: 'MY', timeZone: 'Asia/Kuala_Lumpur', mcc: '5814' });
      dataOf(await pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirer), currency: 'MYR' }));
      const code = dataOf<{ activationCode: string; profileId: string }>(
        await pbo.post('/api/openapi/v1/device', {
          mchId: merchant.mchId,
          deviceAlias: 'Till 1',
          deviceAdmin: ADMIN_PASSWORD,
          extParams: { acquirers: { [acquirer]: { acqMid: 'MID000000000042', acqTid: `T${String(Date.now()).slice(-7)}` } } },
        }),
      );
      const activation = dataOf<{ deviceToken: string; profileId: string }>(await app.anonymous.post('/api/sdk/v1/activate', { activationCode: code.activationCode }));
      profileId = activation.profileId;
      phone = new ApiClient(app.baseUrl, activation.deviceToken);
      await waitFor('the device profile at the gateway', async () => (await pbo.get(`${GATEWAY_BASE}/profiles/${profileId}`)).status === 200);
    });

    async function tap(value: string, tranType: 'SALE' | 'AUTH' = 'SALE'): Promise<Transaction> {
      const minor = Math.round(Number(value) * 100);
      const emvData = testCardEmv({ card: 'visa', amountMinor: String(minor), currencyNumeric: '458', countryNumeric: '458', date: new Date() });
      const response = await phone.request('POST', `${GATEWAY_BASE}/transaction`, { profileId, tranType, amount: { value, currency: 'MYR' }, emvData }, { 'idempotency-key': randomUUID() });
      expect(response.status).toBe(201);
      return response.body as unknown as Transaction;
    }

    async function orderOf(tranId: string, until: (order: Order) => boolean = () => true): Promise<Order> {
      let order: Order | undefined;
      await waitFor(`order ${tranId}`, async () => {
        const response = await pbo.get(`/api/v2/order/${tranId}`);
        order = response.status === 200 ? (response.body as { data: Order }).data : undefined;
        return order !== undefined && until(order);
      });
      return order!;
    }

    it('should take a sale, refund it in two parts, void another, decline one, reverse a timeout, capture part of an authorisation, and settle the batch', async () => {
      // A sale, listed as an order.
      const sale = await tap('20.00');
      expect(sale).toMatchObject({ tranType: 'SALE', tranStatus: 'APPROVED', amount: { value: '20.00', currency: 'MYR' }, accountMasked: '476173******0119' });
      await orderOf(sale.tranId);
      const listed = dataOf<{ records: Order[] }>(await pbo.get(`/api/v2/order?transactionId=${sale.tranId}`));
      expect(listed.records.map((order) => [order.tranId, order.state, order.settleState])).toEqual([[sale.tranId, 2, 0]]);

      // A wrong admin password reaches nothing; a partial refund, then the rest.
      const wrong = await pbo.post(`/api/v2/order/refund/${sale.tranId}`, { refundAmount: 5, refundReason: 'wrong till', adminPwd: 'not-it' });
      expect({ status: wrong.status, code: wrong.body.code }).toEqual({ status: 400, code: 10000 });
      dataOf(await pbo.post(`/api/v2/order/refund/${sale.tranId}`, { refundAmount: 5, refundReason: 'one cup returned', adminPwd: ADMIN_PASSWORD }));
      expect((await orderOf(sale.tranId, (order) => (order.actions ?? []).some((action) => action.actionType === 'REFUND'))).state).toBe(2);
      dataOf(await pbo.post(`/api/v2/order/refund/${sale.tranId}`, { refundAmount: 15, refundReason: 'the rest', adminPwd: ADMIN_PASSWORD }));
      expect((await orderOf(sale.tranId, (order) => order.state === 5)).tranStatus).toBe('REFUNDED');
      const beyond = await pbo.post(`/api/v2/order/refund/${sale.tranId}`, { refundAmount: 0.01, refundReason: 'too much', adminPwd: ADMIN_PASSWORD });
      expect(beyond.status).toBe(409);

      // A second sale, voided.
      const voided = await tap('7.00');
      await orderOf(voided.tranId);
      expect(dataOf<{ state: number; refundAmount: number }>(await pbo.post(`/api/v2/order/void/${voided.tranId}`, { adminPwd: ADMIN_PASSWORD }))).toMatchObject({
        state: 4,
        refundAmount: 7,
      });

      // The simulator's test amounts: 51 is declined, 91 never answered (reversed by the connector).
      expect((await tap('10.51')).tranStatus).toBe('DECLINED');
      expect((await tap('10.91')).tranStatus).toBe('REVERSED');

      // An authorisation, captured in part.
      const auth = await tap('30.00', 'AUTH');
      expect(auth).toMatchObject({ tranType: 'AUTH', tranStatus: 'APPROVED', capturedAmount: '0.00' });
      await orderOf(auth.tranId);
      dataOf(await pbo.post(`/api/v2/order/capture/${auth.tranId}`, { amount: '20.00' }));
      const captured = await pbo.get(`${GATEWAY_BASE}/transaction/${auth.tranId}`);
      expect(captured.body).toMatchObject({ tranStatus: 'APPROVED', capturedAmount: '20.00' });

      // The batch: the approved sale (refunded), the voided one and the capture.
      const batchNo = sale.batchNo!;
      let batch: Batch | undefined;
      await waitFor('the batch of the sales', async () => {
        const page = dataOf<{ records: Batch[] }>(await pbo.get('/api/v2/settlement?pageSize=-1'));
        batch = page.records.find((candidate) => candidate.state === 0);
        return batch !== undefined;
      });
      dataOf(await pbo.post('/api/v2/settlement/settle', { batchId: batch!.batchId }));
      const settled = dataOf<Batch>(await pbo.get(`/api/v2/settlement/${batch!.batchId}`));
      expect(settled).toMatchObject({ state: 1, paymentCount: 2, paymentAmt: 40, refundCount: 2, refundAmt: 20 });
      expect(batchNo).toMatch(/^\d{6}$/);
      for (const tranId of [sale.tranId, auth.tranId]) expect((await orderOf(tranId, (order) => order.settleState === 1)).settleState).toBe(1);
    });
  });

  it('should keep no full card number in any table of any schema after the journeys', async () => {
    const dumps = await dumpSchemas(app.database.url);
    // The sweep reads the journeys' rows (it cannot pass on empty tables).
    const rowsOf = (table: string) => dumps.find((dump) => `${dump.schema}.${dump.table}` === table)?.rows.length ?? 0;
    // Five transactions a journey (two sales, a decline, a timeout, an authorisation), two journeys.
    expect([rowsOf('payment_gateway.payment_transaction'), rowsOf('transactions.orders')]).toEqual([10, 10]);
    expect(cardDataIn(textsOf(dumps), [VISA_PAN])).toEqual([]);
  });
});
