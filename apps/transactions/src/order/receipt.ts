import { WallClock, wallClockAt } from '@app/contracts';
import { escapeHtml, labelledRows, oneLine } from '../shared/html';
import { formatMoney } from '../shared/legacy';
import { Order, OrderWithActions } from './order';

/** A receipt as an e-mail carries it: the same content as plain text and as HTML. */
export interface RenderedReceipt {
  subject: string;
  text: string;
  html: string;
}

/**
 * An instant as the merchant's clock showed it, the zone named: `2026-01-31 16:15:00
 * Asia/Kuala_Lumpur (UTC+08:00)`; `2026-01-31 08:15:00 UTC` when the order carries no zone (taken
 * before it was carried) or one this runtime does not know.
 */
export function receiptTime(value: Date, timeZone: string | null): string {
  let clock: WallClock;
  try {
    clock = wallClockAt(value, timeZone ?? 'UTC');
  } catch {
    return receiptTime(value, null);
  }
  const shown = `${clock.year}-${clock.month}-${clock.day} ${clock.hour}:${clock.minute}:${clock.second}`;
  if (timeZone === null || timeZone === 'UTC') return `${shown} UTC`;
  // Intl names the offset from GMT ("GMT+08:00"; "GMT+00:00" or "GMT" at zero, by ICU version).
  const offset = clock.offset === 'GMT' ? 'UTC+00:00' : clock.offset.replace(/^GMT/, 'UTC');
  return `${shown} ${timeZone} (${offset})`;
}

/**
 * What the application cryptogram of an order is. The card gives it in its first GENERATE AC,
 * with 9F27 saying which: the gateway takes a sale only when 9F27 says ARQC (bits 8-7 = 10, an
 * online request; an AAC or a TC is refused, docs/decisions.md "The card read is checked as EMV
 * defines it"), and keeps that cryptogram (9F26) as `tc`, spec 2's field name. So every order's
 * cryptogram is an ARQC: no second GENERATE AC (its TC) nor the issuer's ARPC reaches the gateway.
 */
export const ORDER_CRYPTOGRAM_LABEL = 'ARQC';

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
    ['Date', receiptTime(order.createdAt, order.timeZone)],
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
    [ORDER_CRYPTOGRAM_LABEL, order.tc],
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
