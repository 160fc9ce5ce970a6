import { bodyOf, GatewayClient, ProfileWithAcptView, unique } from '@app/testing';

export type { AcceptanceView, ProblemView, ProfilePageView, ProfileView, ProfileWithAcptView } from '@app/testing';

export function acceptanceBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    acptName: unique('Acquirer '),
    hostMessageFormat: 'ISO8583',
    supportedPayments: ['VISA', 'MASTERCARD'],
    primaryMid: '000001234567890',
    primaryTid: '12345678',
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
        primaryTid: '12345678',
        extraParams: {},
      },
    ],
    groupId: 'grp_sync',
    merchantId: '123456789012345',
    deviceId: '6f1c2a9e-0000-4000-8000-000000000001',
    ...overrides,
  };
}
