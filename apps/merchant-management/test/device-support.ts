import { ApiClient, createCardAcquirer, createMerchant, dataOf, EnvelopeBody, HttpResponse, MerchantView, queryDatabase } from '@app/testing';
import { MerchantManagementTestApp } from './support';

/**
 * What the device tests (device-*.e2e-spec.ts) share: the API's paths, the shapes of its answers
 * as a client reads them, and the scenarios they start from. Every test works in a PBO of its
 * own, so database counts are scoped by groupId.
 */

export const V1 = '/api/openapi/v1';
export const SDK = '/api/sdk/v1';
export const UPSERT = 'gateway.profile.upsert.v1';
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/;
export const VISA_AID = 'A0000000031010';
export const MASTERCARD_AID = 'A0000000041010';

export type Pbo = ApiClient & { groupId: string };
export type Body = Record<string, unknown>;

export interface CreatedCode {
  id: string;
  activationCode: string;
  profileId: string | null;
}

export interface Device {
  deviceId: string;
  uuid: string;
  mchId: string;
  groupId: string;
  deviceType: string | null;
  deviceStatus: number;
  deviceUpdate: number;
  deviceAlias: string | null;
  deviceName: string | null;
  deviceAdmin: string | null;
  appVersion: string | null;
  deviceToken: string;
  methodList: string;
  profileId: string | null;
  emvParams: string | null;
  extParams: string | null;
  operatingMode: string;
  activesAt: string | null;
  createdAt: string;
  updatedAt: string;
  isDevice?: boolean;
}

export interface Activation {
  deviceId: string;
  namespace: string;
  profileId: string | null;
  emvParams: Record<string, string>;
  emvAID: { aid: string; paymentMethod: string }[];
  deviceToken: string;
}

export interface Page<T> {
  total: number;
  current: number;
  hasNext: boolean;
  records: T[];
}

export interface Acceptance {
  acptName: string;
  hostMessageFormat: string;
  supportedPayments: string[];
  primaryMid: string | null;
  primaryTid: string | null;
  extraParams: Record<string, unknown>;
}

export interface Upsert {
  profileId: string;
  version: number;
  groupId: string;
  merchantId: string;
  deviceId: string;
  merchantName: string;
  /** The merchant's IANA time zone (absent from upserts of older versions). */
  timeZone?: string;
  /** ACTIVE while the device is pending or active, DISABLED once retired (issue 14, class 8). */
  entityStatus?: 'ACTIVE' | 'DISABLED';
  /** With DISABLED: the device may come back (idled, logged out) and keeps its terminals (review r14h). */
  keepsTerminals?: boolean;
  acceptances: Acceptance[];
}

/** A merchant bound to A (VISA, enablerParams acqMid,acqTid, MOCK) and B (MASTERCARD, S2M_8583, mid MID-9). */
export interface TwoAcquirers {
  pbo: Pbo;
  merchant: MerchantView;
  a: { id: number; name: string };
  b: { id: number; name: string };
  /** extParams that satisfy A's enablerParams. */
  extParams: { acquirers: Record<string, Record<string, string>> };
}

export function expectEnvelope(response: HttpResponse<EnvelopeBody>, status: number, code: number, msg: RegExp = /\S/): void {
  expect({ status: response.status, code: response.body.code, msg: response.body.msg }).toEqual({ status, code, msg: expect.stringMatching(msg) });
}

/** The device scenarios of one test file, on the app `appOf` answers once the file's beforeAll has started it. */
export function deviceScenarios(appOf: () => MerchantManagementTestApp) {
  async function count(sql: string, params: unknown[]): Promise<number> {
    const [row] = await queryDatabase<{ n: string }>(appOf().database.url, sql, params);
    return Number(row.n);
  }

  const devicesOf = (pbo: Pbo) => count('SELECT count(*) AS n FROM merchant_management.device WHERE group_id = $1', [pbo.groupId]);

  function outboxOf(pbo: Pbo): Promise<{ subject: string; payload: Upsert }[]> {
    return queryDatabase(appOf().database.url, `SELECT subject, payload FROM merchant_management.outbox WHERE payload->>'groupId' = $1 ORDER BY id`, [
      pbo.groupId,
    ]);
  }

  async function bind(pbo: Pbo, mchId: string, profileId: number, extra: Body = {}): Promise<void> {
    dataOf(await pbo.post(`${V1}/mchInfo/payment/${mchId}`, { acquirerProfileId: String(profileId), currency: 'MYR', ...extra }));
  }

  async function createDevice(pbo: Pbo, body: Body): Promise<CreatedCode> {
    return dataOf<CreatedCode>(await pbo.post(`${V1}/device`, body));
  }

  async function getDevice(pbo: Pbo, id: string): Promise<Device | null> {
    return dataOf<Device | null>(await pbo.get(`${V1}/device/${id}`));
  }

  async function activate(code: string): Promise<Activation> {
    return dataOf<Activation>(await appOf().anonymous.post(`${SDK}/activate`, { activationCode: code, deviceInfo: { model: 'Pixel 8', appVersion: '1.2.3' } }));
  }

  function pullConfig(deviceToken: string) {
    return new ApiClient(appOf().baseUrl, deviceToken).get<{ profileId: string | null; emvParams: Record<string, string>; emvAID: Activation['emvAID']; deviceToken: string }>(
      `${SDK}/config`,
    );
  }

  /** A PBO with a merchant (MY, MYR) and no binding. */
  async function unboundMerchant(): Promise<{ pbo: Pbo; merchant: MerchantView }> {
    const pbo = await appOf().newPbo();
    return { pbo, merchant: await createMerchant(pbo, { country: 'MY' }) };
  }

  /** A PBO with a merchant bound to one VISA/MASTERCARD profile without enablerParams. */
  async function boundMerchant(): Promise<{ pbo: Pbo; merchant: MerchantView; profileId: number }> {
    const pbo = await appOf().newPbo();
    const acquirer = await createCardAcquirer(pbo, ['01', '02']);
    const merchant = await createMerchant(pbo, { country: 'MY' });
    await bind(pbo, merchant.mchId, acquirer.id);
    return { pbo, merchant, profileId: acquirer.id };
  }

  async function twoAcquirers(): Promise<TwoAcquirers> {
    const pbo = await appOf().newPbo();
    const aName = `A-${pbo.groupId}`;
    const bName = `B-${pbo.groupId}`;
    const a = await createCardAcquirer(pbo, ['01'], {
      profileName: aName,
      enablerParams: 'acqMid,acqTid',
      enablerMsgFormat: 'MOCK',
      connUrl: 'tcp://10.0.0.1:5000',
    });
    const b = await createCardAcquirer(pbo, ['02'], {
      profileName: bName,
      connMessageFormat: 'S2M_8583',
      enablerMsgFormat: undefined,
      connUrl: 'tcp://10.0.0.2:6000',
    });
    const merchant = await createMerchant(pbo, { country: 'MY' });
    await bind(pbo, merchant.mchId, a.id);
    await bind(pbo, merchant.mchId, b.id, { mid: 'MID9' });
    return {
      pbo,
      merchant,
      a: { id: a.id, name: aName },
      b: { id: b.id, name: bName },
      extParams: { acquirers: { [a.id]: { acqMid: 'MIDA', acqTid: 'TIDA' } } },
    };
  }

  /** A device of another PBO, activated, plus its pending code's ids. */
  async function foreignDevice(): Promise<{ pbo: Pbo; merchant: MerchantView; created: CreatedCode; deviceId: string; pending: CreatedCode }> {
    const { pbo, merchant } = await boundMerchant();
    const created = await createDevice(pbo, { mchId: merchant.mchId, deviceAlias: 'theirs' });
    const { deviceId } = await activate(created.activationCode);
    const pending = await createDevice(pbo, { mchId: merchant.mchId });
    return { pbo, merchant, created, deviceId, pending };
  }

  return { count, devicesOf, outboxOf, bind, createDevice, getDevice, activate, pullConfig, unboundMerchant, boundMerchant, twoAcquirers, foreignDevice };
}

export type DeviceScenarios = ReturnType<typeof deviceScenarios>;
