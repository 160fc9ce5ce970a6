import { GatewayBatchSettleReplyV1, GatewayBatchTotalsV1 } from '@app/contracts';
import { bodyOf, unique } from '@app/testing';
import fc from 'fast-check';
import { followUp, sell, settle } from './follow-up-support';
import { SaleTestApp, saleBody, startGatewayWithConnector, Terminal, TransactionView } from './sale-support';

/**
 * A settlement while sales and refunds of its terminal flow (outside review of issue 13): the
 * gateway holds the terminal from before it takes the batch's totals until the host's answer to
 * the reconciliation (0500/0510), so no sale or refund reaches the host's closing batch while the
 * gateway books it in the next. Against the host simulator's ISO 8583 acquirer, which keeps its own
 * totals per terminal and answers BALANCED only when the gateway's are its own (a sale that
 * crossed the 0500 would make it BALANCED_AFTER_UPLOAD at best).
 */
describe('settling a terminal while its sales and refunds flow', () => {
  let app: SaleTestApp;

  beforeAll(async () => {
    app = await startGatewayWithConnector({ settleWaitMs: 3000 });
  });

  afterAll(() => app?.close());

  const payments = (totals: GatewayBatchTotalsV1 | null) =>
    totals && { paymentCount: totals.paymentCount, paymentAmount: totals.paymentAmount, refundCount: totals.refundCount, refundAmount: totals.refundAmount };

  /** Money actions the host approved on the terminal: each with the batch it was booked in. */
  async function bookedActions(terminal: Terminal): Promise<Array<{ id: string; kind: string; minor: string; batch: string | null }>> {
    return app.query(
      `SELECT a.id, a.action_type AS kind, a.amount_minor AS minor, a.batch_no AS batch FROM payment_gateway.transaction_action a
         JOIN payment_gateway.payment_transaction t ON t.id = a.tran_id
        WHERE t.primary_tid = $1 AND a.action_status = 'SUCCESS' AND a.action_type IN ('NEW', 'REFUND') ORDER BY a.id`,
      [terminal.tid],
    );
  }

  /** The minor-unit sums of booked actions of one batch, as the reply's decimal totals. */
  function totalsOf(actions: Array<{ kind: string; minor: string; batch: string | null }>, batch: string) {
    const of = (kind: string) => actions.filter((action) => action.batch === batch && action.kind === kind);
    const decimal = (list: Array<{ minor: string }>) => {
      const minor = list.reduce((sum, action) => sum + BigInt(action.minor), 0n);
      return `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;
    };
    return { paymentCount: of('NEW').length, paymentAmount: decimal(of('NEW')), refundCount: of('REFUND').length, refundAmount: decimal(of('REFUND')) };
  }

  const isHeldRefusal = (status: number, body: unknown) => status === 409 && /is being settled/.test(JSON.stringify(body));

  it('should settle BALANCED with the host while sales and refunds of the terminal race it, each approved one in exactly one batch', async () => {
    // Amounts in quarters (never the simulator's test amounts: …51 declined, …91 unanswered, …95 out of balance).
    const amount = fc.integer({ min: 1, max: 200 }).map((quarters) => (quarters * 0.25 + 1).toFixed(2));
    const traffic = fc.record({
      sales: fc.array(amount, { minLength: 1, maxLength: 6 }),
      refunds: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
      settleAfter: fc.nat({ max: 8 }),
    });
    await fc.assert(
      fc.asyncProperty(traffic, async ({ sales, refunds, settleAfter }) => {
        const terminal = await app.newTerminal({ hostMessageFormat: 'ISO8583' });
        // One sale per refund to come (refunds of one sale would refuse each other while one is in flight).
        const refunded: TransactionView[] = [];
        for (let i = 0; i < refunds.length; i++) refunded.push(await sell(terminal, { value: '20.00' }));
        const acceptanceId = refunded[0].acceptanceId;

        const requests: Array<() => Promise<{ status: number; body: unknown } | GatewayBatchSettleReplyV1>> = [
          ...sales.map((value) => () => terminal.sale(saleBody(terminal, { value }))),
          ...refunds.map((whole, i) => () => followUp(terminal, refunded[i].tranId, 'refund', { amount: `${whole}.00` }, unique('refund-'))),
        ];
        const settleAt = Math.min(settleAfter, requests.length);
        requests.splice(settleAt, 0, () => settle(app, terminal, acceptanceId, '000001'));
        const answers = await Promise.all(requests.map((request) => request()));
        const first = answers.splice(settleAt, 1)[0] as GatewayBatchSettleReplyV1;

        // Traffic is done (201 / 200) or, having waited for the settlement longer than it may, refused 409 as retryable.
        for (const answer of answers as Array<{ status: number; body: unknown }>)
          if (answer.status !== 201 && answer.status !== 200) expect(isHeldRefusal(answer.status, answer.body)).toBe(true);

        expect(first).toMatchObject({ outcome: 'SETTLED', reconciliation: 'BALANCED', refusal: null });
        expect(payments(first.hostTotals)).toEqual(payments(first.totals));
        // What crossed the settlement is in the next batch, at the host as here.
        const second = await settle(app, terminal, acceptanceId, '000002');
        expect(second).toMatchObject({ outcome: 'SETTLED', reconciliation: 'BALANCED', refusal: null });
        expect(payments(second.hostTotals)).toEqual(payments(second.totals));

        const booked = await bookedActions(terminal);
        expect(booked.every((action) => action.batch === '000001' || action.batch === '000002')).toBe(true);
        expect(payments(first.totals)).toEqual(totalsOf(booked, '000001'));
        expect(payments(second.totals)).toEqual(totalsOf(booked, '000002'));
        expect(first.tranIds.filter((tranId) => second.tranIds.includes(tranId))).toEqual([]);
        const approvedSales = (answers as Array<{ status: number; body: { tranStatus?: string } }>).filter(
          (answer) => answer.status === 201 && answer.body.tranStatus === 'APPROVED',
        );
        expect(booked.filter((action) => action.kind === 'NEW')).toHaveLength(refunds.length + approvedSales.length);
      }),
      { numRuns: 4 },
    );
  });

  describe('a terminal held by a settlement', () => {
    const hold = (terminal: Terminal, until: string | null) =>
      app.query(`UPDATE payment_gateway.terminal_batch SET settle_hold_id = $2, settle_hold_until = ${until} WHERE tid = $1`, [
        terminal.tid,
        until === null ? null : 'hold_test',
      ]);

    it('should refuse its sales and follow-ups 409 with Retry-After after waiting, sending and writing nothing, while another terminal pays', async () => {
      const held = await app.newTerminal({ hostMessageFormat: 'ISO8583' });
      const other = await app.newTerminal({ hostMessageFormat: 'ISO8583', mid: held.mid });
      const sale = await sell(held, { value: '10.00' });
      const auth = await sell(held, { value: '20.00', tranType: 'AUTH' });
      await sell(other, { value: '10.00' });
      await hold(held, "now() + interval '1 hour'");

      const refused = await held.sale(saleBody(held, { value: '5.00' }), { 'idempotency-key': unique('k') });
      expect(refused.status).toBe(409);
      expect(refused.headers.get('retry-after')).toMatch(/^[0-9]+$/);
      expect(bodyOf(refused, 409)).toMatchObject({ detail: expect.stringMatching(new RegExp(`terminal ${held.mid}/${held.tid} \\(MYR\\) is being settled`)) as string });
      // Every follow-up route answers the held terminal as the sale does: 409 with Retry-After, nothing sent.
      for (const [tranId, kind, body] of [
        [sale.tranId, 'refund', { amount: '1.00' }],
        [sale.tranId, 'void', undefined],
        [auth.tranId, 'capture', { amount: '5.00' }],
      ] as const) {
        const answer = await followUp(held, tranId, kind, body, unique(`${kind}-`));
        expect({ kind, status: answer.status }).toEqual({ kind, status: 409 });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(bodyOf(answer, 409)).toMatchObject({ detail: expect.stringMatching(/is being settled/) as string });
      }

      expect(await sell(other, { value: '7.00' })).toMatchObject({ tranStatus: 'APPROVED' });
      expect(await app.query(`SELECT count(*)::int AS n FROM payment_gateway.payment_transaction WHERE primary_tid = $1`, [held.tid])).toEqual([{ n: 2 }]);
      expect(await app.query(`SELECT action_type FROM payment_gateway.transaction_action WHERE tran_id = ANY($1) ORDER BY 1`, [[sale.tranId, auth.tranId]])).toEqual([
        { action_type: 'NEW' },
        { action_type: 'NEW' },
      ]);

      // Another settlement of the held terminal is refused while the hold lasts.
      const settling = await settle(app, held, sale.acceptanceId, '000001');
      expect(settling.refusal).toMatchObject({ status: 409, detail: expect.stringMatching(/is being settled by another request/) as string });
      // Over NATS the refusal carries the hold's remaining seconds, which /api/v2 relays as Retry-After (an hour's hold: about 3600).
      expect(settling.refusal?.retryAfterSeconds).toBeGreaterThan(3000);

      // A hold that lapsed (its settlement died) holds nothing.
      await hold(held, "now() - interval '1 second'");
      expect(await sell(held, { value: '5.00' })).toMatchObject({ tranStatus: 'APPROVED' });
      expect(bodyOf(await followUp(held, sale.tranId, 'refund', { amount: '1.00' }))).toMatchObject({ refundedAmount: '1.00' });
      expect(await settle(app, held, sale.acceptanceId, '000001')).toMatchObject({ outcome: 'SETTLED', reconciliation: 'BALANCED' });
      expect(await app.query(`SELECT settle_hold_id FROM payment_gateway.terminal_batch WHERE tid = $1`, [held.tid])).toEqual([{ settle_hold_id: null }]);
    });
  });
});
