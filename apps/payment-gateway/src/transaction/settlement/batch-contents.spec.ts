import fc from 'fast-check';
import { testAction, testTransaction } from '../testing/test-transactions';
import type { TransactionAction } from '../transaction';
import { batchContents, BatchTransaction, nextBatchNo } from './batch-contents';

let sequence = 0;
const id = (prefix: string) => `${prefix}${String((sequence += 1)).padStart(22, '0')}`;

function booking(tranId: string, actionType: TransactionAction['actionType'], amountMinor: string): TransactionAction {
  const stan = String(sequence % 1_000_000).padStart(6, '0');
  return testAction({ id: id('act_'), tranId, actionType, amountMinor, trace: stan, hostStan: stan, hostMti: actionType === 'CAPTURE' ? '0220' : '0200' });
}

/** A transaction of a batch as the gateway can hold it: a sale, captured or uncaptured authorisation, voided or not. */
const batchTransaction = fc
  .record({
    kind: fc.constantFrom('SALE', 'AUTH_CAPTURED', 'AUTH_OPEN') as fc.Arbitrary<'SALE' | 'AUTH_CAPTURED' | 'AUTH_OPEN'>,
    approved: fc.integer({ min: 1, max: 1_000_000 }),
    share: fc.integer({ min: 1, max: 100 }),
    voided: fc.boolean(),
    refundedAll: fc.boolean(),
  })
  .map(({ kind, approved, share, voided, refundedAll }): BatchTransaction => {
    const tranId = id('tran_');
    const captured = kind === 'SALE' ? approved : kind === 'AUTH_CAPTURED' ? Math.max(1, Math.floor((approved * share) / 100)) : 0;
    const actions = [booking(tranId, 'NEW', String(approved))];
    if (kind === 'AUTH_CAPTURED') actions.push(booking(tranId, 'CAPTURE', String(captured)));
    if (voided) actions.push(booking(tranId, 'VOID', String(captured || approved)));
    const status = voided ? 'VOIDED' : refundedAll && captured > 0 ? 'REFUNDED' : 'APPROVED';
    const transaction = testTransaction({
      id: tranId,
      tranType: kind === 'SALE' ? 'SALE' : 'AUTH',
      tranStatus: status,
      approvedMinor: String(approved),
      capturedMinor: String(captured),
      refundedMinor: status === 'REFUNDED' ? String(captured) : '0',
    });
    return { transaction, actions };
  });

describe('batchContents', () => {
  it('should count payments, refunds and voids of booked money as the host books them, and roll uncaptured authorisations over', () => {
    fc.assert(
      fc.property(
        fc.array(batchTransaction, { maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 100_000 }), { maxLength: 5 }),
        (transactions, refundAmounts) => {
          const refunds = refundAmounts.map((amount) => booking(id('tran_'), 'REFUND', String(amount)));

          const contents = batchContents(transactions, refunds);

          const open = transactions.filter(
            ({ transaction }) => transaction.tranType === 'AUTH' && transaction.capturedMinor === '0' && transaction.tranStatus === 'APPROVED',
          );
          // A voided authorisation never captured moved no money: it is settled with the batch but counts as no void.
          const voided = transactions.filter(({ transaction }) => transaction.tranStatus === 'VOIDED' && transaction.capturedMinor !== '0');
          const paying = transactions.filter(({ transaction }) => transaction.tranStatus !== 'VOIDED' && transaction.capturedMinor !== '0');
          const total = (values: string[]) => values.reduce((sum, value) => sum + BigInt(value), 0n).toString();
          expect(contents.rolledOver.map((t) => t.id)).toEqual(open.map(({ transaction }) => transaction.id));
          expect(contents.settled).toHaveLength(transactions.length - open.length);
          expect(contents.totals).toEqual({
            paymentCount: paying.length,
            paymentMinor: total(paying.map(({ transaction }) => transaction.capturedMinor)),
            refundCount: refunds.length,
            refundMinor: total(refundAmounts.map(String)),
            voidCount: voided.length,
            voidMinor: total(voided.map(({ actions }) => actions.find((action) => action.actionType === 'VOID')!.amountMinor)),
          });
          // The upload names each booking by what the connector sent for it: the sale, the capture, the refund.
          expect(contents.uploads.map((upload) => [upload.kind, upload.amountMinor])).toEqual([
            ...paying.map(({ transaction }) => [transaction.tranType === 'SALE' ? 'SALE' : 'CAPTURE', transaction.capturedMinor]),
            ...refundAmounts.map((amount) => ['REFUND', String(amount)]),
          ]);
          expect(contents.uploads.every((upload) => /^[0-9]{6}$/.test(upload.original.stan))).toBe(true);
        },
      ),
    );
  });

  it('should number batches from 000001 to 999999 and then start again', () => {
    expect([nextBatchNo('000001'), nextBatchNo('000099'), nextBatchNo('999998'), nextBatchNo('999999')]).toEqual(['000002', '000100', '999999', '000001']);
  });
});
