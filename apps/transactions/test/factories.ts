import { currencyExponent, GatewayActionV1, GatewayTransactionUpdatedV1, GatewayTransactionV1, minorToDecimal } from '@app/contracts';
import { randomDigits, randomHex, randomIntBetween, unique } from '@app/testing';

/** A tranId of this file's stream (`tran_` and 22 url-safe characters). */
export function tranId(): string {
  return `tran_${randomHex(22)}`;
}

export function actionId(): string {
  return `act_${randomHex(22)}`;
}

/** A device id as merchant-management issues them (`SDK` and 20 hex digits). */
export function deviceId(): string {
  return `SDK${randomHex(20).toUpperCase()}`;
}

/** `minor` units of `currency` as the gateway's decimal string. */
export function decimal(minor: number | bigint | string, currency = 'MYR'): string {
  return minorToDecimal(BigInt(minor), currencyExponent(currency));
}

/** The gateway's timestamp form: `yyyy-mm-ddThh:mm:ss.ffffff+00:00`. */
export function gatewayTime(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000+00:00`;
}

/** A terminal the gateway numbers batches for. */
export interface Terminal {
  acceptanceId: string;
  primaryMid: string;
  primaryTid: string;
  sdkId: string;
  merchantName: string;
  hostMessageFormat: string;
}

export function terminal(overrides: Partial<Terminal> = {}): Terminal {
  return {
    acceptanceId: `acpt_${randomHex(16)}`,
    primaryMid: `MID${randomDigits(12)}`,
    primaryTid: `T${randomDigits(7)}`,
    sdkId: deviceId(),
    merchantName: unique('Shop '),
    hostMessageFormat: 'ISO8583',
    ...overrides,
  };
}

export function action(overrides: Partial<GatewayActionV1> & Pick<GatewayActionV1, 'amount'>): GatewayActionV1 {
  return {
    actionId: actionId(),
    actionType: 'NEW',
    actionStatus: 'SUCCESS',
    trace: randomDigits(6),
    requestId: actionId(),
    reason: 'HostSuccess',
    hostRespCode: '00',
    hostRespMessage: 'Approved',
    rrn: randomDigits(12),
    approvalCode: randomDigits(6),
    hostReference: null,
    posReference: null,
    createdAt: gatewayTime(new Date()),
    updatedAt: null,
    ...overrides,
  };
}

/** An approved sale of `minor` units at `terminal` (every spec 3 field; masked card data only). */
export function approvedSale(
  options: { minor?: number; currency?: string; terminal?: Terminal; batchNo?: string | null; createdAt?: Date; tranType?: 'SALE' | 'AUTH' } = {},
): GatewayTransactionV1 {
  const currency = options.currency ?? 'MYR';
  // Never one of the host's test amounts (minor units ending in 51 are declined, in 91 never answered), as no host approves those.
  const minor = options.minor ?? randomIntBetween(1, 1000) * 100 + randomIntBetween(0, 49);
  const at = options.terminal ?? terminal();
  const amount = { value: decimal(minor, currency), currency };
  const created = gatewayTime(options.createdAt ?? new Date());
  const newAction = action({ amount, createdAt: created });
  const isAuth = options.tranType === 'AUTH';
  return {
    tranId: tranId(),
    tranType: options.tranType ?? 'SALE',
    tranStatus: 'APPROVED',
    amount,
    approvedAmount: amount,
    capturedAmount: isAuth ? decimal(0, currency) : amount.value,
    refundedAmount: decimal(0, currency),
    paymentMethod: 'VISA',
    entryMode: 'NFC',
    accountMasked: '476173******0119',
    accountBin: '476173',
    accountLast4: '0119',
    issCountryCode: '458',
    cvmPerformed: 'NO_CVM',
    cvmSignatureUrl: null,
    aid: 'A0000000031010',
    appName: 'VISA CREDIT',
    tc: randomHex(16).toUpperCase(),
    tvr: '0000000000',
    tsi: 'E800',
    atc: randomHex(4).toUpperCase(),
    profileId: `prof_${randomHex(16)}`,
    acceptanceId: at.acceptanceId,
    sdkId: at.sdkId,
    posReference: null,
    trace: newAction.trace,
    description: null,
    callbackUrl: null,
    merchantName: at.merchantName,
    merchantAddr: '1 Jalan Test, Kuala Lumpur',
    mcc: '5411',
    primaryMid: at.primaryMid,
    primaryTid: at.primaryTid,
    subMid: null,
    subTid: null,
    hostMessageFormat: at.hostMessageFormat,
    providerReference: null,
    linkedTranId: null,
    rrn: newAction.rrn,
    approvalCode: newAction.approvalCode,
    batchNo: options.batchNo === undefined ? '000001' : options.batchNo,
    settleState: 'OPEN',
    iccResponse: null,
    actions: [newAction],
    createdAt: created,
    updatedAt: null,
  };
}

/** A declined sale: no batch, nothing captured. */
export function declinedSale(options: { minor?: number; currency?: string; terminal?: Terminal } = {}): GatewayTransactionV1 {
  const sale = approvedSale({ ...options, batchNo: null });
  const zero = decimal(0, sale.amount.currency);
  return {
    ...sale,
    tranStatus: 'DECLINED',
    approvedAmount: null,
    capturedAmount: zero,
    rrn: null,
    approvalCode: null,
    actions: [
      { ...sale.actions[0], actionStatus: 'FAILED', reason: 'HostDeclined', hostRespCode: '51', hostRespMessage: 'Insufficient funds', approvalCode: null },
    ],
  };
}

export function updated(transaction: GatewayTransactionV1, version: number, groupId: string, merchantId: string | null = null): GatewayTransactionUpdatedV1 {
  return { version, groupId, merchantId, transaction };
}

/** Versions 1..n of one sale: each a refund of 1.00 more (the last ones may make it REFUNDED). */
export function versionsOf(sale: GatewayTransactionV1, count: number): GatewayTransactionV1[] {
  const versions = [sale];
  for (let v = 2; v <= count; v++) {
    const previous = versions[v - 2];
    const refunded = BigInt(v - 1) * 100n;
    versions.push({
      ...previous,
      refundedAmount: decimal(refunded),
      actions: [...previous.actions, action({ actionType: 'REFUND', amount: { value: decimal(100), currency: 'MYR' }, createdAt: gatewayTime(new Date()) })],
      updatedAt: gatewayTime(new Date()),
    });
  }
  return versions;
}
