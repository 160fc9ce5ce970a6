import { envelopeData, merchantManagementClient } from './openapi-client';
import { ApiClient } from './test-app';
import { unique } from './random';

/**
 * merchant-management's HTTP API as tests drive it (its own tests and the cross-context tests in
 * test/): request bodies from seeded factories and creates that answer the new resource.
 */

/** Unwraps a success envelope, failing the test with the envelope when it is not one. */
export function dataOf<T>(response: { status: number; body: { code: number; msg: string; data?: T } }): T {
  if (response.status !== 200 || response.body.code !== 0) {
    throw new Error(`expected success, got HTTP ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body.data as T;
}

const AIDS: Record<string, string> = {
  '01': 'A0000000031010',
  '02': 'A0000000041010',
  '03': 'A000000333010101',
  '04': 'A00000002501',
  '05': 'A0000000651010',
  '06': 'A0000001523010',
};

export function emvBody(overrides: Record<string, unknown> = {}) {
  const paymentMethod = (overrides.paymentMethod as string) ?? '01';
  return {
    emvName: unique('emv-'),
    paymentMethod,
    currency: 'MYR',
    params: JSON.stringify({ aid: AIDS[paymentMethod], appVersion: '0096', clFloorLimit: 0, clTransLimit: 500000, clCVMLimit: 25000 }),
    ...overrides,
  };
}

/** Creates through the client generated from the committed document (typed, answer validated). */
export async function createEmv(client: ApiClient, overrides: Record<string, unknown> = {}): Promise<number> {
  return envelopeData(await merchantManagementClient(client).POST('/api/openapi/v1/emv', { body: emvBody(overrides) })).id;
}

/** An acquirer create body for a card profile handling the methods of `emvs` (method code to EMV ids). */
export function acquirerBody(emvs: Record<string, number[]>, overrides: Record<string, unknown> = {}) {
  return {
    profileName: unique('acquirer-'),
    currency: 'MYR',
    connMessageFormat: 'SVC_ENABLER' as const,
    enablerMsgFormat: 'MOCK' as const,
    connUrl: 'tcp://127.0.0.1:5000',
    methodList: JSON.stringify(Object.fromEntries(Object.keys(emvs).map((code) => [code, []]))),
    emvList: JSON.stringify(emvs),
    ...overrides,
  };
}

export async function createAcquirer(client: ApiClient, emvs: Record<string, number[]>, overrides: Record<string, unknown> = {}): Promise<number> {
  return envelopeData(await merchantManagementClient(client).POST('/api/openapi/v1/acquirer', { body: acquirerBody(emvs, overrides) })).id;
}

/** A card acquirer profile with a fresh EMV config per method (default VISA and MASTERCARD). */
export async function createCardAcquirer(client: ApiClient, methods: string[] = ['01', '02'], overrides: Record<string, unknown> = {}) {
  const emvs: Record<string, number[]> = {};
  for (const method of methods) emvs[method] = [await createEmv(client, { paymentMethod: method })];
  const id = await createAcquirer(client, emvs, overrides);
  return { id, emvs };
}

export function merchantBody(overrides: Record<string, unknown> = {}) {
  return { mchName: unique('Kedai '), currency: 'MYR', contactName: 'Aisyah', contactEmail: 'aisyah@example.com', ...overrides };
}

export interface MerchantView {
  uuid: string;
  mchId: string;
  supportedPayments: string[];
  acquirers: { profileId: number; profileName: string; currency: string; acqType: string; methodList: string; emvList: string }[];
  [key: string]: unknown;
}

export async function createMerchant(client: ApiClient, overrides: Record<string, unknown> = {}): Promise<MerchantView> {
  return envelopeData(await merchantManagementClient(client).POST('/api/openapi/v1/mchInfo', { body: merchantBody(overrides) }));
}
