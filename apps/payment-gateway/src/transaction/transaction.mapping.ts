import { currencyExponent, GatewayActionV1, GatewayReversalV1, GatewayTransactionV1, minorToDecimal } from '@app/contracts';
import { formatGatewayTimestamp } from '../shared/timestamps';
import type { ActionReversal, Transaction, TransactionAction } from './transaction';

function reversalView(reversal: ActionReversal): GatewayReversalV1 {
  return {
    state: reversal.state,
    attempts: reversal.attempts,
    lastResponseCode: reversal.lastResponseCode,
    ...(reversal.effect === undefined ? {} : { effect: reversal.effect }),
    ...(reversal.operatorNote === undefined ? {} : { operatorNote: reversal.operatorNote }),
    ...(reversal.notRecorded === undefined ? {} : { notRecorded: reversal.notRecorded }),
  };
}

function actionView(action: TransactionAction, exponent: number): GatewayActionV1 {
  const sent = action.hostMti !== null && action.hostStan !== null && action.hostTransmittedAt !== null;
  return {
    actionId: action.id,
    tranId: action.tranId,
    actionType: action.actionType,
    actionStatus: action.actionStatus,
    trace: action.trace,
    requestId: action.requestId,
    amount: { value: minorToDecimal(action.amountMinor, exponent), currency: action.currency },
    reason: action.reason,
    hostRespCode: action.hostRespCode,
    hostRespMessage: action.hostRespMessage,
    rrn: action.rrn,
    approvalCode: action.approvalCode,
    hostReference: sent ? { mti: action.hostMti!, stan: action.hostStan!, transmittedAt: action.hostTransmittedAt! } : null,
    posReference: action.posReference,
    extraData: action.extraData,
    batchNo: action.batchNo ?? null,
    reversal: action.reversal ? reversalView(action.reversal) : null,
    createdAt: formatGatewayTimestamp(action.createdAt),
    updatedAt: formatGatewayTimestamp(action.updatedAt),
  };
}

/**
 * A transaction as spec 3 shows it, with the sums: the body of the gateway's answers, of
 * `gateway.transaction.updated.v1` and of webhooks alike. Amounts in the currency's exponent.
 */
export function toGatewayTransaction(transaction: Transaction, actions: readonly TransactionAction[]): GatewayTransactionV1 {
  const exponent = currencyExponent(transaction.currency);
  const decimal = (minor: string): string => minorToDecimal(minor, exponent);
  return {
    tranId: transaction.id,
    tranType: transaction.tranType,
    tranStatus: transaction.tranStatus,
    amount: { value: decimal(transaction.amountMinor), currency: transaction.currency },
    approvedAmount: transaction.approvedMinor === null ? null : { value: decimal(transaction.approvedMinor), currency: transaction.currency },
    capturedAmount: decimal(transaction.capturedMinor),
    refundedAmount: decimal(transaction.refundedMinor),
    paymentMethod: transaction.paymentMethod,
    entryMode: transaction.entryMode,
    accountMasked: transaction.accountMasked,
    accountBin: transaction.accountBin,
    accountLast4: transaction.accountLast4,
    issCountryCode: transaction.issCountryCode,
    cvmPerformed: transaction.cvmPerformed,
    cvmSignatureUrl: transaction.cvmSignatureUrl,
    aid: transaction.aid,
    appName: transaction.appName,
    tc: transaction.tc,
    tvr: transaction.tvr,
    tsi: transaction.tsi,
    atc: transaction.atc,
    profileId: transaction.profileId,
    acceptanceId: transaction.acceptanceId,
    acceptanceName: transaction.acceptanceName,
    timeZone: transaction.timeZone,
    sdkId: transaction.sdkId,
    posReference: transaction.posReference,
    trace: transaction.trace,
    description: transaction.description,
    callbackUrl: transaction.callbackUrl,
    merchantName: transaction.merchantName,
    merchantAddr: transaction.merchantAddr,
    mcc: transaction.mcc,
    primaryMid: transaction.primaryMid,
    primaryTid: transaction.primaryTid,
    subMid: transaction.subMid,
    subTid: transaction.subTid,
    hostMessageFormat: transaction.hostMessageFormat,
    providerReference: transaction.providerReference,
    linkedTranId: transaction.linkedTranId,
    preferredAcceptanceTag: transaction.preferredAcceptanceTag,
    extraData: transaction.extraData,
    transStatusInfo: transaction.transStatusInfo,
    rrn: transaction.rrn,
    approvalCode: transaction.approvalCode,
    batchNo: transaction.batchNo,
    settleState: transaction.settleState,
    iccResponse: transaction.iccResponse,
    actions: actions.map((action) => actionView(action, exponent)),
    createdAt: formatGatewayTimestamp(transaction.createdAt),
    updatedAt: formatGatewayTimestamp(transaction.updatedAt),
  };
}
