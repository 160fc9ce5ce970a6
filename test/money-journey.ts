import { TEST_CARDS, testCardEmv } from '@app/host-protocol';
import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { ApiClient, createAcquirer, createEmv, createMerchant, dataOf, gatewayBase, TestApp, unique, waitFor } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { PboService } from '../apps/merchant-management/src';

/**
 * Money moves, the whole journey over HTTP as a PBO and a phone would take it: onboarding,
 * activation, sales, refunds, a void, a decline, a timeout that is reversed, an authorisation
 * captured in part, and the settlement of the batch, for a MOCK and an ISO 8583 acquirer at the
 * simulator. Shared by the standalone run (in-process messaging) and the run over NATS JetStream,
 * each of which then sweeps what the journeys left for card data.
 */

const GATEWAY_BASE = gatewayBase(DEFAULT_GATEWAY_NAMESPACE);
const ADMIN_PASSWORD = 'Till-Admin-2468';

/** The card the journeys tap. */
export const JOURNEY_CARD = 'visa';
/** Its full number, which must be nowhere after the journeys. */
export const JOURNEY_PAN = TEST_CARDS[JOURNEY_CARD].pan;
/** Transactions one journey makes: two sales, a decline, a timeout, an authorisation. */
export const TRANSACTIONS_PER_JOURNEY = 5;
export const JOURNEY_FORMATS = ['MOCK', 'ISO8583'] as const;

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

/** Declares the journeys' tests (one per acquirer format) against the app `app()` gives once its `beforeAll` ran. */
export function describeMoneyJourneys(app: () => TestApp): void {
  describe.each(JOURNEY_FORMATS)('with a %s acquirer', (format) => {
    let pbo: ApiClient;
    let phone: ApiClient;
    let profileId: string;

    beforeAll(async () => {
      const created = await app().app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur' });
      pbo = await app().clientFor(created.groupId);
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
      const activation = dataOf<{ deviceToken: string; profileId: string }>(await app().anonymous.post('/api/sdk/v1/activate', { activationCode: code.activationCode }));
      profileId = activation.profileId;
      phone = new ApiClient(app().baseUrl, activation.deviceToken);
      await waitFor('the device profile at the gateway', async () => (await pbo.get(`${GATEWAY_BASE}/profiles/${profileId}`)).status === 200);
    });

    async function tap(value: string, tranType: 'SALE' | 'AUTH' = 'SALE'): Promise<Transaction> {
      const minor = Math.round(Number(value) * 100);
      const emvData = testCardEmv({ card: JOURNEY_CARD, amountMinor: String(minor), currencyNumeric: '458', countryNumeric: '458', date: new Date() });
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
}
