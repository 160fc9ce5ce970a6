import { DomainError } from '@app/common';
import { currencyExponent, decimalToMinor, GatewayActionV1, GatewayAmountV1, GatewayTransactionV1 } from '@app/contracts';
import { NewOrderAction } from './persistence/order.repository';
import { Order, orderSettleStateOf, orderStateOf } from './order';

/** A gateway transaction of a PBO at a version: what `gateway.transaction.updated.v1` and an action's reply carry. */
export interface TransactionVersion {
  groupId: string;
  merchantId: string | null;
  version: number;
  transaction: GatewayTransactionV1;
  /** The gateway's acquirer of the transaction (its batch's); absent from events of before. */
  acquirerKey?: string;
}

/** The order and actions a transaction version becomes. */
export interface OrderVersion {
  order: Order;
  actions: NewOrderAction[];
  /** The name of the acceptance (acquirer profile) the transaction went through: its settlement batch's profileName. */
  profileName: string | null;
}

/**
 * Reads a transaction version as the order read model keeps it: amounts in minor units of the
 * transaction's currency, states as spec 2's numbers. Throws a DomainError (a message no
 * redelivery can fix) when the payload passes its contract but cannot be one transaction: an
 * amount in another currency, or with more decimals than its currency has, or a timestamp that
 * is not one.
 */
export function orderFromTransaction(update: TransactionVersion): OrderVersion {
  const transaction = update.transaction;
  const currency = transaction.amount.currency;
  const exponent = currencyExponent(currency);
  const minor = (amount: GatewayAmountV1, field: string): string => {
    if (amount.currency !== currency) throw DomainError.validation(`${field}.currency ${amount.currency} is not the transaction's currency ${currency}`);
    return decimalMinor(amount.value, exponent, field);
  };
  const order: Order = {
    tranId: transaction.tranId,
    groupId: update.groupId,
    merchantId: update.merchantId,
    version: update.version,
    tranType: transaction.tranType,
    tranStatus: transaction.tranStatus,
    state: orderStateOf(transaction.tranStatus),
    settleState: orderSettleStateOf(transaction),
    currency,
    amountMinor: minor(transaction.amount, 'amount'),
    approvedMinor: transaction.approvedAmount ? minor(transaction.approvedAmount, 'approvedAmount') : null,
    capturedMinor: decimalMinor(transaction.capturedAmount, exponent, 'capturedAmount'),
    refundedMinor: decimalMinor(transaction.refundedAmount, exponent, 'refundedAmount'),
    refundCount: transaction.actions.filter((action) => action.actionType === 'REFUND' && action.actionStatus === 'SUCCESS').length,
    paymentMethod: transaction.paymentMethod,
    entryMode: transaction.entryMode,
    accountMasked: transaction.accountMasked,
    cvmPerformed: transaction.cvmPerformed,
    aid: transaction.aid,
    appName: transaction.appName,
    tc: transaction.tc,
    tvr: transaction.tvr,
    tsi: transaction.tsi,
    atc: transaction.atc,
    profileId: transaction.profileId,
    acceptanceId: transaction.acceptanceId,
    sdkId: transaction.sdkId,
    trace: transaction.trace,
    rrn: transaction.rrn,
    approvalCode: transaction.approvalCode,
    batchNo: transaction.batchNo,
    merchantName: transaction.merchantName,
    merchantAddr: transaction.merchantAddr,
    primaryMid: transaction.primaryMid,
    primaryTid: transaction.primaryTid,
    hostMessageFormat: transaction.hostMessageFormat,
    acquirerKey: update.acquirerKey ?? '',
    linkedTranId: transaction.linkedTranId,
    callbackUrl: transaction.callbackUrl,
    posReference: transaction.posReference,
    timeZone: transaction.timeZone ?? null,
    createdAt: instant(transaction.createdAt, 'createdAt'),
    updatedAt: transaction.updatedAt === null ? null : instant(transaction.updatedAt, 'updatedAt'),
  };
  const actions = transaction.actions.map((action, position): NewOrderAction => ({
    actionId: action.actionId,
    tranId: transaction.tranId,
    position,
    actionType: action.actionType,
    actionStatus: action.actionStatus,
    trace: action.trace,
    amountMinor: minor(action.amount, `actions[${position}].amount`),
    currency,
    batchNo: bookedBatchOf(transaction, action),
    reason: action.reason,
    hostRespCode: action.hostRespCode,
    hostRespMessage: action.hostRespMessage,
    createdAt: instant(action.createdAt, `actions[${position}].createdAt`),
    // A producer before reversals reached the transaction left it out: none known.
    reversal: action.reversal
      ? {
          state: action.reversal.state,
          attempts: action.reversal.attempts,
          lastResponseCode: action.reversal.lastResponseCode,
          // What the acknowledgement did (undo or complete), and a completed void the gateway could not record: read as the gateway shows them.
          ...(action.reversal.effect === undefined ? {} : { effect: action.reversal.effect }),
          ...(action.reversal.operatorNote === undefined ? {} : { operatorNote: action.reversal.operatorNote }),
          ...(action.reversal.notRecorded === undefined ? {} : { notRecorded: action.reversal.notRecorded }),
        }
      : null,
  }));
  return { order, actions, profileName: transaction.acceptanceName ?? null };
}

/**
 * The batch an action booked money in: the gateway names it on each action. A payload written
 * before it did (no `batchNo` key) books what books money in the transaction's batch, as the
 * gateway did then: a sale's approval, a capture, a refund.
 */
function bookedBatchOf(transaction: GatewayTransactionV1, action: GatewayActionV1): string | null {
  if (action.batchNo !== undefined) return action.batchNo;
  if (action.actionStatus !== 'SUCCESS') return null;
  const books = action.actionType === 'CAPTURE' || action.actionType === 'REFUND' || (action.actionType === 'NEW' && transaction.tranType === 'SALE');
  return books ? transaction.batchNo : null;
}

function decimalMinor(value: string, exponent: number, field: string): string {
  const minor = decimalToMinor(value, exponent);
  if (minor === null) throw DomainError.validation(`${field} ${value} has more decimals than its currency`);
  return minor;
}

function instant(text: string, field: string): Date {
  const value = new Date(text);
  if (Number.isNaN(value.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(text))
    throw DomainError.validation(`${field} must be an ISO 8601 timestamp, got ${text.slice(0, 40)}`);
  return value;
}
