import { bodyOf } from '@app/testing';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { saleBody, SaleTestApp, startGatewayWithConnector, TransactionView } from './sale-support';

/**
 * A sale's outcome is written by one statement when the sale is as its request wrote it
 * (docs/decisions.md, "bench:sale: a cheaper sale"): the answer, the answer kept for a repeat of
 * its Idempotency-Key, the transaction as GET shows it and the event the outbox publishes must
 * all be the same transaction, batch number included, whichever way it was written (the
 * terminal's first approval takes the other way, as it makes the terminal's batch row).
 */
describe('POST /transaction: the outcome written in one statement', () => {
  let app: SaleTestApp;

  beforeAll(async () => {
    app = await startGatewayWithConnector({}, { simulator: false });
  });

  afterAll(() => app?.close());

  /** The payloads of the transaction's events in the outbox, by version. */
  const eventsOf = async (tranId: string) =>
    (
      await app.query<{ payload: { version: number; transaction: TransactionView } }>(
        "SELECT payload FROM payment_gateway.outbox WHERE payload->'transaction'->>'tranId' = $1 ORDER BY (payload->>'version')::int",
        [tranId],
      )
    ).map((row) => row.payload);

  it('should answer, keep, show and announce the same transaction, for any run of approvals and declines on a terminal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), async (approvals) => {
        const terminal = await app.newTerminal();
        for (const approve of approvals) {
          // The MOCK host declines amounts ending in 51 (minor units).
          const body = saleBody(terminal, { value: approve ? '12.00' : '12.51' });
          const key = randomUUID();
          const answer = bodyOf<TransactionView>(await terminal.sale(body, { 'idempotency-key': key }), 201);

          expect({ tranStatus: answer.tranStatus, batchNo: answer.batchNo }).toEqual(approve ? { tranStatus: 'APPROVED', batchNo: '000001' } : { tranStatus: 'DECLINED', batchNo: null });
          expect(bodyOf<TransactionView>(await terminal.sale(body, { 'idempotency-key': key }), 201)).toEqual(answer);
          expect(bodyOf<TransactionView>(await terminal.pbo.get(`/transaction/${answer.tranId}`))).toEqual(answer);
          expect(await eventsOf(answer.tranId)).toEqual([{ version: 2, groupId: terminal.groupId, merchantId: expect.any(String), transaction: answer, acquirerKey: `name:${answer.acceptanceName}` }]);
        }
        const [{ count }] = await app.query<{ count: number }>(
          "SELECT count(*)::int AS count FROM payment_gateway.transaction_action a JOIN payment_gateway.payment_transaction t ON t.id = a.tran_id WHERE t.group_id = $1 AND a.batch_no = '000001' AND t.batch_no = '000001'",
          [terminal.groupId],
        );
        expect(count).toBe(approvals.filter(Boolean).length);
      }),
      { numRuns: 8 },
    );
  });
});
