import { uniqueTid } from '@app/host-protocol/testing/factories';
import { bodyOf, GatewayClient, ProfileWithAcptView, randomLetters, unique } from '@app/testing';

export type { AcceptanceView, ProblemView, ProfilePageView, ProfileView, ProfileWithAcptView } from '@app/testing';

export function acceptanceBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    acptName: unique('Acquirer '),
    hostMessageFormat: 'ISO8583',
    supportedPayments: ['VISA', 'MASTERCARD'],
    primaryMid: '000001234567890',
    // A terminal of its own: a MID/TID at a host has one owner PBO (docs/decisions.md, "One owner per terminal identity").
    primaryTid: uniqueTid(),
    extraParams: { subMchDba: 'Kopi Corner' },
    tags: ['counter-1'],
    ...overrides,
  };
}

export function profileBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    profileName: unique('Kopi Corner / counter '),
    providerReference: unique('ext-'),
    merchantName: 'Kopi Corner Sdn Bhd',
    merchantAddr: '1 Jalan Ampang, Kuala Lumpur',
    mcc: '5814',
    countryCode: 'MY',
    currency: 'MYR',
    timeZone: 'Asia/Kuala_Lumpur',
    acceptances: [acceptanceBody()],
    ...overrides,
  };
}

export async function createProfile(client: GatewayClient, overrides: Record<string, unknown> = {}): Promise<ProfileWithAcptView> {
  return bodyOf<ProfileWithAcptView>(await client.post('/profiles', profileBody(overrides)), 201);
}

/** A valid gateway.profile.upsert.v1 payload as merchant-management would publish it. */
export function upsertPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    profileId: `prof_${unique()}${unique()}`,
    version: 1,
    profileName: 'Kopi Corner / SN-001',
    providerReference: null,
    merchantName: 'Kopi Corner Sdn Bhd',
    merchantAddr: '1 Jalan Ampang, Kuala Lumpur',
    mcc: '5814',
    countryCode: 'MY',
    currency: 'MYR',
    timeZone: 'Asia/Kuala_Lumpur',
    acceptances: [
      {
        acptName: 'Acquirer A',
        hostMessageFormat: 'ISO8583',
        supportedPayments: ['VISA', 'MASTERCARD'],
        primaryMid: '000001234567890',
        primaryTid: uniqueTid(),
        extraParams: {},
      },
    ],
    groupId: 'grp_sync',
    merchantId: '123456789012345',
    deviceId: '6f1c2a9e-0000-4000-8000-000000000001',
    ...overrides,
  };
}

/** A transaction id of the contract's shape (`tran_` and 22 characters), from the file's seeded stream. */
export function tranId(): string {
  return `tran_${randomLetters(22)}`;
}

/**
 * A valid gateway.transaction.updated.v1 payload as the gateway's transaction intake publishes it:
 * an approved MOCK sale with masked card data only. `transaction` overrides the transaction's fields.
 */
export function transactionUpdatedPayload(options: { groupId: string; version?: number; transaction?: Record<string, unknown> } & Record<string, unknown>): {
  version: number;
  groupId: string;
  merchantId: string | null;
  transaction: Record<string, unknown>;
} {
  const { groupId, version = 1, transaction = {}, ...rest } = options;
  const amount = { value: '12.50', currency: 'MYR' };
  const createdAt = new Date().toISOString();
  const actionId = `act_${randomLetters(22)}`;
  return {
    version,
    groupId,
    merchantId: null,
    ...rest,
    transaction: {
      tranId: tranId(),
      tranType: 'SALE',
      tranStatus: 'APPROVED',
      amount,
      approvedAmount: amount,
      capturedAmount: '12.50',
      refundedAmount: '0.00',
      paymentMethod: 'VISA',
      entryMode: 'NFC',
      accountMasked: '411111******1111',
      accountBin: '411111',
      accountLast4: '1111',
      issCountryCode: null,
      cvmPerformed: 'NO_CVM',
      cvmSignatureUrl: null,
      aid: 'A0000000031010',
      appName: 'VISA CREDIT',
      tc: '8A1B2C3D4E5F6071',
      tvr: '0000000000',
      tsi: null,
      atc: '0001',
      profileId: `prof_${randomLetters(22)}`,
      acceptanceId: `acpt_${randomLetters(22)}`,
      sdkId: '6f1c2a9e-0000-4000-8000-000000000001',
      posReference: unique('pos-'),
      trace: '000123',
      description: 'Kopi and kaya toast',
      callbackUrl: null,
      merchantName: 'Kopi Corner Sdn Bhd',
      merchantAddr: '1 Jalan Ampang, Kuala Lumpur',
      mcc: '5814',
      primaryMid: '000001234567890',
      primaryTid: '12345678',
      subMid: null,
      subTid: null,
      hostMessageFormat: 'MOCK',
      providerReference: null,
      linkedTranId: null,
      rrn: '123456789012',
      approvalCode: '654321',
      batchNo: '000001',
      settleState: 'OPEN',
      iccResponse: null,
      actions: [
        {
          actionId,
          actionType: 'NEW',
          actionStatus: 'SUCCESS',
          trace: '000123',
          requestId: actionId,
          amount,
          reason: 'HostSuccess',
          hostRespCode: '00',
          hostRespMessage: 'Approved',
          rrn: '123456789012',
          approvalCode: '654321',
          hostReference: null,
          posReference: null,
          createdAt,
          updatedAt: null,
        },
      ],
      createdAt,
      updatedAt: null,
      ...transaction,
    },
  };
}
