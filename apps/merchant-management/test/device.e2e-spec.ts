import { ApiClient, EnvelopeBody, HttpResponse, queryDatabase, unique } from '@app/testing';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCardAcquirer, createMerchant, MerchantView } from './factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Devices and activation codes (issue 3), end to end over HTTP: the device API under
 * /api/openapi/v1/device, the phone app under /api/sdk/v1, the activation profile queued in the
 * outbox, the state table "Activation code / device" and the merchant rules that depend on codes.
 * Every test works in a PBO of its own, so database counts are scoped by groupId.
 */

const V1 = '/api/openapi/v1';
const SDK = '/api/sdk/v1';
const UPSERT = 'gateway.profile.upsert.v1';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/;
const VISA_AID = 'A0000000031010';
const MASTERCARD_AID = 'A0000000041010';

type Pbo = ApiClient & { groupId: string };
type Body = Record<string, unknown>;

interface CreatedCode {
  id: string;
  activationCode: string;
  profileId: string | null;
}

interface Device {
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

interface Activation {
  deviceId: string;
  namespace: string;
  profileId: string | null;
  emvParams: Record<string, string>;
  emvAID: { aid: string; paymentMethod: string }[];
  deviceToken: string;
}

interface Page<T> {
  total: number;
  current: number;
  hasNext: boolean;
  records: T[];
}

interface Acceptance {
  acptName: string;
  hostMessageFormat: string;
  supportedPayments: string[];
  primaryMid: string | null;
  primaryTid: string | null;
  extraParams: Record<string, unknown>;
}

interface Upsert {
  profileId: string;
  version: number;
  groupId: string;
  merchantId: string;
  deviceId: string;
  merchantName: string;
  acceptances: Acceptance[];
}

/** A merchant bound to A (VISA, enablerParams acqMid,acqTid, MOCK) and B (MASTERCARD, S2M_8583, mid MID-9). */
interface TwoAcquirers {
  pbo: Pbo;
  merchant: MerchantView;
  a: { id: number; name: string };
  b: { id: number; name: string };
  /** extParams that satisfy A's enablerParams. */
  extParams: { acquirers: Record<string, Record<string, string>> };
}

function expectEnvelope(response: HttpResponse<EnvelopeBody>, status: number, code: number, msg: RegExp = /\S/): void {
  expect({ status: response.status, code: response.body.code, msg: response.body.msg }).toEqual({ status, code, msg: expect.stringMatching(msg) });
}

describe('devices and activation codes (v1)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  // ---- helpers -------------------------------------------------------------------------------

  async function count(sql: string, params: unknown[]): Promise<number> {
    const [row] = await queryDatabase<{ n: string }>(app.database.url, sql, params);
    return Number(row.n);
  }

  const devicesOf = (pbo: Pbo) => count('SELECT count(*) AS n FROM merchant_management.device WHERE group_id = $1', [pbo.groupId]);

  function outboxOf(pbo: Pbo): Promise<{ subject: string; payload: Upsert }[]> {
    return queryDatabase(app.database.url, `SELECT subject, payload FROM merchant_management.outbox WHERE payload->>'groupId' = $1 ORDER BY id`, [pbo.groupId]);
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
    return dataOf<Activation>(await app.anonymous.post(`${SDK}/activate`, { activationCode: code, deviceInfo: { model: 'Pixel 8', appVersion: '1.2.3' } }));
  }

  function pullConfig(deviceToken: string) {
    return new ApiClient(app.baseUrl, deviceToken).get<{ profileId: string | null; emvParams: Record<string, string>; deviceToken: string }>(`${SDK}/config`);
  }

  /** A PBO with a merchant (MY, MYR) and no binding. */
  async function unboundMerchant(): Promise<{ pbo: Pbo; merchant: MerchantView }> {
    const pbo = await app.newPbo();
    return { pbo, merchant: await createMerchant(pbo, { country: 'MY' }) };
  }

  /** A PBO with a merchant bound to one VISA/MASTERCARD profile without enablerParams. */
  async function boundMerchant(): Promise<{ pbo: Pbo; merchant: MerchantView; profileId: number }> {
    const pbo = await app.newPbo();
    const acquirer = await createCardAcquirer(pbo, ['01', '02']);
    const merchant = await createMerchant(pbo, { country: 'MY' });
    await bind(pbo, merchant.mchId, acquirer.id);
    return { pbo, merchant, profileId: acquirer.id };
  }

  async function twoAcquirers(): Promise<TwoAcquirers> {
    const pbo = await app.newPbo();
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
      connUrl: 'tls://10.0.0.2:6000',
    });
    const merchant = await createMerchant(pbo, { country: 'MY' });
    await bind(pbo, merchant.mchId, a.id);
    await bind(pbo, merchant.mchId, b.id, { mid: 'MID-9' });
    return {
      pbo,
      merchant,
      a: { id: a.id, name: aName },
      b: { id: b.id, name: bName },
      extParams: { acquirers: { [a.id]: { acqMid: 'MID-A', acqTid: 'TID-A' } } },
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

  // ---- POST device ---------------------------------------------------------------------------

  describe('POST device', () => {
    it('should answer the CD- code id, a 12-digit activation code and a prof_ profile id', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      expect(created).toEqual({
        id: `CD-${created.activationCode}`,
        activationCode: expect.stringMatching(/^\d{12}$/),
        profileId: expect.stringMatching(/^prof_[A-Za-z0-9_-]+$/),
      });
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceId: created.id, deviceStatus: 0, profileId: created.profileId, mchId: merchant.mchId });
    });

    it('should issue a different code and profile id for each device', async () => {
      const { pbo, merchant } = await boundMerchant();
      const first = await createDevice(pbo, { mchId: merchant.mchId });
      const second = await createDevice(pbo, { mchId: merchant.mchId });
      expect(second.activationCode).not.toBe(first.activationCode);
      expect(second.profileId).not.toBe(first.profileId);
      expect(await devicesOf(pbo)).toBe(2);
    });

    it('should refuse an unknown mchId with 14000 and write nothing', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.post(`${V1}/device`, { mchId: '999999999999999' }), 404, 14000, /999999999999999/);
      expect(await devicesOf(pbo)).toBe(0);
    });

    it("should refuse another PBO's merchant with 13000 and write nothing", async () => {
      const { pbo: owner, merchant } = await boundMerchant();
      const other = await app.newPbo();
      expectEnvelope(await other.post(`${V1}/device`, { mchId: merchant.mchId }), 403, 13000);
      expect(await devicesOf(owner)).toBe(0);
      expect(await devicesOf(other)).toBe(0);
      expect(await outboxOf(owner)).toHaveLength(0);
    });

    it('should refuse a body without mchId with 10000 naming mchId', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.post(`${V1}/device`, { deviceAlias: 'Till' }), 400, 10000, /mchId/);
      expect(await devicesOf(pbo)).toBe(0);
    });

    it('should refuse a methodList with an unknown payment method code with 10000 naming methodList and the code', async () => {
      const { pbo, merchant } = await boundMerchant();
      expectEnvelope(await pbo.post(`${V1}/device`, { mchId: merchant.mchId, methodList: '01,09' }), 400, 10000, /methodList.*09/);
      expect(await devicesOf(pbo)).toBe(0);
      expect(await outboxOf(pbo)).toHaveLength(0);
    });

    it.each([
      ['a key other than acquirers', () => ({ foo: 1 }), /extParams\.foo/],
      [
        'acquirers keyed by a profile not bound to the merchant',
        (bound: number) => ({ acquirers: { [bound + 1000]: { acqMid: 'M' } } }),
        /extParams\.acquirers\.\d+.*not an acquirer profile bound/,
      ],
      ['a non-string field value', (bound: number) => ({ acquirers: { [bound]: { acqMid: 12345 } } }), /extParams\.acquirers\.\d+\.acqMid.*string/],
      ['acquirers that is not an object', () => ({ acquirers: 'x' }), /extParams\.acquirers/],
    ])('should refuse extParams with %s with 10000 and write nothing', async (_label, extParams, msg) => {
      const { pbo, merchant, profileId } = await boundMerchant();
      expectEnvelope(await pbo.post(`${V1}/device`, { mchId: merchant.mchId, extParams: extParams(profileId) }), 400, 10000, msg);
      expect(await devicesOf(pbo)).toBe(0);
      expect(await outboxOf(pbo)).toHaveLength(0);
    });

    it.each([
      ['a non-string value', { terminalType: 22 }, /emvParams\.terminalType.*string/],
      ['an unknown key', { colour: 'red' }, /emvParams\.colour/],
    ])('should refuse emvParams with %s with 10000 and write nothing', async (_label, emvParams, msg) => {
      const { pbo, merchant } = await boundMerchant();
      expectEnvelope(await pbo.post(`${V1}/device`, { mchId: merchant.mchId, emvParams }), 400, 10000, msg);
      expect(await devicesOf(pbo)).toBe(0);
    });

    it("should refuse a device missing a field of the profile's enablerParams with 10000 naming the field and the profile, and write nothing", async () => {
      const pbo = await app.newPbo();
      const acquirer = await createCardAcquirer(pbo, ['01', '02'], { enablerParams: 'acqMid,acqTid', enablerMsgFormat: 'MOCK' });
      const merchant = await createMerchant(pbo);
      await bind(pbo, merchant.mchId, acquirer.id);
      const response = await pbo.post(`${V1}/device`, { mchId: merchant.mchId, extParams: { acquirers: { [acquirer.id]: { acqMid: 'M1' } } } });
      expectEnvelope(response, 400, 10000, new RegExp(`^extParams\\.acquirers\\.${acquirer.id}\\.acqTid is required by acquirer profile ${acquirer.id} \\([^)]+\\)$`));
      expect(await devicesOf(pbo)).toBe(0);
      expect(await outboxOf(pbo)).toHaveLength(0);
    });

    it('should refuse a device without extParams when a bound profile declares enablerParams', async () => {
      const pbo = await app.newPbo();
      const acquirer = await createCardAcquirer(pbo, ['01'], { enablerParams: 'acqMid;acqTid' });
      const merchant = await createMerchant(pbo);
      await bind(pbo, merchant.mchId, acquirer.id);
      expectEnvelope(await pbo.post(`${V1}/device`, { mchId: merchant.mchId }), 400, 10000, new RegExp(`^extParams\\.acquirers\\.${acquirer.id}\\.acqMid is required by acquirer profile ${acquirer.id} \\([^)]+\\)$`));
      expect(await devicesOf(pbo)).toBe(0);
    });
  });

  // ---- activation profile and outbox ---------------------------------------------------------

  describe('activation profile', () => {
    it('should create the code with profileId null and queue nothing when the merchant has no binding', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      expect(created).toEqual({ id: `CD-${created.activationCode}`, activationCode: expect.stringMatching(/^\d{12}$/), profileId: null });
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceId: created.id, deviceStatus: 0, profileId: null, methodList: '{}' });
      expect(await outboxOf(pbo)).toHaveLength(0);
    });

    it('should queue exactly one gateway.profile.upsert.v1 row with one acceptance per bound acquirer profile', async () => {
      const { pbo, merchant, a, b, extParams } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, extParams });
      const rows = await outboxOf(pbo);
      expect(rows).toHaveLength(1);
      expect(rows[0].subject).toBe(UPSERT);
      expect(rows[0].payload).toMatchObject({
        version: 1,
        profileId: created.profileId,
        groupId: pbo.groupId,
        merchantId: merchant.mchId,
        merchantName: merchant.mchName,
      });
      expect(rows[0].payload.acceptances).toHaveLength(2);
      expect(rows[0].payload.acceptances).toEqual(
        expect.arrayContaining([
          {
            acptName: a.name,
            hostMessageFormat: 'MOCK',
            supportedPayments: ['VISA'],
            primaryMid: 'MID-A',
            primaryTid: 'TID-A',
            extraParams: { connUrl: 'tcp://10.0.0.1:5000' },
          },
          {
            acptName: b.name,
            hostMessageFormat: 'S2M_8583',
            supportedPayments: ['MASTERCARD'],
            primaryMid: 'MID-9',
            primaryTid: null,
            extraParams: { connUrl: 'tls://10.0.0.2:6000' },
          },
        ]),
      );
    });

    it("should carry the device's uuid as deviceId in the upsert and never the activation code", async () => {
      const { pbo, merchant, extParams } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, extParams });
      const device = (await getDevice(pbo, created.id))!;
      const [row] = await outboxOf(pbo);
      expect(row.payload.deviceId).toBe(device.uuid);
      expect(JSON.stringify(row.payload)).not.toContain(created.activationCode);
    });

    it("should fall back to the PBO's gateway format for an SVC_ENABLER profile without enablerMsgFormat", async () => {
      const pbo = await app.newPbo({ gatewayFormat: 'ISO8583' });
      const acquirer = await createCardAcquirer(pbo, ['01'], { enablerMsgFormat: undefined });
      const merchant = await createMerchant(pbo);
      await bind(pbo, merchant.mchId, acquirer.id);
      await createDevice(pbo, { mchId: merchant.mchId });
      const [row] = await outboxOf(pbo);
      expect(row.payload.acceptances).toEqual([expect.objectContaining({ hostMessageFormat: 'ISO8583' })]);
    });

    it('should leave primaryMid and primaryTid null when neither extParams nor the binding give them', async () => {
      const { pbo, merchant } = await boundMerchant();
      await createDevice(pbo, { mchId: merchant.mchId });
      const [row] = await outboxOf(pbo);
      expect(row.payload.acceptances).toEqual([expect.objectContaining({ supportedPayments: ['VISA', 'MASTERCARD'], primaryMid: null, primaryTid: null })]);
    });

    it("should prefer extParams acqMid over the binding's mid", async () => {
      const { pbo, merchant, b, extParams } = await twoAcquirers();
      await createDevice(pbo, {
        mchId: merchant.mchId,
        extParams: { acquirers: { ...extParams.acquirers, [b.id]: { acqMid: 'MID-B-DEVICE', acqTid: 'TID-B' } } },
      });
      const [row] = await outboxOf(pbo);
      expect(row.payload.acceptances.find((acceptance) => acceptance.acptName === b.name)).toMatchObject({ primaryMid: 'MID-B-DEVICE', primaryTid: 'TID-B' });
    });

    it("should give a device with methodList '02' only the acceptance of the profile bound for MASTERCARD", async () => {
      const { pbo, merchant, b } = await twoAcquirers();
      // A is not matched, so its enablerParams are not required.
      const created = await createDevice(pbo, { mchId: merchant.mchId, methodList: '02' });
      expect(created.profileId).toMatch(/^prof_/);
      const rows = await outboxOf(pbo);
      expect(rows).toHaveLength(1);
      expect(rows[0].payload.acceptances).toEqual([expect.objectContaining({ acptName: b.name, supportedPayments: ['MASTERCARD'], primaryMid: 'MID-9' })]);
      expect(JSON.parse((await getDevice(pbo, created.id))!.methodList)).toEqual({ '02': { mid: 'MID-9', tid: null } });
    });

    it('should answer profileId null and queue nothing when the methodList matches no bound method', async () => {
      const { pbo, merchant } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, methodList: '03' });
      expect(created.profileId).toBeNull();
      expect(await outboxOf(pbo)).toHaveLength(0);
      expect(await devicesOf(pbo)).toBe(1);
    });
  });

  // ---- GET device/{id} -----------------------------------------------------------------------

  describe('GET device/{deviceId}', () => {
    it('should find a pending code by its CD- id and by the bare code, as the same record', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, deviceAlias: 'Till 1' });
      const byId = await getDevice(pbo, created.id);
      const byCode = await getDevice(pbo, created.activationCode);
      expect(byId).toMatchObject({ deviceId: created.id, deviceAlias: 'Till 1' });
      expect(byCode).toEqual(byId);
    });

    it('should find an activated device by its device id, its CD- id and its bare code, as the same record', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const pending = (await getDevice(pbo, created.id))!;
      const { deviceId } = await activate(created.activationCode);
      const byDeviceId = await getDevice(pbo, deviceId);
      expect(byDeviceId).toMatchObject({ deviceId, uuid: pending.uuid, deviceStatus: 1, isDevice: true });
      expect(await getDevice(pbo, created.id)).toEqual(byDeviceId);
      expect(await getDevice(pbo, created.activationCode)).toEqual(byDeviceId);
    });

    it.each([
      ['a CD- id', 'CD-000000000001'],
      ['a bare code', '000000000001'],
      ['a device id', 'SDK0000000000000000000000'],
      ['an id that cannot be an id', 'not an id!'],
    ])('should answer HTTP 200, code 0 and data null for %s that does not exist', async (_label, id) => {
      const pbo = await app.newPbo();
      const response = await pbo.get(`${V1}/device/${encodeURIComponent(id)}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS', data: null });
    });

    it("should refuse another PBO's device by CD- id, bare code and device id with 13000", async () => {
      const foreign = await foreignDevice();
      const pbo = await app.newPbo();
      for (const id of [foreign.created.id, foreign.created.activationCode, foreign.deviceId, foreign.pending.id, foreign.pending.activationCode]) {
        expectEnvelope(await pbo.get(`${V1}/device/${id}`), 403, 13000, /owner info invalid/);
      }
    });

    it('should show a pending code with its fields: deviceToken carrying the code, deviceAdmin masked, JSON-encoded params, no isDevice', async () => {
      const { pbo, merchant, profileId } = await boundMerchant();
      const extParams = { acquirers: { [profileId]: { acqMid: 'M-1', acqTid: 'T-1' } } };
      const emvParams = { terminalType: '21', emvFlags: '1' };
      const created = await createDevice(pbo, {
        mchId: merchant.mchId,
        deviceAlias: 'Front till',
        deviceName: 'Pixel',
        deviceType: 'COTS',
        operatingMode: 'KIOSK',
        deviceAdmin: 'admin-secret',
        extParams,
        emvParams,
      });
      const device = (await getDevice(pbo, created.id))!;
      expect(device).toMatchObject({
        deviceId: created.id,
        mchId: merchant.mchId,
        groupId: pbo.groupId,
        deviceType: 'COTS',
        deviceStatus: 0,
        deviceUpdate: 0,
        deviceAlias: 'Front till',
        deviceName: 'Pixel',
        deviceAdmin: '******',
        operatingMode: 'KIOSK',
        profileId: created.profileId,
        activesAt: null,
      });
      expect(device.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(device.deviceToken)).toEqual({ activationCode: created.activationCode });
      expect(JSON.parse(device.emvParams!)).toEqual(emvParams);
      expect(JSON.parse(device.extParams!)).toEqual(extParams);
      expect(JSON.parse(device.methodList)).toEqual({ '01': { mid: 'M-1', tid: 'T-1' }, '02': { mid: 'M-1', tid: 'T-1' } });
      expect('isDevice' in device).toBe(false);
      expect(device.createdAt).toMatch(TIMESTAMP);
      expect(device.updatedAt).toMatch(TIMESTAMP);
      expect(JSON.stringify(device)).not.toContain('admin-secret');
    });

    it('should show deviceAdmin, emvParams and extParams as null when they were not set', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      expect(await getDevice(pbo, created.id)).toMatchObject({
        deviceAdmin: null,
        emvParams: null,
        extParams: null,
        operatingMode: 'STANDARD',
        deviceType: null,
      });
    });

    it('should show an activated device with isDevice true, deviceStatus 1, activesAt and the app version the phone reported', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const { deviceId } = await activate(created.activationCode);
      const device = (await getDevice(pbo, deviceId))!;
      expect(device).toMatchObject({ deviceId, isDevice: true, deviceStatus: 1, deviceUpdate: 0, appVersion: '1.2.3' });
      expect(device.activesAt).toMatch(TIMESTAMP);
      expect(JSON.parse(device.deviceToken)).toEqual({ activationCode: created.activationCode });
    });
  });

  // ---- GET device (list) ---------------------------------------------------------------------

  describe('GET device list', () => {
    it('should refuse a list without mchId with 10000 naming mchId', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.get(`${V1}/device`), 400, 10000, /mchId/);
    });

    it('should list the devices of the merchant only', async () => {
      const { pbo, merchant } = await boundMerchant();
      const other = await createMerchant(pbo);
      const mine = await createDevice(pbo, { mchId: merchant.mchId });
      await createDevice(pbo, { mchId: other.mchId });
      const page = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}`));
      expect(page).toMatchObject({ total: 1, current: 1, hasNext: false });
      expect(page.records.map((device) => device.deviceId)).toEqual([mine.id]);
    });

    it('should filter by deviceId: the CD- id of a pending code and the device id of an activated one', async () => {
      const { pbo, merchant } = await boundMerchant();
      const pending = await createDevice(pbo, { mchId: merchant.mchId });
      const activated = await createDevice(pbo, { mchId: merchant.mchId });
      const { deviceId } = await activate(activated.activationCode);
      const byCode = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&deviceId=${pending.id}`));
      expect(byCode.total).toBe(1);
      expect(byCode.records.map((device) => device.deviceId)).toEqual([pending.id]);
      const byDevice = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&deviceId=${deviceId}`));
      expect(byDevice.total).toBe(1);
      expect(byDevice.records.map((device) => device.deviceId)).toEqual([deviceId]);
      const none = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&deviceId=CD-000000000001`));
      expect(none).toMatchObject({ total: 0, records: [] });
    });

    it('should filter by deviceType', async () => {
      const { pbo, merchant } = await boundMerchant();
      const cots = await createDevice(pbo, { mchId: merchant.mchId, deviceType: 'COTS' });
      await createDevice(pbo, { mchId: merchant.mchId, deviceType: 'POS' });
      await createDevice(pbo, { mchId: merchant.mchId });
      const page = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&deviceType=COTS`));
      expect(page.total).toBe(1);
      expect(page.records.map((device) => device.deviceId)).toEqual([cots.id]);
    });

    it('should page the list with pageNumber and pageSize, and return all with pageSize -1', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await createDevice(pbo, { mchId: merchant.mchId })).id);
      const first = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&pageSize=2&pageNumber=1`));
      const second = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&pageSize=2&pageNumber=2`));
      expect(first).toMatchObject({ total: 3, current: 1, hasNext: true });
      expect(first.records).toHaveLength(2);
      expect(second).toMatchObject({ total: 3, current: 2, hasNext: false });
      expect(second.records).toHaveLength(1);
      expect([...first.records, ...second.records].map((device) => device.deviceId).sort()).toEqual([...ids].sort());
      const all = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&pageSize=-1`));
      expect(all).toMatchObject({ total: 3, current: 1, hasNext: false });
      expect(all.records).toHaveLength(3);
    });

    it("should refuse the list of another PBO's merchant with 13000", async () => {
      const foreign = await foreignDevice();
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.get(`${V1}/device?mchId=${foreign.merchant.mchId}`), 403, 13000);
    });

    it('should refuse the list of an unknown merchant with 14000', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.get(`${V1}/device?mchId=999999999999999`), 404, 14000);
    });
  });

  // ---- PUT device ----------------------------------------------------------------------------

  describe('PUT device/{deviceId}', () => {
    it('should leave omitted fields unchanged', async () => {
      const { pbo, merchant, profileId } = await boundMerchant();
      const extParams = { acquirers: { [profileId]: { acqMid: 'M-1' } } };
      const created = await createDevice(pbo, {
        mchId: merchant.mchId,
        deviceAlias: 'Till',
        deviceType: 'COTS',
        operatingMode: 'KIOSK',
        deviceAdmin: 'secret-1',
        extParams,
        emvParams: { terminalType: '21' },
      });
      const before = (await getDevice(pbo, created.id))!;
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { deviceName: 'Renamed' }));
      const after = (await getDevice(pbo, created.id))!;
      expect(after).toEqual({ ...before, deviceName: 'Renamed', updatedAt: expect.stringMatching(TIMESTAMP) });
    });

    it('should clear a field sent as null', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, {
        mchId: merchant.mchId,
        deviceAlias: 'Till',
        deviceName: 'Pixel',
        deviceAdmin: 'secret-1',
        emvParams: { terminalType: '21' },
      });
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { deviceAlias: null, deviceAdmin: null, emvParams: null }));
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceAlias: null, deviceName: 'Pixel', deviceAdmin: null, emvParams: null });
    });

    it('should accept extParams and emvParams as JSON-encoded strings', async () => {
      const { pbo, merchant, profileId } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const extParams = { acquirers: { [profileId]: { acqMid: 'M-2', acqTid: 'T-2' } } };
      const emvParams = { terminalCapability: 'E0F0C8' };
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { extParams: JSON.stringify(extParams), emvParams: JSON.stringify(emvParams) }));
      const device = (await getDevice(pbo, created.id))!;
      expect(JSON.parse(device.extParams!)).toEqual(extParams);
      expect(JSON.parse(device.emvParams!)).toEqual(emvParams);
    });

    it.each([
      ['extParams that is not JSON', { extParams: '{not json' }, /extParams/],
      ['emvParams that is not JSON', { emvParams: 'terminalType=21' }, /emvParams/],
      ['extParams sent as an object', { extParams: { acquirers: {} } }, /extParams/],
      ['emvParams with a non-string value', { emvParams: JSON.stringify({ terminalType: 22 }) }, /emvParams\.terminalType/],
      ['a methodList with an unknown code', { methodList: '01,09' }, /methodList.*09/],
    ])('should refuse %s with 10000 and change nothing', async (_label, body, msg) => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, deviceAlias: 'Till' });
      const before = await getDevice(pbo, created.id);
      expectEnvelope(await pbo.put(`${V1}/device/${created.id}`, { deviceAlias: 'Changed', ...body }), 400, 10000, msg);
      expect(await getDevice(pbo, created.id)).toEqual(before);
      expect(await outboxOf(pbo)).toHaveLength(1);
    });

    it("should refuse extParams that drop a field of the profile's enablerParams with 10000 naming it", async () => {
      const { pbo, merchant, a, extParams } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, extParams });
      const response = await pbo.put(`${V1}/device/${created.id}`, { extParams: JSON.stringify({ acquirers: { [a.id]: { acqMid: 'MID-A' } } }) });
      expectEnvelope(response, 400, 10000, new RegExp(`^extParams\\.acquirers\\.${a.id}\\.acqTid is required by acquirer profile ${a.id} \\([^)]+\\)$`));
      expect(JSON.parse((await getDevice(pbo, created.id))!.extParams!)).toEqual(extParams);
      expect(await outboxOf(pbo)).toHaveLength(1);
    });

    it('should queue a second upsert with version 2 and the same profileId when methodList changes', async () => {
      const { pbo, merchant, b, extParams } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, extParams });
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { methodList: '02' }));
      const rows = await outboxOf(pbo);
      expect(rows).toHaveLength(2);
      expect(rows.map((row) => [row.subject, row.payload.version, row.payload.profileId])).toEqual([
        [UPSERT, 1, created.profileId],
        [UPSERT, 2, created.profileId],
      ]);
      expect(rows[1].payload.acceptances).toEqual([expect.objectContaining({ acptName: b.name, supportedPayments: ['MASTERCARD'] })]);
      // A pending code has not pulled anything yet: no update flag.
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceUpdate: 0, profileId: created.profileId });
    });

    it('should flag an activated device with deviceUpdate 1 when extParams change, until its config pull clears it', async () => {
      const { pbo, merchant, a, extParams } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, extParams });
      const activation = await activate(created.activationCode);
      dataOf(
        await pbo.put(`${V1}/device/${activation.deviceId}`, { extParams: JSON.stringify({ acquirers: { [a.id]: { acqMid: 'MID-A', acqTid: 'TID-A2' } } }) }),
      );
      const rows = await outboxOf(pbo);
      expect(rows).toHaveLength(2);
      expect(rows[1].payload).toMatchObject({ version: 2, profileId: created.profileId });
      expect(rows[1].payload.acceptances.find((acceptance) => acceptance.acptName === a.name)).toMatchObject({ primaryTid: 'TID-A2' });
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceUpdate: 1 });
      const config = await pullConfig(activation.deviceToken);
      expect(config.status).toBe(200);
      expect(config.body.data).toMatchObject({ profileId: created.profileId, deviceToken: expect.any(String) });
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceUpdate: 0 });
    });

    it('should flag an activated device with deviceUpdate 1 when its emvParams change, and hand the new values to its config pull', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { emvParams: JSON.stringify({ terminalType: '21' }) }));
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceUpdate: 1 });
      const config = dataOf(await pullConfig(activation.deviceToken));
      expect(config.emvParams).toMatchObject({ terminalType: '21', txnCurrencyCode: '0458' });
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceUpdate: 0 });
    });

    it('should queue no upsert when a PUT leaves the activation profile as it was', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, deviceAlias: 'Till' });
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { deviceType: 'COTS' }));
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceType: 'COTS' });
      expect((await outboxOf(pbo)).map((row) => row.payload.version)).toEqual([1]);
    });

    it('should leave deviceUpdate 0 on an activated device when a PUT changes nothing the device pulls', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, deviceAlias: 'Till' });
      const activation = await activate(created.activationCode);
      dataOf(await pbo.put(`${V1}/device/${activation.deviceId}`, { deviceType: 'COTS' }));
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceType: 'COTS', deviceUpdate: 0 });
    });

    it("should refuse another PBO's device with 13000 and change nothing", async () => {
      const foreign = await foreignDevice();
      const pbo = await app.newPbo();
      const before = await getDevice(foreign.pbo, foreign.deviceId);
      expectEnvelope(await pbo.put(`${V1}/device/${foreign.deviceId}`, { deviceAlias: 'mine now' }), 403, 13000);
      expect(await getDevice(foreign.pbo, foreign.deviceId)).toEqual(before);
    });

    it('should answer 14000 for a device that does not exist', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.put(`${V1}/device/CD-000000000001`, { deviceAlias: 'x' }), 404, 14000);
    });
  });

  // ---- state table ---------------------------------------------------------------------------

  describe('state table: activation code / device', () => {
    it('should turn a pending code into an active device when the phone activates it', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      expect(activation).toMatchObject({
        deviceId: expect.stringMatching(/^SDK[0-9A-F]{20}$/),
        namespace: 'demo',
        profileId: created.profileId,
        deviceToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      });
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceId: activation.deviceId, deviceStatus: 1, isDevice: true });
      expect(dataOf(await pullConfig(activation.deviceToken))).toMatchObject({ profileId: created.profileId });
    });

    it('should refuse a second activation with the same code with 409 / 10000', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const { deviceId } = await activate(created.activationCode);
      expectEnvelope(await app.anonymous.post(`${SDK}/activate`, { activationCode: created.activationCode }), 409, 10000, /already used/);
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceId, deviceStatus: 1 });
    });

    it('should log an active device out with deviceStatus=2, after which its config pull is refused with 401 / 11000', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=2`));
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceStatus: 2, isDevice: true });
      expectEnvelope(await pullConfig(activation.deviceToken), 401, 11000);
    });

    it('should decommission an active device with deviceStatus=3, after which PUT, idle and delete are refused with 409', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, deviceAlias: 'Till' });
      const activation = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=3`));
      const decommissioned = await getDevice(pbo, activation.deviceId);
      expect(decommissioned).toMatchObject({ deviceStatus: 3, deviceAlias: 'Till' });
      expectEnvelope(await pullConfig(activation.deviceToken), 401, 11000);
      expectEnvelope(await pbo.put(`${V1}/device/${activation.deviceId}`, { deviceAlias: 'Again' }), 409, 10000, /decommissioned/);
      expectEnvelope(await pbo.delete(`${V1}/device/${created.id}/idle`), 409, 10000, /decommissioned/);
      expectEnvelope(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=2`), 409, 10000, /decommissioned/);
      expectEnvelope(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=3`), 409, 10000, /decommissioned/);
      expect(await getDevice(pbo, activation.deviceId)).toEqual(decommissioned);
    });

    it('should refuse to activate the code of a decommissioned device', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=3`));
      expectEnvelope(await app.anonymous.post(`${SDK}/activate`, { activationCode: created.activationCode }), 409, 10000, /decommissioned/);
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceId: activation.deviceId, deviceStatus: 3 });
    });

    it('should idle a pending code, which can then be activated', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      dataOf(await pbo.delete(`${V1}/device/${created.id}/idle`));
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceId: created.id, deviceStatus: 4 });
      const activation = await activate(created.activationCode);
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceId: activation.deviceId, deviceStatus: 1, isDevice: true });
    });

    it("should idle an active device: the old phone's config pull is refused and a re-activation gets a new device id", async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const first = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V1}/device/${created.id}/idle`));
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceStatus: 4 });
      expectEnvelope(await pullConfig(first.deviceToken), 401, 11000);
      const second = await activate(created.activationCode);
      expect(second.deviceId).toMatch(/^SDK[0-9A-F]{20}$/);
      expect(second.deviceId).not.toBe(first.deviceId);
      expect(second.profileId).toBe(created.profileId);
      expect(await getDevice(pbo, second.deviceId)).toMatchObject({ deviceStatus: 1 });
      expect(await getDevice(pbo, first.deviceId)).toBeNull();
      expectEnvelope(await pullConfig(first.deviceToken), 401, 11000);
      expect(dataOf(await pullConfig(second.deviceToken))).toMatchObject({ deviceId: second.deviceId });
    });

    it('should idle a logged-out device so that its code can be activated again', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const first = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V1}/device/${first.deviceId}?deviceStatus=2`));
      dataOf(await pbo.delete(`${V1}/device/${first.deviceId}/idle`));
      const second = await activate(created.activationCode);
      expect(second.deviceId).not.toBe(first.deviceId);
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceId: second.deviceId, deviceStatus: 1 });
    });

    it('should delete a pending code by its CD- id: GET answers data null and the code no longer activates (14000)', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      dataOf(await pbo.delete(`${V1}/device/${created.id}`));
      expect(await getDevice(pbo, created.id)).toBeNull();
      expect(await getDevice(pbo, created.activationCode)).toBeNull();
      expect(await devicesOf(pbo)).toBe(0);
      expectEnvelope(await app.anonymous.post(`${SDK}/activate`, { activationCode: created.activationCode }), 404, 14000);
    });

    it('should delete a pending code by its bare code', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      dataOf(await pbo.delete(`${V1}/device/${created.activationCode}`));
      expect(await devicesOf(pbo)).toBe(0);
    });

    it('should refuse to delete the CD- id of an activated code with 409 and keep the device active', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      expectEnvelope(await pbo.delete(`${V1}/device/${created.id}`), 409, 10000, new RegExp(`^activation code ${created.id} was activated as device ${activation.deviceId}; log it out or decommission it by its device id$`));
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceStatus: 1 });
      expect(dataOf(await pullConfig(activation.deviceToken))).toMatchObject({ deviceId: activation.deviceId });
    });

    it('should refuse to delete a device id without deviceStatus with 10000 naming deviceStatus', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      expectEnvelope(await pbo.delete(`${V1}/device/${activation.deviceId}`), 400, 10000, /deviceStatus/);
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceStatus: 1 });
    });

    it.each(['5', '1', 'x'])('should refuse deviceStatus=%s with 10000 naming deviceStatus', async (status) => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      expectEnvelope(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=${status}`), 400, 10000, /deviceStatus/);
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceStatus: 1 });
    });

    it('should refuse to log out a code that was never activated with 409', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      expectEnvelope(await pbo.delete(`${V1}/device/${created.id}?deviceStatus=2`), 409, 10000, /never activated/);
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceStatus: 0 });
    });

    it('should answer 14000 when deleting or idling a device that does not exist', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.delete(`${V1}/device/CD-000000000001`), 404, 14000);
      expectEnvelope(await pbo.delete(`${V1}/device/CD-000000000001/idle`), 404, 14000);
    });
  });

  // ---- merchant rules ------------------------------------------------------------------------

  describe('merchant rules', () => {
    it('should find the merchant of an activation code in the merchant list by the bare code and by the CD- id', async () => {
      const { pbo, merchant } = await unboundMerchant();
      await createMerchant(pbo);
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      for (const value of [created.activationCode, created.id]) {
        const page = dataOf<Page<MerchantView>>(await pbo.get(`${V1}/mchInfo?activationCode=${value}`));
        expect(page.total).toBe(1);
        expect(page.records.map((record) => record.mchId)).toEqual([merchant.mchId]);
      }
      const unknown = dataOf<Page<MerchantView>>(await pbo.get(`${V1}/mchInfo?activationCode=000000000001`));
      expect(unknown).toMatchObject({ total: 0, records: [] });
    });

    it("should not find another PBO's merchant by its activation code", async () => {
      const foreign = await foreignDevice();
      const pbo = await app.newPbo();
      const page = dataOf<Page<MerchantView>>(await pbo.get(`${V1}/mchInfo?activationCode=${foreign.pending.activationCode}`));
      expect(page).toMatchObject({ total: 0, records: [] });
    });

    it('should refuse to delete a merchant while it has a pending code, and delete it once the code is deleted', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      expectEnvelope(await pbo.delete(`${V1}/mchInfo/${merchant.mchId}`), 409, 10000, /activation code/);
      dataOf(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`));
      dataOf(await pbo.delete(`${V1}/device/${created.id}`));
      dataOf(await pbo.delete(`${V1}/mchInfo/${merchant.mchId}`));
      expectEnvelope(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`), 404, 14000);
    });

    it.each([
      ['an idle code', async (pbo: Pbo, created: CreatedCode) => dataOf(await pbo.delete(`${V1}/device/${created.id}/idle`))],
      [
        'a logged-out device',
        async (pbo: Pbo, created: CreatedCode) => dataOf(await pbo.delete(`${V1}/device/${(await activate(created.activationCode)).deviceId}?deviceStatus=2`)),
      ],
    ])('should refuse to delete a merchant while it has %s', async (_label, arrange) => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      await arrange(pbo, created);
      expectEnvelope(await pbo.delete(`${V1}/mchInfo/${merchant.mchId}`), 409, 10000);
      expect(await devicesOf(pbo)).toBe(1);
    });

    it('should delete a merchant whose only device is decommissioned, and its device with it', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const { deviceId } = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V1}/device/${deviceId}?deviceStatus=3`));
      dataOf(await pbo.delete(`${V1}/mchInfo/${merchant.mchId}`));
      expect(await devicesOf(pbo)).toBe(0);
      expect(await getDevice(pbo, deviceId)).toBeNull();
    });

    it('should show hasKioskTerminal true with a pending KIOSK device and false once it is deleted', async () => {
      const { pbo, merchant } = await unboundMerchant();
      expect(merchant.hasKioskTerminal).toBe(false);
      const created = await createDevice(pbo, { mchId: merchant.mchId, operatingMode: 'KIOSK' });
      expect(dataOf<MerchantView>(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`)).hasKioskTerminal).toBe(true);
      const listed = dataOf<Page<MerchantView>>(await pbo.get(`${V1}/mchInfo?mchId=${merchant.mchId}`));
      expect(listed.records[0].hasKioskTerminal).toBe(true);
      dataOf(await pbo.delete(`${V1}/device/${created.id}`));
      expect(dataOf<MerchantView>(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`)).hasKioskTerminal).toBe(false);
    });

    it('should show hasKioskTerminal true with an active KIOSK device and false once it is decommissioned', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, operatingMode: 'KIOSK' });
      const { deviceId } = await activate(created.activationCode);
      expect(dataOf<MerchantView>(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`)).hasKioskTerminal).toBe(true);
      dataOf(await pbo.delete(`${V1}/device/${deviceId}?deviceStatus=3`));
      expect(dataOf<MerchantView>(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`)).hasKioskTerminal).toBe(false);
    });

    it('should show hasKioskTerminal false with only STANDARD devices', async () => {
      const { pbo, merchant } = await unboundMerchant();
      await createDevice(pbo, { mchId: merchant.mchId });
      await createDevice(pbo, { mchId: merchant.mchId, operatingMode: 'STANDARD' });
      expect(dataOf<MerchantView>(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`)).hasKioskTerminal).toBe(false);
    });
  });

  // ---- GET device/emv/{deviceId} -------------------------------------------------------------

  describe('GET device/emv/{deviceId}', () => {
    it("should resolve the defaults from the merchant's currency and country", async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const emv = dataOf<{ emvParams: Record<string, string> }>(await pbo.get(`${V1}/device/emv/${created.id}`));
      expect(emv.emvParams).toEqual({
        amexFloorLimit: '0',
        txnCurrencyCode: '0458',
        terminalCountryCode: '0458',
        terminalType: '22',
        terminalCapability: 'E0F8C8',
        emvFlags: '0',
      });
    });

    it("should let the device's own emvParams override the defaults", async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, emvParams: { terminalType: '21', terminalCountryCode: '0702' } });
      const emv = dataOf<{ emvParams: Record<string, string> }>(await pbo.get(`${V1}/device/emv/${created.id}`));
      expect(emv.emvParams).toEqual({
        amexFloorLimit: '0',
        txnCurrencyCode: '0458',
        terminalCountryCode: '0702',
        terminalType: '21',
        terminalCapability: 'E0F8C8',
        emvFlags: '0',
      });
    });

    it('should list the AIDs of the bound EMV configs with their payment method codes', async () => {
      const { pbo, merchant, extParams } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, extParams });
      const emv = dataOf<{ emvAID: { aid: string; paymentMethod: string }[] }>(await pbo.get(`${V1}/device/emv/${created.id}`));
      expect(emv.emvAID).toHaveLength(2);
      expect(emv.emvAID).toEqual(
        expect.arrayContaining([
          { aid: VISA_AID, paymentMethod: '01' },
          { aid: MASTERCARD_AID, paymentMethod: '02' },
        ]),
      );
    });

    it("should list only the AIDs of the device's methodList", async () => {
      const { pbo, merchant } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, methodList: '02' });
      const emv = dataOf<{ emvAID: unknown[] }>(await pbo.get(`${V1}/device/emv/${created.id}`));
      expect(emv.emvAID).toEqual([{ aid: MASTERCARD_AID, paymentMethod: '02' }]);
    });

    it('should answer an empty emvAID when no acquirer matches', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      expect(dataOf(await pbo.get(`${V1}/device/emv/${created.id}`))).toMatchObject({ emvAID: [] });
    });

    it('should answer what the device received at activation, by its device id', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, emvParams: { emvFlags: '3' } });
      const activation = await activate(created.activationCode);
      const emv = dataOf(await pbo.get(`${V1}/device/emv/${activation.deviceId}`));
      expect(emv).toEqual({ emvParams: activation.emvParams, emvAID: activation.emvAID });
    });
  });

  // ---- POST device/code ----------------------------------------------------------------------

  describe('POST device/code', () => {
    /** The raw messages written for `to` (tests run with the file transport). */
    async function mailTo(to: string): Promise<string[]> {
      const directory = (app.options.mail as { directory: string }).directory;
      const files = await readdir(directory).catch(() => [] as string[]);
      const raws = await Promise.all(files.map((file) => readFile(join(directory, file), 'utf8')));
      return raws.filter((raw) => raw.includes(to));
    }

    it('should e-mail a pending code to the given address', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const to = `${unique('owner-')}@example.com`;
      dataOf(await pbo.post(`${V1}/device/code`, { deviceId: created.id, email: to }));
      const messages = await mailTo(to);
      expect(messages).toHaveLength(1);
      const code = created.activationCode;
      expect(messages[0]).toContain(`${code.slice(0, 4)} ${code.slice(4, 8)} ${code.slice(8)}`);
      expect(messages[0]).toContain(merchant.mchId);
    });

    it('should refuse to e-mail the code of an activated device with 409 and send nothing', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      await activate(created.activationCode);
      const to = `${unique('owner-')}@example.com`;
      expectEnvelope(await pbo.post(`${V1}/device/code`, { deviceId: created.id, email: to }), 409, 10000, /already used/);
      expect(await mailTo(to)).toHaveLength(0);
    });
  });

  // ---- tenancy -------------------------------------------------------------------------------

  describe('tenancy', () => {
    let foreign: Awaited<ReturnType<typeof foreignDevice>>;
    let pbo: Pbo;
    let before: { devices: Device[]; outbox: number };

    beforeAll(async () => {
      foreign = await foreignDevice();
      pbo = await app.newPbo();
      before = {
        devices: dataOf<Page<Device>>(await foreign.pbo.get(`${V1}/device?mchId=${foreign.merchant.mchId}&pageSize=-1`)).records,
        outbox: (await outboxOf(foreign.pbo)).length,
      };
    });

    const routes: [string, (f: Awaited<ReturnType<typeof foreignDevice>>) => [method: string, path: string, body?: Body]][] = [
      ['GET device/{id} by device id', (f) => ['GET', `${V1}/device/${f.deviceId}`]],
      ['GET device/{id} by CD- id', (f) => ['GET', `${V1}/device/${f.pending.id}`]],
      ['GET device list', (f) => ['GET', `${V1}/device?mchId=${f.merchant.mchId}`]],
      ['POST device', (f) => ['POST', `${V1}/device`, { mchId: f.merchant.mchId }]],
      ['PUT device/{id}', (f) => ['PUT', `${V1}/device/${f.deviceId}`, { deviceAlias: 'x' }]],
      ['DELETE device/{CD-id}', (f) => ['DELETE', `${V1}/device/${f.pending.id}`]],
      ['DELETE device/{id}?deviceStatus=2', (f) => ['DELETE', `${V1}/device/${f.deviceId}?deviceStatus=2`]],
      ['DELETE device/{id}?deviceStatus=3', (f) => ['DELETE', `${V1}/device/${f.deviceId}?deviceStatus=3`]],
      ['DELETE device/{code}/idle', (f) => ['DELETE', `${V1}/device/${f.pending.id}/idle`]],
      ['POST device/code', (f) => ['POST', `${V1}/device/code`, { deviceId: f.pending.id, email: 'thief@example.com' }]],
      ['GET device/emv/{id}', (f) => ['GET', `${V1}/device/emv/${f.deviceId}`]],
    ];

    it.each(routes)("should refuse %s of another PBO's device with 403 / 13000", async (_label, route) => {
      const [method, path, body] = route(foreign);
      expectEnvelope(await pbo.request(method, path, body), 403, 13000);
    });

    it("should leave the other PBO's devices and outbox untouched after all those attempts", async () => {
      for (const [, route] of routes) {
        const [method, path, body] = route(foreign);
        await pbo.request(method, path, body);
      }
      const after = dataOf<Page<Device>>(await foreign.pbo.get(`${V1}/device?mchId=${foreign.merchant.mchId}&pageSize=-1`)).records;
      expect(after).toEqual(before.devices);
      expect(await outboxOf(foreign.pbo)).toHaveLength(before.outbox);
      expect(await devicesOf(pbo)).toBe(0);
    });

    it('should not accept a device token in place of a PBO token, nor a PBO token for the config pull', async () => {
      const { pbo: owner, merchant } = await boundMerchant();
      const created = await createDevice(owner, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      expectEnvelope(await new ApiClient(app.baseUrl, activation.deviceToken).get(`${V1}/device/${activation.deviceId}`), 401, 11000);
      expectEnvelope(await new ApiClient(app.baseUrl, owner.token).get(`${SDK}/config`), 401, 11000);
      expectEnvelope(await app.anonymous.get(`${SDK}/config`), 401, 11000);
    });
  });
});
