import { Order } from '../order/order';
import { csvText } from '../shared/csv';
import { escapeHtml, labelledRows, oneLine } from '../shared/html';
import { formatMoney, formatUtc, minorToGatewayAmount } from '../shared/legacy';
import { BATCH_STATES, BatchState, BatchView } from './settlement';

/** A batch of the report with its orders. */
export interface ReportedBatch {
  batch: BatchView;
  orders: Order[];
}

/** The settlement report as an e-mail carries it: a summary (text and HTML) and the orders as CSV. */
export interface RenderedSettlementReport {
  subject: string;
  text: string;
  html: string;
  csv: string;
}

const STATE_NAMES: Record<BatchState, string> = {
  [BATCH_STATES.OPEN]: 'open',
  [BATCH_STATES.SETTLED]: 'settled',
  [BATCH_STATES.SETTLE_FAILED]: 'settle failed',
  [BATCH_STATES.SETTLING]: 'settling',
};

/** The header of the CSV attachment: one line per order of the listed batches. */
export const SETTLEMENT_CSV_HEADER = [
  'batchId',
  'batchNo',
  'acquirerMid',
  'acquirerTid',
  'tranId',
  'createdAt',
  'tranType',
  'tranStatus',
  'paymentMethod',
  'accountMasked',
  'currency',
  'amount',
  'capturedAmount',
  'refundedAmount',
  'approvalCode',
  'rrn',
  'trace',
  'settleState',
  'mchName',
];

/**
 * `POST /api/v2/settlement/email`: per batch its terminal, state and totals (payments, refunds,
 * voids; the host's and the difference once settled), and every order of the batches as CSV.
 */
export function renderSettlementReport(mchId: string, reported: ReportedBatch[]): RenderedSettlementReport {
  const merchant = oneLine(reported[0]?.batch.merchantName ?? mchId);
  const sections = reported.map(({ batch, orders }) => {
    const totals = batch.shownTotals;
    const rows: Array<[string, string]> = [
      ['Batch', `${batch.batchId} (terminal batch ${batch.batchNo})`],
      ['MID / TID', `${batch.primaryMid} / ${batch.primaryTid}`],
      ['State', STATE_NAMES[batch.state]],
      ['Opened', formatUtc(batch.createdAt)],
      ['Settled', batch.settledAt ? formatUtc(batch.settledAt) : '-'],
      ['Payments', `${totals.paymentCount}, ${formatMoney(totals.paymentMinor, batch.currency)}`],
      ['Refunds', `${totals.refundCount}, ${formatMoney(totals.refundMinor, batch.currency)}`],
      ['Voids', `${totals.voidCount}, ${formatMoney(totals.voidMinor, batch.currency)}`],
      ['Orders', String(orders.length)],
    ];
    if (batch.hostTotals) rows.push(['Host payments', `${batch.hostTotals.paymentCount}, ${formatMoney(batch.hostTotals.paymentMinor, batch.currency)}`]);
    if (batch.reconciliation) rows.push(['Reconciliation', batch.reconciliation]);
    return labelledRows(rows);
  });
  const csvRows = reported.flatMap(({ batch, orders }) =>
    orders.map((order) => {
      const amount = (minor: string) => minorToGatewayAmount(minor, order.currency);
      return [
        batch.batchId,
        batch.batchNo,
        order.primaryMid,
        order.primaryTid,
        order.tranId,
        formatUtc(order.createdAt),
        order.tranType,
        order.tranStatus,
        order.paymentMethod,
        order.accountMasked,
        order.currency,
        amount(order.approvedMinor ?? order.amountMinor),
        amount(order.capturedMinor),
        amount(order.refundedMinor),
        order.approvalCode,
        order.rrn,
        order.trace,
        order.settleState,
        order.merchantName,
      ];
    }),
  );
  const heading = `Settlement report of ${merchant} (merchant ${oneLine(mchId)})`;
  return {
    subject: `${heading}: ${reported.length} batch${reported.length === 1 ? '' : 'es'}`,
    text: [heading, '', ...sections.flatMap((section) => [section.text, '']), 'Every order of these batches is in the attached CSV file.', ''].join('\n'),
    html: `<!DOCTYPE html><html><body><h1>${escapeHtml(heading)}</h1>${sections.map((section) => section.html).join('<hr>')}<p>Every order of these batches is in the attached CSV file.</p></body></html>`,
    csv: csvText(SETTLEMENT_CSV_HEADER, csvRows),
  };
}
