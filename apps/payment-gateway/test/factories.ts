import { unique } from '@app/testing';
import { GatewayClient, bodyOf } from './support';

/** Shapes of gateway responses, as a client reads them. */
export interface AcceptanceView {
  acptId: string;
  acptName: string;
  hostMessageFormat: string;
  supportedPayments: string[];
  primaryMid: string | null;
  primaryTid: string | null;
  extraParams: Record<string, unknown>;
  entityStatus: string;
  tags: string[] | null;
  createdAt: string;
  updatedAt: string | null;
}

export interface ProfileView {
  profileId: string;
  profileName: string;
  providerReference: string | null;
  merchantName: string;
  merchantAddr: string | null;
  mcc: string | null;
  countryCode: string | null;
  currency: string;
  entityStatus: string;
  createdAt: string;
  updatedAt: string | null;
}

export interface ProfileWithAcptView extends ProfileView {
  acceptances: AcceptanceView[];
  acptSelection: Record<string, string[]>;
}

export interface ProfilePageView {
  hasNext: boolean;
  pageSize: number;
  totalSize: number;
  currentCursor: string;
  nextCursor: string | null;
  data: ProfileView[];
}

export interface ProblemView {
  type: string;
  title: string;
  status: number;
  detail: string;
  requestId: string;
}

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
    acceptances: [
      { acptName: 'Acquirer A', hostMessageFormat: 'ISO8583', supportedPayments: ['VISA', 'MASTERCARD'], primaryMid: '000001234567890', primaryTid: '12345678', extraParams: {} },
    ],
    groupId: 'grp_sync',
    merchantId: '123456789012345',
    deviceId: '6f1c2a9e-0000-4000-8000-000000000001',
    ...overrides,
  };
}
