import { ApiClient, unique } from '@app/testing';
import { dataOf } from './support';

/** Factories for the legacy `/api/v2` API: the same objects as `factories.ts`, in the legacy shapes. */

export const V2 = '/api/v2';

const AIDS: Record<string, string> = {
  '01': 'A0000000031010',
  '02': 'A0000000041010',
  '03': 'A000000333010101',
  '04': 'A00000002501',
  '05': 'A0000000651010',
  '06': 'A0000001523010',
};

/** Legacy EMV create body: `params` is an object. */
export function legacyEmvBody(overrides: Record<string, unknown> = {}) {
  const paymentMethod = (overrides.paymentMethod as string) ?? '01';
  return {
    emvName: unique('emv-'),
    paymentMethod,
    params: { aid: AIDS[paymentMethod] ?? AIDS['01'], appVersion: '0096', clFloorLimit: 0, clTransLimit: 500000, clCVMLimit: 25000 },
    ...overrides,
  };
}

export async function createLegacyEmv(client: ApiClient, overrides: Record<string, unknown> = {}): Promise<number> {
  return dataOf<{ id: number }>(await client.post(`${V2}/emv`, legacyEmvBody(overrides))).id;
}

/** Legacy acquirer create body for a card profile handling the methods of `emvs`: the maps are objects. */
export function legacyAcquirerBody(emvs: Record<string, number[]>, overrides: Record<string, unknown> = {}) {
  return {
    profileName: unique('acquirer-'),
    currency: 'MYR',
    connMessageFormat: 'SVC_ENABLER',
    enablerMsgFormat: 'MOCK',
    connUrl: 'tcp://127.0.0.1:5000',
    connTimeout: 5000,
    connRequestTimeout: 30000,
    methodList: Object.fromEntries(Object.keys(emvs).map((code) => [code, []])),
    emvList: emvs,
    ...overrides,
  };
}

export async function createLegacyAcquirer(client: ApiClient, emvs: Record<string, number[]>, overrides: Record<string, unknown> = {}): Promise<number> {
  return dataOf<{ id: number }>(await client.post(`${V2}/acquirer`, legacyAcquirerBody(emvs, overrides))).id;
}

/** A card acquirer profile created through v2, with a fresh legacy EMV config per method. */
export async function createLegacyCardAcquirer(client: ApiClient, methods: string[] = ['01', '02'], overrides: Record<string, unknown> = {}) {
  const emvs: Record<string, number[]> = {};
  for (const method of methods) emvs[method] = [await createLegacyEmv(client, { paymentMethod: method })];
  const id = await createLegacyAcquirer(client, emvs, overrides);
  return { id, emvs };
}

/** The legacy onboarding body (docs/decisions.md, "Legacy /api/v2"): no currency unless given. */
export function legacyMerchantBody(overrides: Record<string, unknown> = {}) {
  return {
    mchName: unique('Kedai '),
    contactName: 'Aisyah',
    contactEmail: 'aisyah@example.com',
    timeZone: 'Asia/Kuala_Lumpur',
    mcc: '5812',
    currency: 'MYR',
    ...overrides,
  };
}

export interface LegacyMerchant {
  uuid: string;
  mchId: string;
  id: string;
  groupId: string;
  mchName: string;
  currency: string;
  supportedPayments: string[];
  supportedPaymentMethods: { paymentMethod: string; profileId: number }[];
  extParams: { acqMid: string | null; acqTid: string | null };
  [key: string]: unknown;
}

export async function createLegacyMerchant(client: ApiClient, overrides: Record<string, unknown> = {}): Promise<LegacyMerchant> {
  return dataOf<LegacyMerchant>(await client.post(`${V2}/mchInfo`, legacyMerchantBody(overrides)));
}

/** Legacy device create body: activateCodeAlias and deviceType are required. */
export function legacyDeviceBody(mchId: string, overrides: Record<string, unknown> = {}) {
  return { mchId, activateCodeAlias: unique('Till '), deviceType: 'COTS', ...overrides };
}

export async function createLegacyDevice(
  client: ApiClient,
  mchId: string,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; activationCode: string }> {
  return dataOf<{ id: string; activationCode: string }>(await client.post(`${V2}/device`, legacyDeviceBody(mchId, overrides)));
}

export interface LegacyDevice {
  deviceId: string;
  uuid: string;
  mchId: string;
  groupId: string;
  deviceType: string | null;
  deviceStatus: number;
  activateCodeAlias: string | null;
  deviceAdmin: string | null;
  methodList: string;
  profileId: string | null;
  emvParams: Record<string, string> | null;
  extParams: { acqMid: string | null; acqTid: string | null; acquirers: Record<string, Record<string, string>> };
  serverUrl: string | null;
  customerId: string;
  licenseId: string | null;
  signKeyId: string | null;
  cardBdkId: string | null;
  isDevice: boolean;
  [key: string]: unknown;
}
