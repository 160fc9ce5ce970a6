import { escapeHtml, labelledRows, oneLine } from '../shared/html';
import { formatMoney } from '../shared/legacy';
import { OrderWithActions } from './order';

/** A receipt as an e-mail carries it: the same content as plain text and as HTML. */
export interface RenderedReceipt {
  subject: string;
  text: string;
  html: string;
}

/** `2026-01-31 08:15:00 UTC` */
function when(value: Date): string {
  return `${value.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * The customer's receipt of an order (`POST /api/v2/order/email/{id}`): merchant, terminal, what
 * happened and to which card (masked, as stored), the host's references and the chip data a
 * receipt shows. Every value is escaped in the HTML and kept on one line in the text.
 */
export function renderReceipt(order: OrderWithActions): RenderedReceipt {
  const shownMinor = order.approvedMinor ?? order.amountMinor;
  const rows: Array<[string, string]> = [
    ['Merchant', order.merchantName],
    ...(order.merchantAddr ? ([['Address', order.merchantAddr]] as Array<[string, string]>) : []),
    ['MID / TID', `${order.primaryMid} / ${order.primaryTid}`],
    ['Date', when(order.createdAt)],
    ['Type', order.tranType],
    ['Status', order.tranStatus],
    ['Amount', formatMoney(shownMinor, order.currency)],
    ...(order.refundedMinor !== '0' ? ([['Refunded', formatMoney(order.refundedMinor, order.currency)]] as Array<[string, string]>) : []),
    ['Card', `${order.paymentMethod} ${order.accountMasked}`],
    ['Entry', order.entryMode],
    ['Verification', order.cvmPerformed],
    ['Approval code', order.approvalCode ?? '-'],
    ['RRN', order.rrn ?? '-'],
    ['Trace', order.trace || '-'],
    ['Batch', order.batchNo ?? '-'],
    ['AID', order.appName ? `${order.aid} ${order.appName}` : order.aid],
    ['TC', order.tc],
    ['TVR / TSI', `${order.tvr} / ${order.tsi ?? '-'}`],
    ['Transaction', order.tranId],
  ];
  const body = labelledRows(rows);
  const merchant = oneLine(order.merchantName);
  const title = `${order.tranType} ${order.tranStatus} ${formatMoney(shownMinor, order.currency)}`;
  return {
    subject: `Receipt from ${merchant}: ${title}`,
    text: [`Receipt from ${merchant}`, '', body.text, '', 'Keep this receipt for your records.', ''].join('\n'),
    html: `<!DOCTYPE html><html><body><h1>Receipt from ${escapeHtml(merchant)}</h1><p>${escapeHtml(title)}</p>${body.html}<p>Keep this receipt for your records.</p></body></html>`,
  };
}
