import { escapeHtml, labelledRows, oneLine } from '../shared/html';
import { formatMoney } from '../shared/legacy';
import { Order, OrderWithActions } from './order';

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

/** What a receipt says of the money: its headline amount and its rows, from what the order holds. */
export interface ReceiptMoney {
  /** Minor units: what was charged (captured), the hold of an authorisation never captured, or what was asked when nothing was approved. */
  headlineMinor: string;
  rows: Array<[string, string]>;
}

/**
 * The money of an order as its customer knows it: what was asked when the host approved nothing;
 * else what was authorised (an AUTH), captured (charged: a sale's approval, an AUTH's capture),
 * refunded and voided, and the total charged in the end (captured less refunded; nothing once
 * voided or while an authorisation is only held).
 */
export function receiptMoney(order: Order): ReceiptMoney {
  const money = (minor: string | bigint): string => formatMoney(String(minor), order.currency);
  if (order.approvedMinor === null) return { headlineMinor: order.amountMinor, rows: [['Amount', money(order.amountMinor)]] };
  const captured = BigInt(order.capturedMinor);
  const refunded = BigInt(order.refundedMinor);
  const voided = order.tranStatus === 'VOIDED';
  const rows: Array<[string, string]> = [];
  if (order.tranType === 'AUTH') rows.push(['Authorised', money(order.approvedMinor)]);
  if (captured > 0n) rows.push([order.tranType === 'AUTH' ? 'Captured' : 'Amount', money(captured)]);
  if (refunded > 0n) rows.push(['Refunded', money(refunded)]);
  if (voided) rows.push(['Voided', money(captured > 0n ? captured : order.approvedMinor)]);
  if (order.tranStatus === 'CLOSED') rows.push(['Released', money(order.approvedMinor)]);
  rows.push(['Total charged', money(voided ? 0n : captured - refunded)]);
  return { headlineMinor: captured > 0n ? String(captured) : order.approvedMinor, rows };
}

/**
 * The customer's receipt of an order (`POST /api/v2/order/email/{id}`): merchant, terminal, what
 * happened and to which card (masked, as stored), the host's references and the chip data a
 * receipt shows. Every value is escaped in the HTML and kept on one line in the text.
 */
export function renderReceipt(order: OrderWithActions): RenderedReceipt {
  const { headlineMinor, rows: money } = receiptMoney(order);
  const rows: Array<[string, string]> = [
    ['Merchant', order.merchantName],
    ...(order.merchantAddr ? ([['Address', order.merchantAddr]] as Array<[string, string]>) : []),
    ['MID / TID', `${order.primaryMid} / ${order.primaryTid}`],
    ['Date', when(order.createdAt)],
    ['Type', order.tranType],
    ['Status', order.tranStatus],
    ...money,
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
  const title = `${order.tranType} ${order.tranStatus} ${formatMoney(headlineMinor, order.currency)}`;
  return {
    subject: `Receipt from ${merchant}: ${title}`,
    text: [`Receipt from ${merchant}`, '', body.text, '', 'Keep this receipt for your records.', ''].join('\n'),
    html: `<!DOCTYPE html><html><body><h1>Receipt from ${escapeHtml(merchant)}</h1><p>${escapeHtml(title)}</p>${body.html}<p>Keep this receipt for your records.</p></body></html>`,
  };
}
