import { TEST_CARDS } from '@app/host-protocol';
import { developmentFieldCipher } from '@app/common';
import {
  ApiClient,
  bodyFrom,
  dumpSchemas,
  envelopeData,
  openedSealedTexts,
  paymentGatewayClient,
  TestApp,
  textsOf,
  trackDataIn,
  transactionsClient,
  waitFor,
} from '@app/testing';
import { activateTill, ADMIN_PASSWORD, GatewayTransaction, NAMESPACE, onboardMerchant, OrderDetail, orderOf as orderWhen, tap as tapWith, Till } from './money-support';

/**
 * Money moves, the whole journey over HTTP as a PBO and a phone would take it: onboarding,
 * activation, sales, refunds, a void, a decline, a timeout that is reversed, an authorisation
 * captured in part, and the settlement of the batch, for a MOCK and an ISO 8583 acquirer at the
 * simulator. Shared by the standalone run (in-process messaging) and the run over NATS JetStream,
 * each of which then sweeps what the journeys left for card data.
 *
 * Every call goes through clients generated from the committed OpenAPI documents (openapi-fetch
 * over libs/testing/src/openapi): a request or a response the documents describe otherwise fails
 * the type check, and every answer is validated against its documented schema.
 */

/** The card the journeys tap. */
export const JOURNEY_CARD = 'visa';
/** Its full number, which must be nowhere after the journeys. */
export const JOURNEY_PAN = TEST_CARDS[JOURNEY_CARD].pan;
/** Transactions one journey makes: two sales, a decline, a timeout, an authorisation. */
export const TRANSACTIONS_PER_JOURNEY = 5;
export const JOURNEY_FORMATS = ['MOCK', 'ISO8583'] as const;

/** Declares the journeys' tests (one per acquirer format) against the app `app()` gives once its `beforeAll` ran. */
export function describeMoneyJourneys(app: () => TestApp): void {
  describe.each(JOURNEY_FORMATS)('with a %s acquirer', (format) => {
    let pbo: ApiClient;
    let till: Till;

    beforeAll(async () => {
      const acquiring = await onboardMerchant(app(), format);
      pbo = acquiring.pbo;
      till = await activateTill(app(), acquiring, { mid: 'MID000000000042', tid: `T${String(Date.now()).slice(-7)}` });
    });

    const tap = (value: string, tranType: 'SALE' | 'AUTH' = 'SALE'): Promise<GatewayTransaction> => tapWith(till, value, tranType, JOURNEY_CARD);
    const orderOf = (tranId: string, until?: (order: OrderDetail) => boolean): Promise<OrderDetail> => orderWhen(pbo, tranId, until);

    it('should take a sale, refund it in two parts, void another, decline one, reverse a timeout, capture part of an authorisation, and settle the batch', async () => {
      // A sale, listed as an order.
      const sale = await tap('20.00');
      expect(sale).toMatchObject({ tranType: 'SALE', tranStatus: 'APPROVED', amount: { value: '20.00', currency: 'MYR' }, accountMasked: '476173******0119' });
      await orderOf(sale.tranId);
      const tx = transactionsClient(pbo);
      const order = (transactionId: string) => ({ params: { path: { transactionId } } });
      const listed = envelopeData(await tx.GET('/api/v2/order', { params: { query: { transactionId: sale.tranId } } }));
      expect(listed.records.map((record) => [record.tranId, record.state, record.settleState])).toEqual([[sale.tranId, 2, 0]]);

      // A wrong admin password reaches nothing; a partial refund, then the rest.
      const wrong = await tx.POST('/api/v2/order/refund/{transactionId}', {
        ...order(sale.tranId),
        body: { refundAmount: 5, refundReason: 'wrong till', adminPwd: 'not-it' },
      });
      expect({ status: wrong.response.status, code: wrong.error?.code }).toEqual({ status: 400, code: 10000 });
      envelopeData(
        await tx.POST('/api/v2/order/refund/{transactionId}', {
          ...order(sale.tranId),
          body: { refundAmount: 5, refundReason: 'one cup returned', adminPwd: ADMIN_PASSWORD },
        }),
      );
      expect((await orderOf(sale.tranId, (found) => (found.actions ?? []).some((action) => action.actionType === 'REFUND'))).state).toBe(2);
      envelopeData(
        await tx.POST('/api/v2/order/refund/{transactionId}', {
          ...order(sale.tranId),
          body: { refundAmount: 15, refundReason: 'the rest', adminPwd: ADMIN_PASSWORD },
        }),
      );
      expect((await orderOf(sale.tranId, (found) => found.state === 5)).tranStatus).toBe('REFUNDED');
      const beyond = await tx.POST('/api/v2/order/refund/{transactionId}', {
        ...order(sale.tranId),
        body: { refundAmount: 0.01, refundReason: 'too much', adminPwd: ADMIN_PASSWORD },
      });
      expect(beyond.response.status).toBe(409);

      // A second sale, voided.
      const voided = await tap('7.00');
      await orderOf(voided.tranId);
      expect(envelopeData(await tx.POST('/api/v2/order/void/{transactionId}', { ...order(voided.tranId), body: { adminPwd: ADMIN_PASSWORD } }))).toMatchObject({
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
      envelopeData(await tx.POST('/api/v2/order/capture/{transactionId}', { ...order(auth.tranId), body: { amount: '20.00' } }));
      const captured = bodyFrom(
        await paymentGatewayClient(pbo).GET('/{namespace}/api/v1/transaction/{tranId}', { params: { path: { ...NAMESPACE, tranId: auth.tranId } } }),
      );
      expect(captured).toMatchObject({ tranStatus: 'APPROVED', capturedAmount: '20.00' });

      // The batch: the approved sale (refunded), the voided one and the capture.
      const batchNo = sale.batchNo!;
      let batchId: string | undefined;
      await waitFor('the batch of the sales', async () => {
        const page = envelopeData(await tx.GET('/api/v2/settlement', { params: { query: { pageSize: -1 } } }));
        batchId = page.records.find((candidate) => candidate.state === 0)?.batchId;
        return batchId !== undefined;
      });
      envelopeData(await tx.POST('/api/v2/settlement/settle', { body: { batchId: batchId! } }));
      const settled = envelopeData(await tx.GET('/api/v2/settlement/{batchId}', { params: { path: { batchId: batchId! } } }));
      expect(settled).toMatchObject({ state: 1, paymentCount: 2, paymentAmt: 40, refundCount: 2, refundAmt: 20 });
      expect(batchNo).toMatch(/^\d{6}$/);
      for (const tranId of [sale.tranId, auth.tranId]) expect((await orderOf(tranId, (order) => order.settleState === 1)).settleState).toBe(1);
    });
  });
}

/**
 * Every table of every schema with every sealed value in it opened with the data key (the
 * development key the test app runs with): where track 2 of the journeys' card (tag 57) shows up,
 * and whether the connector's kept card, opened, was read at all (PCI DSS 3.3.1: the PAN may be
 * kept sealed for follow-ups, the track never, not even sealed).
 */
export async function trackDataInTablesOpened(app: TestApp): Promise<{ findings: string[]; keptCardOpened: boolean }> {
  const tables = textsOf(await dumpSchemas(app.database.url));
  const cipher = developmentFieldCipher();
  const opened = openedSealedTexts(tables, (sealed) => cipher.open(sealed));
  return {
    findings: trackDataIn([...tables, ...opened], [JOURNEY_PAN]),
    keptCardOpened: opened.some(({ label, text }) => label.startsWith('host_connector.kept_card') && text.includes(JOURNEY_PAN)),
  };
}
