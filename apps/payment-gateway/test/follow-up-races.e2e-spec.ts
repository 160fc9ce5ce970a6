import { bodyOf, unique } from '@app/testing';
import { current, followUp, sell, settle } from './follow-up-support';
import { SaleTestApp, startGatewayWithConnector, TransactionView } from './sale-support';

const ROUNDS = 8;

/**
 * The money rules under concurrency, on the PostgreSQL server: requests that race for the same
 * money are serialised by the terminal's batch row and the transaction's row lock, and an action
 * in flight refuses the others (409), so exactly the right ones are done and no sum is ever
 * exceeded, whatever the interleaving.
 */
describe('follow-ups racing each other and settlement', () => {
  let app: SaleTestApp;

  beforeAll(async () => {
    app = await startGatewayWithConnector({ hostTimeoutMs: 1500, replyMarginMs: 1500, reaskWaitMs: 1000 }, { simulator: false });
  });

  afterAll(() => app?.close());

  /** The sums as the database keeps them, and what the successful refund actions add up to. */
  async function sums(tranId: string): Promise<{ captured: string; refunded: string; refundActions: string; status: string }> {
    const [row] = await app.query<{ captured: string; refunded: string; refund_actions: string; status: string }>(
      `SELECT t.captured_minor AS captured, t.refunded_minor AS refunded, t.tran_status AS status,
              (SELECT COALESCE(SUM(a.amount_minor), 0)::text FROM payment_gateway.transaction_action a
                WHERE a.tran_id = t.id AND a.action_type = 'REFUND' AND a.action_status = 'SUCCESS') AS refund_actions
         FROM payment_gateway.payment_transaction t WHERE t.id = $1`,
      [tranId],
    );
    return { captured: row.captured, refunded: row.refunded, refundActions: row.refund_actions, status: row.status };
  }

  it('should let exactly one of many parallel refunds take the last amount', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const terminal = await app.newTerminal();
      const sale = await sell(terminal, { value: '10.00' });
      bodyOf(await followUp(terminal, sale.tranId, 'refund', { amount: '7.00' }));

      const answers = await Promise.all(Array.from({ length: 8 }, () => followUp(terminal, sale.tranId, 'refund', { amount: '3.00' }, unique('race-'))));

      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      expect(await sums(sale.tranId)).toEqual({ captured: '1000', refunded: '1000', refundActions: '1000', status: 'REFUNDED' });
    }
  });

  it('should never refund more than was captured when parallel refunds ask for more than there is', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const terminal = await app.newTerminal();
      const sale = await sell(terminal, { value: '3.00' });

      const answers = await Promise.all(Array.from({ length: 6 }, () => followUp(terminal, sale.tranId, 'refund', { amount: '1.00' }, unique('race-'))));

      const done = answers.filter((answer) => answer.status === 200).length;
      expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
      expect(done).toBeGreaterThanOrEqual(1);
      expect(done).toBeLessThanOrEqual(3);
      const after = await sums(sale.tranId);
      expect(after).toEqual({ captured: '300', refunded: String(done * 100), refundActions: String(done * 100), status: done === 3 ? 'REFUNDED' : 'APPROVED' });
    }
  });

  it('should let either the void or the refund racing it be done, never both', async () => {
    const winners = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const terminal = await app.newTerminal();
      const sale = await sell(terminal, { value: '10.00' });

      const [voided, refunded] = await Promise.all([
        followUp(terminal, sale.tranId, 'void', undefined, unique('void-')),
        followUp(terminal, sale.tranId, 'refund', { amount: '1.00' }, unique('refund-')),
      ]);

      expect([voided.status, refunded.status].sort()).toEqual([200, 409]);
      const after = await current(terminal, sale.tranId);
      if (voided.status === 200) {
        winners.add('void');
        expect(after).toMatchObject({ tranStatus: 'VOIDED', refundedAmount: '0.00' });
      } else {
        winners.add('refund');
        expect(after).toMatchObject({ tranStatus: 'APPROVED', refundedAmount: '1.00' });
      }
      expect(after.actions.filter((action) => action.actionStatus === 'SUCCESS').map((action) => action.actionType)).toEqual([
        'NEW',
        voided.status === 200 ? 'VOID' : 'REFUND',
      ]);
    }
    expect(winners.size).toBeGreaterThanOrEqual(1);
  });

  it('should never settle a batch that counts a sale voided after it closed', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const terminal = await app.newTerminal();
      const target = await sell(terminal, { value: '4.00' });
      const other = await sell(terminal, { value: '6.00' });

      const [voided, settled] = await Promise.all([
        followUp(terminal, target.tranId, 'void', undefined, unique('void-')),
        settle(app, terminal, target.acceptanceId, '000001'),
      ]);
      // A settlement refused because the void was in flight is asked again once it is done.
      const final = settled.refusal?.status === 409 ? await settle(app, terminal, target.acceptanceId, '000001') : settled;

      expect(final.outcome).toBe('SETTLED');
      const after = await current(terminal, target.tranId);
      if (voided.status === 200) {
        expect(after).toMatchObject({ tranStatus: 'VOIDED', settleState: 'SETTLED' });
        expect(final.totals).toMatchObject({ paymentCount: 1, paymentAmount: '6.00', voidCount: 1, voidAmount: '4.00' });
      } else {
        expect(voided.status).toBe(409);
        expect(after).toMatchObject({ tranStatus: 'APPROVED', settleState: 'SETTLED' });
        expect(final.totals).toMatchObject({ paymentCount: 2, paymentAmount: '10.00', voidCount: 0 });
      }
      expect(final.tranIds.sort()).toEqual([target.tranId, other.tranId].sort());
    }
  });

  it('should let only one of two settlements racing for a batch close it, and answer the other from it or refuse it while it runs', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const terminal = await app.newTerminal();
      const sale = await sell(terminal, { value: '5.00' });

      const replies = await Promise.all([settle(app, terminal, sale.acceptanceId, '000001'), settle(app, terminal, sale.acceptanceId, '000001')]);

      const settledReplies = replies.filter((reply) => reply.outcome === 'SETTLED');
      expect(settledReplies.length).toBeGreaterThanOrEqual(1);
      for (const reply of replies) {
        if (reply.outcome === null) expect(reply.refusal).toMatchObject({ status: 409, detail: expect.stringMatching(/is being settled/) as string });
        else expect(reply).toEqual(settledReplies[0]);
      }
      expect(await app.query(`SELECT batch_no, state FROM payment_gateway.batch_settlement WHERE tid = $1`, [terminal.tid])).toEqual([
        { batch_no: '000001', state: 'SETTLED' },
      ]);
      expect(bodyOf<TransactionView>(await terminal.pbo.get(`/transaction/${sale.tranId}`)).settleState).toBe('SETTLED');
    }
  });
});
