import { csvText } from '../shared/csv';
import { escapeHtml, labelledRows, oneLine } from '../shared/html';
import { formatMoney, formatUtc, minorToGatewayAmount } from '../shared/legacy';
import { BATCH_STATES, BatchLine, BatchState, BatchView } from './settlement';

/** A batch of the report with what was booked in it. */
export interface ReportedBatch {
  batch: BatchView;
  lines: BatchLine[];
}

/** The settlement report as an e-mail carries it: a summary (text and HTML) and the bookings as CSV. */
export interface RenderedSettlementReport {
  subject: string;
  text: string;
  html: string;
  csv: string;
}

const CSV_NOTE = 'Every payment, refund and void booked in these batches is a line of the attached CSV file.';

const STATE_NAMES: Record<BatchState, string> = {
  [BATCH_STATES.OPEN]: 'open',
  [BATCH_STATES.SETTLED]: 'settled',
  [BATCH_STATES.SETTLE_FAILED]: 'settle failed',
  [BATCH_STATES.SETTLING]: 'settling',
};

/**
 * The header of the CSV attachment: one line per booking of the listed batches (a payment, a
 * refund, a void), so that per `kind` the lines of a batch sum to its totals (payments are SALE
 * and CAPTURE). `amount` is what the line booked; the order's own sums follow it.
 */
export const SETTLEMENT_CSV_HEADER = [
  'batchId',
  'batchNo',
  'acquirerMid',
  'acquirerTid',
  'kind',
  'amount',
  'bookedAt',
  'actionId',
  'tranId',
  'tranType',
  'tranStatus',
  'createdAt',
  'paymentMethod',
  'accountMasked',
  'currency',
  'approvedAmount',
  'capturedAmount',
  'refundedAmount',
  'approvalCode',
  'rrn',
  'trace',
  'mchName',
];

/**
 * `POST /api/v2/settlement/email`: per batch its terminal, state and totals (payments, refunds,
 * voids; the host's and the difference once settled), and every booking of the batches as CSV.
 */
export function renderSettlementReport(mchId: string, reported: ReportedBatch[]): RenderedSettlementReport {
  const merchant = oneLine(reported[0]?.batch.merchantName ?? mchId);
  const sections = reported.map(({ batch, lines }) => {
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
      ['Bookings', String(lines.length)],
    ];
    if (batch.hostTotals) rows.push(['Host payments', `${batch.hostTotals.paymentCount}, ${formatMoney(batch.hostTotals.paymentMinor, batch.currency)}`]);
    if (batch.reconciliation) rows.push(['Reconciliation', batch.reconciliation]);
    return labelledRows(rows);
  });
  const csvRows = reported.flatMap(({ batch, lines }) =>
    lines.map(({ kind, amountMinor, bookedAt, actionId, trace, order }) => {
      const amount = (minor: string | null) => (minor === null ? null : minorToGatewayAmount(minor, order.currency));
      return [
        batch.batchId,
        batch.batchNo,
        order.primaryMid,
        order.primaryTid,
        kind,
        amount(amountMinor),
        formatUtc(bookedAt),
        actionId,
        order.tranId,
        order.tranType,
        order.tranStatus,
        formatUtc(order.createdAt),
        order.paymentMethod,
        order.accountMasked,
        order.currency,
        amount(order.approvedMinor),
        amount(order.capturedMinor),
        amount(order.refundedMinor),
        order.approvalCode,
        order.rrn,
        trace,
        order.merchantName,
      ];
    }),
  );
  const heading = `Settlement report of ${merchant} (merchant ${oneLine(mchId)})`;
  return {
    subject: `${heading}: ${reported.length} batch${reported.length === 1 ? '' : 'es'}`,
    text: [heading, '', ...sections.flatMap((section) => [section.text, '']), CSV_NOTE, ''].join('\n'),
    html: `<!DOCTYPE html><html><body><h1>${escapeHtml(heading)}</h1>${sections.map((section) => section.html).join('<hr>')}<p>${escapeHtml(CSV_NOTE)}</p></body></html>`,
    csv: csvText(SETTLEMENT_CSV_HEADER, csvRows),
  };
}
