import { HostBatchTransactionV1 } from '@app/contracts';
import { hostOriginalOf } from '../host-reference';
import type { Transaction, TransactionAction } from '../transaction';
import type { BatchTotalsMinor } from './batch-settlement';

/** A transaction of a batch with its actions. */
export interface BatchTransaction {
  transaction: Transaction;
  actions: readonly TransactionAction[];
}

/** What closing a batch finds in it. */
export interface BatchContents {
  totals: BatchTotalsMinor;
  /** The approved sales, captures and refunds as a batch upload sends them, in that order. */
  uploads: HostBatchTransactionV1[];
  /** The transactions the batch settles (SETTLING now, SETTLED or SETTLE_FAILED after the host's answer). */
  settled: Transaction[];
  /** Authorisations not captured yet: nothing of them is booked, so they move on to the next batch. */
  rolledOver: Transaction[];
}

const sum = (a: string, b: string): string => (BigInt(a) + BigInt(b)).toString();

function isUncapturedAuthorization(transaction: Transaction): boolean {
  return transaction.tranType === 'AUTH' && transaction.tranStatus === 'APPROVED' && BigInt(transaction.capturedMinor) === 0n;
}

function success(actions: readonly TransactionAction[], type: TransactionAction['actionType']): TransactionAction | undefined {
  return actions.find((action) => action.actionType === type && action.actionStatus === 'SUCCESS');
}

/**
 * Totals a closed batch by the rules the hosts keep (docs/decisions.md, "Void, refund, capture and
 * settle in the gateway"): a sale books its approved amount, a captured authorisation its capture,
 * both payments; a voided one books nothing and counts as a void of what was voided (a voided
 * authorisation never captured counts nowhere: nothing of it was booked); a refund
 * books in the batch open when the host approved it, whichever batch its sale is in (`refunds`:
 * those booked in this batch). An authorisation not captured yet books nothing and rolls over.
 */
export function batchContents(transactions: readonly BatchTransaction[], refunds: readonly TransactionAction[]): BatchContents {
  const totals: BatchTotalsMinor = { paymentCount: 0, paymentMinor: '0', refundCount: 0, refundMinor: '0', voidCount: 0, voidMinor: '0' };
  const uploads: HostBatchTransactionV1[] = [];
  const settled: Transaction[] = [];
  const rolledOver: Transaction[] = [];
  for (const { transaction, actions } of transactions) {
    if (isUncapturedAuthorization(transaction)) {
      rolledOver.push(transaction);
      continue;
    }
    settled.push(transaction);
    if (transaction.tranStatus === 'VOIDED') {
      // The void of an authorisation never captured took back nothing booked: it moved no money and counts nowhere.
      if (BigInt(transaction.capturedMinor) === 0n) continue;
      const voided = success(actions, 'VOID');
      totals.voidCount += 1;
      totals.voidMinor = sum(totals.voidMinor, voided?.amountMinor ?? transaction.capturedMinor);
      continue;
    }
    if (transaction.tranStatus !== 'APPROVED' && transaction.tranStatus !== 'REFUNDED') continue;
    const booking = transaction.tranType === 'SALE' ? success(actions, 'NEW') : success(actions, 'CAPTURE');
    const bookedMinor = transaction.capturedMinor;
    if (!booking || BigInt(bookedMinor) === 0n) continue;
    totals.paymentCount += 1;
    totals.paymentMinor = sum(totals.paymentMinor, bookedMinor);
    const original = hostOriginalOf(booking, transaction.tranType === 'SALE' ? 'SALE' : 'CAPTURE');
    if (original) uploads.push({ kind: transaction.tranType === 'SALE' ? 'SALE' : 'CAPTURE', amountMinor: bookedMinor, original });
  }
  for (const refund of refunds) {
    totals.refundCount += 1;
    totals.refundMinor = sum(totals.refundMinor, refund.amountMinor);
    const original = hostOriginalOf(refund, 'REFUND');
    if (original) uploads.push({ kind: 'REFUND', amountMinor: refund.amountMinor, original });
  }
  return { totals, uploads, settled, rolledOver };
}

/** The batch after `batchNo`: 000001 follows 999999. */
export function nextBatchNo(batchNo: string): string {
  const next = (Number(batchNo) % 999_999) + 1;
  return String(next).padStart(6, '0');
}
