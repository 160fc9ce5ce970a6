import { ApiClient, EnvelopeBody, HttpResponse, queryDatabase } from '@app/testing';
import { createCardAcquirer, createMerchant, MerchantView } from './factories';
import { createLegacyDevice, LegacyDevice, legacyDeviceBody, V2 } from './legacy-factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Legacy devices and activation codes (`/api/v2/device`; docs/decisions.md, "Legacy /api/v2")
 * over the same service as v1: `activateCodeAlias`, `methodList` as a JSON-encoded map with key
 * `all`, `extParams` as a JSON string or an object with acqMid/acqTid, the legacy response
 * fields, and exactly the activation profile and outbox row the v1 create gives for equivalent
 * input.
 */

const V1 = '/api/openapi/v1';
const SDK = '/api/sdk/v1';
const UPSERT = 'gateway.profile.upsert.v1';

type Pbo = ApiClient & { groupId: string };
type Body = Record<string, unknown>;

interface V1Device {
  deviceId: string;
  uuid: string;
  deviceAlias: string | null;
  deviceType: string | null;
  deviceStatus: number;
  methodList: string;
  profileId: string | null;
  emvParams: string | null;
  extParams: string | null;
  isDevice?: boolean;
  [key: string]: unknown;
}

interface Upsert {
  profileId: string;
  version: number;
  profileName: string;
  deviceId: string;
  acceptances: { acptName: string; supportedPayments: string[]; primaryMid: string | null; primaryTid: string | null }[];
  [key: string]: unknown;
}

interface PageView<T> {
  total: number;
  current: number;
  hasNext: boolean;
  records: T[];
}

function expectEnvelope(response: HttpResponse<EnvelopeBody>, status: number, code: number, msg: RegExp = /\S/): void {
  expect({ status: response.status, code: response.body.code, msg: response.body.msg }).toEqual({ status, code, msg: expect.stringMatching(msg) });
}

/** What must be equal between two devices created from equivalent input (ids and times differ). */
function comparable(device: V1Device): Body {
  const { deviceId: _id, uuid: _uuid, deviceToken: _token, profileId, createdAt: _c, updatedAt: _u, expiresAt: _e, ...fields } = device;
  return { ...fields, hasProfile: profileId !== null, extParams: device.extParams === null ? null : JSON.parse(device.extParams) };
}

function comparableUpsert({ profileId: _profileId, deviceId: _deviceId, ...fields }: Upsert): Body {
  return fields;
}

describe('legacy devices /api/v2/device', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  // ---- helpers -------------------------------------------------------------------------------

  const readV1 = async (pbo: ApiClient, id: string) => dataOf<V1Device | null>(await pbo.get(`${V1}/device/${id}`));
  const listV2 = async (pbo: ApiClient, mchId: string, query = 'pageSize=-1') =>
    dataOf<PageView<LegacyDevice>>(await pbo.get(`${V2}/device?mchId=${mchId}&${query}`));
  const readV2 = async (pbo: ApiClient, mchId: string, id: string) => {
    const page = await listV2(pbo, mchId, `deviceId=${id}`);
    expect(page.total).toBe(1);
    return page.records[0];
  };
  const devicesOf = async (pbo: Pbo) =>
    Number(
      (await queryDatabase<{ n: string }>(app.database.url, 'SELECT count(*) AS n FROM merchant_management.device WHERE group_id = $1', [pbo.groupId]))[0].n,
    );

  async function upsertsOf(deviceUuid: string): Promise<Upsert[]> {
    const rows = await queryDatabase<{ payload: Upsert }>(
      app.database.url,
      `SELECT payload FROM merchant_management.outbox WHERE subject = $1 AND payload->>'deviceId' = $2 ORDER BY (payload->>'version')::int`,
      [UPSERT, deviceUuid],
    );
    return rows.map((row) => row.payload);
  }

  async function bind(pbo: ApiClient, mchId: string, profileId: number, extra: Body = {}): Promise<void> {
    dataOf(await pbo.post(`${V1}/mchInfo/payment/${mchId}`, { acquirerProfileId: String(profileId), currency: 'MYR', ...extra }));
  }

  async function createV1Device(pbo: ApiClient, body: Body): Promise<{ id: string; activationCode: string; profileId: string | null }> {
    return dataOf(await pbo.post(`${V1}/device`, body));
  }

  async function activate(code: string): Promise<{ deviceId: string }> {
    return dataOf(await app.anonymous.post(`${SDK}/activate`, { activationCode: code }));
  }

  /**
   * A merchant bound to A (VISA, enablerParams acqMid,acqTid: a device must carry both) and to B
   * (MASTERCARD, S2M_8583, binding mid MID-9).
   */
  async function twoAcquirers(): Promise<{ pbo: Pbo; merchant: MerchantView; a: number; b: number }> {
    const pbo = await app.newPbo();
    const a = await createCardAcquirer(pbo, ['01'], { profileName: `A-${pbo.groupId}`, enablerParams: 'acqMid,acqTid' });
    const b = await createCardAcquirer(pbo, ['02'], { profileName: `B-${pbo.groupId}`, connMessageFormat: 'S2M_8583', enablerMsgFormat: undefined });
    const merchant = await createMerchant(pbo, { country: 'MY' });
    await bind(pbo, merchant.mchId, a.id);
    await bind(pbo, merchant.mchId, b.id, { mid: 'MID9' });
    return { pbo, merchant, a: a.id, b: b.id };
  }

  /** A merchant bound to one VISA/MASTERCARD profile without enablerParams. */
  async function boundMerchant(): Promise<{ pbo: Pbo; merchant: MerchantView; profileId: number }> {
    const pbo = await app.newPbo();
    const acquirer = await createCardAcquirer(pbo, ['01', '02']);
    const merchant = await createMerchant(pbo, { country: 'MY' });
    await bind(pbo, merchant.mchId, acquirer.id);
    return { pbo, merchant, profileId: acquirer.id };
  }

  /**
   * Creates a device through v1 and one through v2 from equivalent input and expects the same
   * stored device (read through v1) and the same outbox row.
   */
  async function expectParity(pbo: Pbo, v1Body: Body, v2Body: Body): Promise<{ v1: V1Device; v2: V1Device; upsert: Upsert }> {
    const v1Created = await createV1Device(pbo, v1Body);
    const v2Created = await createLegacyDevice(pbo, v1Body.mchId as string, v2Body);
    const v1 = (await readV1(pbo, v1Created.id))!;
    const v2 = (await readV1(pbo, v2Created.id))!;
    expect(comparable(v2)).toEqual(comparable(v1));
    const [v1Upserts, v2Upserts] = [await upsertsOf(v1.uuid), await upsertsOf(v2.uuid)];
    expect(v1Upserts).toHaveLength(1);
    expect(v2Upserts.map(comparableUpsert)).toEqual(v1Upserts.map(comparableUpsert));
    expect(v2Upserts[0]).toMatchObject({ profileId: v2.profileId, deviceId: v2.uuid, version: 1 });
    return { v1, v2, upsert: v2Upserts[0] };
  }

  // ---- POST ----------------------------------------------------------------------------------

  describe('POST: the same activation profile and outbox row as v1', () => {
    it('should answer {id, activationCode} only', async () => {
      const { pbo, merchant } = await boundMerchant();
      const response = await pbo.post(`${V2}/device`, legacyDeviceBody(merchant.mchId));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        code: 0,
        msg: 'SUCCESS',
        data: { id: expect.stringMatching(/^CD-\d{12}$/), activationCode: expect.stringMatching(/^\d{12}$/) },
      });
      const { id, activationCode } = response.body.data as { id: string; activationCode: string };
      expect(id).toBe(`CD-${activationCode}`);
    });

    it('should store activateCodeAlias as the v1 deviceAlias, and the deviceType', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createLegacyDevice(pbo, merchant.mchId, { activateCodeAlias: 'Front till', deviceType: 'COTS' });
      expect(await readV1(pbo, created.id)).toMatchObject({ deviceAlias: 'Front till', deviceType: 'COTS', deviceStatus: 0 });
    });

    it('should equal v1 with acqMid/acqTid kept for every acquirer (allAcquirers) for methodList {"all": {mid, tid}}', async () => {
      const { pbo, merchant } = await twoAcquirers();
      const ids = { acqMid: 'MIDALL', acqTid: 'TIDALL' };
      const { upsert } = await expectParity(
        pbo,
        { mchId: merchant.mchId, deviceAlias: 'Till', deviceType: 'COTS', extParams: { allAcquirers: ids } },
        { activateCodeAlias: 'Till', deviceType: 'COTS', methodList: JSON.stringify({ all: { mid: 'MIDALL', tid: 'TIDALL' } }) },
      );
      expect(upsert.acceptances.map((x) => [x.supportedPayments, x.primaryMid, x.primaryTid])).toEqual([
        [['VISA'], 'MIDALL', 'TIDALL'],
        [['MASTERCARD'], 'MIDALL', 'TIDALL'],
      ]);
    });

    it('should equal v1 for extParams as an object with acqMid/acqTid', async () => {
      const { pbo, merchant } = await twoAcquirers();
      const ids = { acqMid: 'MIDOBJ', acqTid: 'TIDOBJ' };
      await expectParity(
        pbo,
        { mchId: merchant.mchId, deviceAlias: 'Till', deviceType: 'COTS', extParams: { allAcquirers: ids } },
        { activateCodeAlias: 'Till', deviceType: 'COTS', extParams: ids },
      );
    });

    it('should equal v1 for extParams as a JSON string', async () => {
      const { pbo, merchant } = await twoAcquirers();
      const ids = { acqMid: 'MIDSTR', acqTid: 'TIDSTR' };
      await expectParity(
        pbo,
        { mchId: merchant.mchId, deviceAlias: 'Till', deviceType: 'COTS', extParams: { allAcquirers: ids } },
        { activateCodeAlias: 'Till', deviceType: 'COTS', extParams: JSON.stringify(ids) },
      );
    });

    it('should equal v1 for extParams holding per-acquirer fields (the v1 form), as object or string', async () => {
      const { pbo, merchant, a } = await twoAcquirers();
      const extParams = { acquirers: { [a]: { acqMid: 'MIDA', acqTid: 'TIDA' } } };
      await expectParity(
        pbo,
        { mchId: merchant.mchId, deviceAlias: 'Till', deviceType: 'COTS', extParams },
        { activateCodeAlias: 'Till', deviceType: 'COTS', extParams },
      );
      await expectParity(
        pbo,
        { mchId: merchant.mchId, deviceAlias: 'Till', deviceType: 'COTS', extParams },
        { activateCodeAlias: 'Till', deviceType: 'COTS', extParams: JSON.stringify(extParams) },
      );
    });

    it('should equal v1 without methodList or extParams (no enablerParams to satisfy)', async () => {
      const { pbo, merchant } = await boundMerchant();
      const { upsert } = await expectParity(
        pbo,
        { mchId: merchant.mchId, deviceAlias: 'Till', deviceType: 'COTS', deviceAdmin: 'secret-1', emvParams: { terminalType: '21' } },
        { activateCodeAlias: 'Till', deviceType: 'COTS', deviceAdmin: 'secret-1', emvParams: { terminalType: '21' } },
      );
      expect(upsert.acceptances.map((x) => x.supportedPayments)).toEqual([['VISA', 'MASTERCARD']]);
    });

    it('should equal v1 for a comma-separated methodList', async () => {
      const { pbo, merchant } = await boundMerchant();
      const { upsert } = await expectParity(
        pbo,
        { mchId: merchant.mchId, deviceAlias: 'Till', deviceType: 'COTS', methodList: '02' },
        { activateCodeAlias: 'Till', deviceType: 'COTS', methodList: '02' },
      );
      expect(upsert.acceptances.map((x) => x.supportedPayments)).toEqual([['MASTERCARD']]);
    });

    it('should equal v1 for a merchant without binding: no profile, nothing queued, the MID/TID kept (not dropped)', async () => {
      const pbo = await app.newPbo();
      const merchant = await createMerchant(pbo);
      const kept = { acqMid: 'M', acqTid: 'T' };
      const v1 = await createV1Device(pbo, { mchId: merchant.mchId, deviceAlias: 'Till', deviceType: 'COTS', extParams: { allAcquirers: kept } });
      const v2 = await createLegacyDevice(pbo, merchant.mchId, { activateCodeAlias: 'Till', methodList: JSON.stringify({ all: { mid: 'M', tid: 'T' } }) });
      const [v1Read, v2Read] = [(await readV1(pbo, v1.id))!, (await readV1(pbo, v2.id))!];
      expect(comparable(v2Read)).toEqual(comparable(v1Read));
      expect(v2Read).toMatchObject({ profileId: null, extParams: JSON.stringify({ allAcquirers: kept }) });
      expect((await readV2(pbo, merchant.mchId, v2.id)).extParams).toEqual({ acqMid: 'M', acqTid: 'T', acquirers: {} });
      expect(await upsertsOf(v2Read.uuid)).toEqual([]);
    });

    it('should let extParams fields win over the MID/TID of methodList.all', async () => {
      const { pbo, merchant } = await twoAcquirers();
      await expectParity(
        pbo,
        {
          mchId: merchant.mchId,
          deviceAlias: 'Till',
          deviceType: 'COTS',
          extParams: { allAcquirers: { acqMid: 'MIDX', acqTid: 'TIDALL' } },
        },
        {
          activateCodeAlias: 'Till',
          deviceType: 'COTS',
          methodList: JSON.stringify({ all: { mid: 'MIDALL', tid: 'TIDALL' } }),
          extParams: { acqMid: 'MIDX' },
        },
      );
    });

    it("should refuse, like v1, a device that lacks an acquirer's enablerParams fields with 10000, writing nothing", async () => {
      const { pbo, merchant, a } = await twoAcquirers();
      const v1 = await pbo.post(`${V1}/device`, { mchId: merchant.mchId, deviceType: 'COTS' });
      const v2 = await pbo.post(`${V2}/device`, legacyDeviceBody(merchant.mchId, { methodList: JSON.stringify({ all: { mid: 'MIDONLY' } }) }));
      expectEnvelope(v1, 400, 10000, new RegExp(`^extParams\\.acquirers\\.${a}\\.acqMid is required`));
      expectEnvelope(v2, 400, 10000, new RegExp(`^extParams\\.acquirers\\.${a}\\.acqTid is required`));
      expect(await devicesOf(pbo)).toBe(0);
    });

    it.each([
      ['no activateCodeAlias', { activateCodeAlias: undefined }, /^activateCodeAlias is required/],
      ['no deviceType', { deviceType: undefined }, /^deviceType is required/],
      ['no mchId', { mchId: undefined }, /^mchId is required/],
      ['the v1 deviceAlias', { deviceAlias: 'Till' }, /^deviceAlias is not an accepted field/],
      ['a methodList map with a key other than all', { methodList: JSON.stringify({ '01': { mid: 'M' } }) }, /^methodList\.01 is not an accepted key/],
      ['a methodList.all that is not an object', { methodList: JSON.stringify({ all: 'M' }) }, /^methodList\.all must be an object/],
      ['a methodList.all.mid that is not a string', { methodList: JSON.stringify({ all: { mid: 12345 } }) }, /^methodList\.all\.mid must be a string/],
      [
        'a methodList.all with an unknown field',
        { methodList: JSON.stringify({ all: { mid: 'M', sub: 'S' } }) },
        /^methodList\.all\.sub is not an accepted field/,
      ],
      ['a methodList map that is not JSON', { methodList: '{all:' }, /^methodList must be a JSON-encoded object/],
      ['a methodList with an unknown code', { methodList: '01,09' }, /^methodList contains 09/],
      ['extParams text that is not JSON', { extParams: 'acqMid=1' }, /^extParams must be a JSON object or a JSON-encoded object/],
      ['extParams as an array', { extParams: [{ acqMid: '1' }] }, /^extParams must be a JSON object or a JSON-encoded object/],
      ['an extParams field that is not a string', { extParams: { acqMid: 1 } }, /^extParams\.acqMid must be a string/],
      ['an extParams field longer than 64', { extParams: { acqMid: 'x'.repeat(65) } }, /^extParams\.acqMid must be a string of 1 to 64/],
      ['emvParams with an unknown key', { emvParams: { colour: 'red' } }, /^emvParams\.colour is not an EMV terminal parameter/],
      ['emvParams as a string', { emvParams: '{"terminalType":"22"}' }, /^emvParams must be a JSON object/],
      ['a short deviceAdmin', { deviceAdmin: 'abc' }, /^deviceAdmin must be longer than or equal to 4/],
    ])('should refuse %s with 400 and 10000 naming the field, writing nothing', async (_case, overrides, msg) => {
      const { pbo, merchant } = await boundMerchant();
      expectEnvelope(await pbo.post(`${V2}/device`, legacyDeviceBody(merchant.mchId, overrides)), 400, 10000, msg);
      expect(await devicesOf(pbo)).toBe(0);
    });

    it("should accept a groupId equal to the token's", async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createLegacyDevice(pbo, merchant.mchId, { groupId: pbo.groupId });
      expect((await readV1(pbo, created.id))!.groupId).toBe(pbo.groupId);
    });

    it("should refuse a groupId other than the token's with 403 and 13000, writing nothing", async () => {
      const { pbo, merchant } = await boundMerchant();
      expectEnvelope(await pbo.post(`${V2}/device`, legacyDeviceBody(merchant.mchId, { groupId: 'another-group' })), 403, 13000, /groupId/);
      expect(await devicesOf(pbo)).toBe(0);
    });

    it("should refuse another PBO's merchant with 403 and 13000, writing nothing", async () => {
      const { pbo: owner, merchant } = await boundMerchant();
      const other = await app.newPbo();
      expectEnvelope(await other.post(`${V2}/device`, legacyDeviceBody(merchant.mchId)), 403, 13000);
      expect(await devicesOf(owner)).toBe(0);
      expect(await devicesOf(other)).toBe(0);
    });

    it('should answer 404 and 14000 for a merchant that does not exist', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.post(`${V2}/device`, legacyDeviceBody('999999999999999')), 404, 14000);
    });
  });

  // ---- GET -----------------------------------------------------------------------------------

  describe('GET: the legacy fields', () => {
    it('should show a v1-created pending code with the legacy fields', async () => {
      const { pbo, merchant, a } = await twoAcquirers();
      const created = await createV1Device(pbo, {
        mchId: merchant.mchId,
        deviceAlias: 'Till',
        deviceType: 'COTS',
        deviceAdmin: 'secret-1',
        emvParams: { terminalType: '21' },
        extParams: { acquirers: { [a]: { acqMid: 'MIDA', acqTid: 'TIDA' } } },
      });
      const v1 = (await readV1(pbo, created.id))!;
      const legacy = await readV2(pbo, merchant.mchId, created.id);
      expect(legacy).toEqual({
        deviceId: created.id,
        uuid: v1.uuid,
        mchId: merchant.mchId,
        groupId: pbo.groupId,
        deviceType: 'COTS',
        deviceStatus: 0,
        deviceUpdate: 0,
        activateCodeAlias: 'Till',
        deviceAdmin: '******',
        appVersion: null,
        methodList: v1.methodList,
        profileId: created.profileId,
        emvParams: { terminalType: '21' },
        extParams: { acqMid: 'MIDA', acqTid: 'TIDA', acquirers: { [a]: { acqMid: 'MIDA', acqTid: 'TIDA' } } },
        serverUrl: null,
        customerId: 'demo',
        licenseId: null,
        signKeyId: null,
        cardBdkId: null,
        activesAt: null,
        createdAt: v1.createdAt,
        updatedAt: v1.updatedAt,
        isDevice: false,
      });
      expect(JSON.parse(legacy.methodList)).toEqual({ '01': { mid: 'MIDA', tid: 'TIDA' }, '02': { mid: 'MID9', tid: null } });
    });

    it('should show a v2-created code the same as v1 does, field for field', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createLegacyDevice(pbo, merchant.mchId, { activateCodeAlias: 'Till', extParams: { acqMid: 'M1', acqTid: 'T1' } });
      const v1 = (await readV1(pbo, created.id))!;
      const legacy = await readV2(pbo, merchant.mchId, created.id);
      expect(legacy).toMatchObject({
        deviceId: v1.deviceId,
        uuid: v1.uuid,
        activateCodeAlias: v1.deviceAlias,
        deviceType: v1.deviceType,
        deviceStatus: v1.deviceStatus,
        methodList: v1.methodList,
        profileId: v1.profileId,
        extParams: { acqMid: 'M1', acqTid: 'T1', acquirers: {} },
      });
      expect(JSON.parse(v1.extParams!)).toEqual({ allAcquirers: { acqMid: 'M1', acqTid: 'T1' } });
    });

    it('should show isDevice true and the device id once the code is activated', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createLegacyDevice(pbo, merchant.mchId);
      const { deviceId } = await activate(created.activationCode);
      expect(await readV2(pbo, merchant.mchId, deviceId)).toMatchObject({ deviceId, deviceStatus: 1, isDevice: true, activesAt: expect.any(String) });
    });

    it('should answer pages of 10 by default and everything with pageSize -1', async () => {
      const { pbo, merchant } = await boundMerchant();
      for (let i = 0; i < 11; i++) await createLegacyDevice(pbo, merchant.mchId);
      const first = dataOf<PageView<LegacyDevice>>(await pbo.get(`${V2}/device?mchId=${merchant.mchId}`));
      expect({ total: first.total, current: first.current, hasNext: first.hasNext, size: first.records.length }).toEqual({
        total: 11,
        current: 1,
        hasNext: true,
        size: 10,
      });
      const all = await listV2(pbo, merchant.mchId, 'pageSize=-1');
      expect({ total: all.total, hasNext: all.hasNext, size: all.records.length }).toEqual({ total: 11, hasNext: false, size: 11 });
    });

    it('should refuse a list without mchId with 10000 naming mchId', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.get(`${V2}/device`), 400, 10000, /^mchId is required/);
    });

    it("should refuse another PBO's merchant with 403 and 13000", async () => {
      const { merchant } = await boundMerchant();
      const other = await app.newPbo();
      expectEnvelope(await other.get(`${V2}/device?mchId=${merchant.mchId}`), 403, 13000);
    });
  });

  // ---- PUT -----------------------------------------------------------------------------------

  describe('PUT', () => {
    it('should rename with activateCodeAlias, answer without data, and push the new profile name', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createLegacyDevice(pbo, merchant.mchId, { activateCodeAlias: 'Old name' });
      const response = await pbo.put(`${V2}/device/${created.id}`, { activateCodeAlias: 'New name' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      const v1 = (await readV1(pbo, created.id))!;
      expect(v1.deviceAlias).toBe('New name');
      expect((await upsertsOf(v1.uuid)).map((u) => [u.version, u.profileName])).toEqual([
        [1, 'Old name'],
        [2, 'New name'],
      ]);
    });

    it('should set MID/TID for every bound acquirer from methodList {"all": …} and push them', async () => {
      const { pbo, merchant } = await twoAcquirers();
      const created = await createLegacyDevice(pbo, merchant.mchId, { extParams: { acqMid: 'MID1', acqTid: 'TID1' } });
      dataOf(await pbo.put(`${V2}/device/${created.id}`, { methodList: JSON.stringify({ all: { mid: 'MID2', tid: 'TID2' } }) }));
      const v1 = (await readV1(pbo, created.id))!;
      expect(JSON.parse(v1.extParams!)).toEqual({ allAcquirers: { acqMid: 'MID2', acqTid: 'TID2' } });
      const pushed = await upsertsOf(v1.uuid);
      expect(pushed.map((u) => [u.version, u.acceptances.map((x) => [x.primaryMid, x.primaryTid])])).toEqual([
        [
          1,
          [
            ['MID1', 'TID1'],
            ['MID1', 'TID1'],
          ],
        ],
        [
          2,
          [
            ['MID2', 'TID2'],
            ['MID2', 'TID2'],
          ],
        ],
      ]);
    });

    it('should read the same through v1 as a v1 PUT with the equivalent JSON-encoded extParams', async () => {
      const { pbo, merchant } = await twoAcquirers();
      const ids = { acqMid: 'MID1', acqTid: 'TID1' };
      const first = await createLegacyDevice(pbo, merchant.mchId, { activateCodeAlias: 'Till', extParams: ids });
      const second = await createLegacyDevice(pbo, merchant.mchId, { activateCodeAlias: 'Till', extParams: ids });
      const next = { acqMid: 'MID3', acqTid: 'TID3' };
      dataOf(
        await pbo.put(`${V2}/device/${first.id}`, {
          extParams: JSON.stringify(next),
          emvParams: JSON.stringify({ terminalType: '21' }),
          deviceType: 'SOFTPOS',
        }),
      );
      dataOf(
        await pbo.put(`${V1}/device/${second.id}`, {
          extParams: JSON.stringify({ allAcquirers: next }),
          emvParams: JSON.stringify({ terminalType: '21' }),
          deviceType: 'SOFTPOS',
        }),
      );
      const [v2, v1] = [(await readV1(pbo, first.id))!, (await readV1(pbo, second.id))!];
      expect(comparable(v2)).toEqual(comparable(v1));
      expect((await upsertsOf(v2.uuid)).map(comparableUpsert)).toEqual((await upsertsOf(v1.uuid)).map(comparableUpsert));
    });

    it('should clear the alias sent as null and keep the omitted fields', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createLegacyDevice(pbo, merchant.mchId, { activateCodeAlias: 'Till', deviceType: 'COTS' });
      dataOf(await pbo.put(`${V2}/device/${created.id}`, { activateCodeAlias: null }));
      expect(await readV1(pbo, created.id)).toMatchObject({ deviceAlias: null, deviceType: 'COTS' });
    });

    it.each([
      ['a methodList map with a key other than all', { methodList: JSON.stringify({ some: {} }) }, /^methodList\.some is not an accepted key/],
      ['extParams that is not JSON', { extParams: 'nope' }, /^extParams must be a JSON object or a JSON-encoded object/],
      ['the v1 deviceAlias', { deviceAlias: 'x' }, /^deviceAlias is not an accepted field/],
      ['emvParams with an unknown key', { emvParams: JSON.stringify({ colour: 'red' }) }, /^emvParams\.colour/],
    ])('should refuse %s with 400 and 10000 naming the field and change nothing', async (_case, body, msg) => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createLegacyDevice(pbo, merchant.mchId);
      const before = await readV1(pbo, created.id);
      expectEnvelope(await pbo.put(`${V2}/device/${created.id}`, body), 400, 10000, msg);
      expect(await readV1(pbo, created.id)).toEqual(before);
    });

    it("should refuse a groupId other than the token's with 403 and 13000 and change nothing", async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createLegacyDevice(pbo, merchant.mchId);
      const before = await readV1(pbo, created.id);
      expectEnvelope(await pbo.put(`${V2}/device/${created.id}`, { activateCodeAlias: 'x', groupId: 'another-group' }), 403, 13000);
      expect(await readV1(pbo, created.id)).toEqual(before);
    });

    it("should answer another PBO's code (a CD- id) as an unknown one, 404 and 14000, and change nothing", async () => {
      const { pbo: owner, merchant } = await boundMerchant();
      const other = await app.newPbo();
      const created = await createLegacyDevice(owner, merchant.mchId);
      const before = await readV1(owner, created.id);
      expectEnvelope(await other.put(`${V2}/device/${created.id}`, { activateCodeAlias: 'mine now' }), 404, 14000);
      expect(await readV1(owner, created.id)).toEqual(before);
    });
  });

  // ---- DELETE --------------------------------------------------------------------------------

  describe('DELETE', () => {
    it('scenario 1: should unbind and delete a pending code by its CD- id and answer without data', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createLegacyDevice(pbo, merchant.mchId);
      const response = await pbo.delete(`${V2}/device/${created.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      expect(await readV1(pbo, created.id)).toBeNull();
      expect(await devicesOf(pbo)).toBe(0);
    });

    it.each([
      ['2', 2],
      ['3', 3],
    ])('scenario 2: should set an activated device to deviceStatus %s', async (query, status) => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createLegacyDevice(pbo, merchant.mchId);
      const { deviceId } = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V2}/device/${deviceId}?deviceStatus=${query}`));
      expect(await readV2(pbo, merchant.mchId, deviceId)).toMatchObject({ deviceId, deviceStatus: status, isDevice: true });
    });

    it('should refuse an activated device without deviceStatus with 10000 naming deviceStatus', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createLegacyDevice(pbo, merchant.mchId);
      const { deviceId } = await activate(created.activationCode);
      expectEnvelope(await pbo.delete(`${V2}/device/${deviceId}`), 400, 10000, /^deviceStatus is required/);
    });

    it('should refuse deviceStatus 4 with 10000 naming deviceStatus', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createLegacyDevice(pbo, merchant.mchId);
      const { deviceId } = await activate(created.activationCode);
      expectEnvelope(await pbo.delete(`${V2}/device/${deviceId}?deviceStatus=4`), 400, 10000, /^deviceStatus must be 2/);
    });

    it("should answer another PBO's code as an unknown one, 404 and 14000, and keep it", async () => {
      const { pbo: owner, merchant } = await boundMerchant();
      const other = await app.newPbo();
      const created = await createLegacyDevice(owner, merchant.mchId);
      expectEnvelope(await other.delete(`${V2}/device/${created.id}`), 404, 14000);
      expect(await readV1(owner, created.id)).not.toBeNull();
    });

    it('should answer 404 and 14000 for a code that does not exist', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.delete(`${V2}/device/CD-000000000000`), 404, 14000);
    });
  });
});
