import { ApiClient, EnvelopeBody, HttpResponse } from '@app/testing';
import { createAcquirer, createCardAcquirer, createEmv, createMerchant } from './factories';
import { createLegacyAcquirer, createLegacyEmv, legacyAcquirerBody, V2 } from './legacy-factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Legacy acquirer profiles (`/api/v2/acquirer`; docs/decisions.md, "Legacy /api/v2") over the
 * same service as v1: emvList and methodList as objects, connTimeout and connRequestTimeout, PUT
 * and DELETE answering `{id}`, pageSize 10 by default, and one truth shared with
 * `/api/openapi/v1/acquirer`.
 */

const V1_ACQUIRER = '/api/openapi/v1/acquirer';

interface V1Profile {
  profileId: number;
  profileName: string;
  methodList: string;
  emvList: string;
  connExtraParams: string | null;
  connTimeout: number | null;
  connRequestTimeout: number | null;
  [key: string]: unknown;
}

interface LegacyProfile {
  id: number;
  profileId: number;
  profileName: string;
  methodList: Record<string, string[]>;
  emvList: Record<string, number[]>;
  connExtraParams: Record<string, unknown> | null;
  connTimeout: number | null;
  connRequestTimeout: number | null;
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

/** The v1 record as the legacy API shows it: maps decoded, `id` beside `profileId`. */
function asLegacy(v1: V1Profile): LegacyProfile {
  return {
    ...v1,
    id: v1.profileId,
    methodList: JSON.parse(v1.methodList) as Record<string, string[]>,
    emvList: JSON.parse(v1.emvList) as Record<string, number[]>,
    connExtraParams: v1.connExtraParams === null ? null : (JSON.parse(v1.connExtraParams) as Record<string, unknown>),
  };
}

describe('legacy acquirer profiles /api/v2/acquirer', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const listV2 = async (pbo: ApiClient, query = 'pageSize=-1') => dataOf<PageView<LegacyProfile>>(await pbo.get(`${V2}/acquirer?${query}`));
  const readV1 = async (pbo: ApiClient, id: number) => dataOf<V1Profile>(await pbo.get(`${V1_ACQUIRER}/${id}`));
  const bindMerchant = async (pbo: ApiClient, profileId: number) => {
    const merchant = await createMerchant(pbo);
    dataOf(await pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(profileId), currency: 'MYR' }));
    return merchant;
  };

  describe('parity with v1', () => {
    it('should read a profile created through v2 the same through v1, maps JSON-encoded there', async () => {
      const pbo = await app.newPbo();
      const visa = await createLegacyEmv(pbo, { paymentMethod: '01' });
      const master = await createLegacyEmv(pbo, { paymentMethod: '02' });
      const body = legacyAcquirerBody({ '01': [visa], '02': [master] }, { connExtraParams: { keepAlive: true }, enablerParams: 'acqMid,acqTid' });
      const id = await createLegacyAcquirer(pbo, body.emvList, body);
      const v1 = await readV1(pbo, id);
      expect(v1).toMatchObject({
        profileId: id,
        groupId: pbo.groupId,
        profileName: body.profileName,
        currency: 'MYR',
        acqType: 'card',
        connMessageFormat: 'SVC_ENABLER',
        enablerMsgFormat: 'MOCK',
        enablerParams: 'acqMid,acqTid',
        connUrl: 'tcp://127.0.0.1:5000',
        connTimeout: 5000,
        connRequestTimeout: 30000,
      });
      expect(JSON.parse(v1.methodList)).toEqual({ '01': [], '02': [] });
      expect(JSON.parse(v1.emvList)).toEqual({ '01': [visa], '02': [master] });
      expect(JSON.parse(v1.connExtraParams!)).toEqual({ keepAlive: true });
      expect((await listV2(pbo)).records).toEqual([asLegacy(v1)]);
    });

    it('should list a profile created through v1 with the same values through v2, maps as objects', async () => {
      const pbo = await app.newPbo();
      const { id, emvs } = await createCardAcquirer(pbo, ['01', '03']);
      const [record] = (await listV2(pbo)).records;
      expect(record).toEqual(asLegacy(await readV1(pbo, id)));
      expect(record).toMatchObject({ id, profileId: id, methodList: { '01': [], '03': [] }, emvList: emvs, connTimeout: null, connRequestTimeout: null });
    });
  });

  describe('create', () => {
    it('should answer {id}', async () => {
      const pbo = await app.newPbo();
      const emvId = await createLegacyEmv(pbo);
      const response = await pbo.post(`${V2}/acquirer`, legacyAcquirerBody({ '01': [emvId] }));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS', data: { id: expect.any(Number) } });
    });

    it('should store connTimeout and connRequestTimeout at their bounds', async () => {
      const pbo = await app.newPbo();
      const emvId = await createLegacyEmv(pbo);
      const id = await createLegacyAcquirer(pbo, { '01': [emvId] }, { connTimeout: 1, connRequestTimeout: 120000 });
      expect(await readV1(pbo, id)).toMatchObject({ connTimeout: 1, connRequestTimeout: 120000 });
    });

    it.each([
      ['connTimeout 0', { connTimeout: 0 }, /^connTimeout must not be less than 1/],
      ['a negative connTimeout', { connTimeout: -5 }, /^connTimeout must not be less than 1/],
      ['a fractional connTimeout', { connTimeout: 1.5 }, /^connTimeout must be an integer/],
      ['connTimeout as a string', { connTimeout: '5000' }, /^connTimeout must be an integer/],
      ['connTimeout over two minutes', { connTimeout: 120001 }, /^connTimeout must not be greater than 120000/],
      ['connRequestTimeout 0', { connRequestTimeout: 0 }, /^connRequestTimeout must not be less than 1/],
      ['connRequestTimeout over two minutes', { connRequestTimeout: 600000 }, /^connRequestTimeout must not be greater than 120000/],
      ['methodList JSON-encoded (the v1 form)', { methodList: '{"01":[]}' }, /^methodList must be a JSON object/],
      ['emvList JSON-encoded (the v1 form)', { emvList: '{"01":[1]}' }, /^emvList must be a JSON object/],
      ['no methodList', { methodList: undefined }, /^methodList is required/],
      ['no emvList for a card profile', { emvList: undefined }, /^emvList is required/],
      ['a methodList key that is no payment method code', { methodList: { '09': [] } }, /^methodList key 09/],
      ['an emvList key missing from methodList', { emvList: { '01': [0], '02': [1] } }, /emvList key 02 is not in methodList/],
      ['an emvList value that is not a list of ids', { emvList: { '01': 'one' } }, /^emvList\.01 must be a list/],
      ['connExtraParams JSON-encoded', { connExtraParams: '{"a":1}' }, /^connExtraParams must be a JSON object/],
      ['an unknown connMessageFormat', { connMessageFormat: 'TELEX' }, /^connMessageFormat/],
      ['an unknown field', { timeout: 5 }, /^timeout is not an accepted field/],
    ])('should refuse %s with 400 and 10000 naming the field, writing nothing', async (_case, overrides, msg) => {
      const pbo = await app.newPbo();
      const emvId = await createLegacyEmv(pbo);
      expectEnvelope(await pbo.post(`${V2}/acquirer`, legacyAcquirerBody({ '01': [emvId] }, overrides)), 400, 10000, msg);
      expect((await listV2(pbo)).total).toBe(0);
    });

    it('should refuse a profileName the PBO already uses with 409 and 10000', async () => {
      const pbo = await app.newPbo();
      const emvId = await createLegacyEmv(pbo);
      await createLegacyAcquirer(pbo, { '01': [emvId] }, { profileName: 'Maybank' });
      expectEnvelope(await pbo.post(`${V2}/acquirer`, legacyAcquirerBody({ '01': [emvId] }, { profileName: 'Maybank' })), 409, 10000, /profileName/);
    });

    it("should refuse an emvList naming another PBO's EMV config with 403 and 13000", async () => {
      const pbo = await app.newPbo();
      const other = await app.newPbo();
      const theirs = await createLegacyEmv(other);
      expectEnvelope(await pbo.post(`${V2}/acquirer`, legacyAcquirerBody({ '01': [theirs] })), 403, 13000);
      expect((await listV2(pbo)).total).toBe(0);
    });

    it("should refuse a groupId other than the token's with 403 and 13000, writing nothing", async () => {
      const pbo = await app.newPbo();
      const emvId = await createLegacyEmv(pbo);
      expectEnvelope(await pbo.post(`${V2}/acquirer`, legacyAcquirerBody({ '01': [emvId] }, { groupId: 'another-group' })), 403, 13000, /groupId/);
      expect((await listV2(pbo)).total).toBe(0);
    });

    it("should accept a groupId equal to the token's", async () => {
      const pbo = await app.newPbo();
      const emvId = await createLegacyEmv(pbo);
      const id = await createLegacyAcquirer(pbo, { '01': [emvId] }, { groupId: pbo.groupId });
      expect((await readV1(pbo, id)).groupId).toBe(pbo.groupId);
    });
  });

  describe('list', () => {
    it('should answer pages of 10 by default and everything with pageSize -1', async () => {
      const pbo = await app.newPbo();
      const emvId = await createLegacyEmv(pbo);
      for (let i = 0; i < 11; i++) await createLegacyAcquirer(pbo, { '01': [emvId] });
      const first = dataOf<PageView<LegacyProfile>>(await pbo.get(`${V2}/acquirer`));
      expect({ total: first.total, current: first.current, hasNext: first.hasNext, size: first.records.length }).toEqual({
        total: 11,
        current: 1,
        hasNext: true,
        size: 10,
      });
      const all = await listV2(pbo, 'pageSize=-1');
      expect({ total: all.total, hasNext: all.hasNext, size: all.records.length }).toEqual({ total: 11, hasNext: false, size: 11 });
    });

    it('should filter by profileName partially and case-insensitively', async () => {
      const pbo = await app.newPbo();
      const emvId = await createLegacyEmv(pbo);
      const maybank = await createLegacyAcquirer(pbo, { '01': [emvId] }, { profileName: 'Maybank Card' });
      await createLegacyAcquirer(pbo, { '01': [emvId] }, { profileName: 'CIMB Card' });
      expect((await listV2(pbo, 'profileName=maybank')).records.map((record) => record.id)).toEqual([maybank]);
    });
  });

  describe('PUT', () => {
    it('should change the included fields, answer {id} and read the same through v1', async () => {
      const pbo = await app.newPbo();
      const visa = await createLegacyEmv(pbo, { paymentMethod: '01' });
      const master = await createLegacyEmv(pbo, { paymentMethod: '02' });
      const id = await createLegacyAcquirer(pbo, { '01': [visa] });
      const response = await pbo.put(`${V2}/acquirer/${id}`, {
        profileName: 'Renamed',
        connTimeout: 8000,
        methodList: { '01': [], '02': [] },
        emvList: { '01': [visa], '02': [master] },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS', data: { id } });
      const v1 = await readV1(pbo, id);
      expect(v1).toMatchObject({ profileName: 'Renamed', connTimeout: 8000, connRequestTimeout: 30000, connUrl: 'tcp://127.0.0.1:5000' });
      expect(JSON.parse(v1.emvList)).toEqual({ '01': [visa], '02': [master] });
    });

    it('should clear connTimeout sent as null', async () => {
      const pbo = await app.newPbo();
      const emvId = await createLegacyEmv(pbo);
      const id = await createLegacyAcquirer(pbo, { '01': [emvId] });
      dataOf(await pbo.put(`${V2}/acquirer/${id}`, { connTimeout: null }));
      expect(await readV1(pbo, id)).toMatchObject({ connTimeout: null, connRequestTimeout: 30000 });
    });

    it('should refuse a connRequestTimeout out of bounds with 10000 naming it and change nothing', async () => {
      const pbo = await app.newPbo();
      const emvId = await createLegacyEmv(pbo);
      const id = await createLegacyAcquirer(pbo, { '01': [emvId] });
      const before = await readV1(pbo, id);
      expectEnvelope(await pbo.put(`${V2}/acquirer/${id}`, { connRequestTimeout: 0 }), 400, 10000, /^connRequestTimeout/);
      expect(await readV1(pbo, id)).toEqual(before);
    });

    it('should refuse to remove a method a merchant binds with 409 and 10000', async () => {
      const pbo = await app.newPbo();
      const { id, emvs } = await createCardAcquirer(pbo, ['01', '02']);
      await bindMerchant(pbo, id);
      expectEnvelope(await pbo.put(`${V2}/acquirer/${id}`, { methodList: { '01': [] }, emvList: { '01': emvs['01'] } }), 409, 10000, /bound by merchant/);
    });

    it("should refuse another PBO's profile with 403 and 13000 and change nothing", async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const emvId = await createLegacyEmv(owner);
      const id = await createLegacyAcquirer(owner, { '01': [emvId] });
      const before = await readV1(owner, id);
      expectEnvelope(await other.put(`${V2}/acquirer/${id}`, { profileName: 'mine now' }), 403, 13000);
      expect(await readV1(owner, id)).toEqual(before);
    });

    it("should refuse a groupId other than the token's with 403 and 13000 and change nothing", async () => {
      const pbo = await app.newPbo();
      const emvId = await createLegacyEmv(pbo);
      const id = await createLegacyAcquirer(pbo, { '01': [emvId] });
      const before = await readV1(pbo, id);
      expectEnvelope(await pbo.put(`${V2}/acquirer/${id}`, { profileName: 'x', groupId: 'another-group' }), 403, 13000);
      expect(await readV1(pbo, id)).toEqual(before);
    });

    it('should answer 404 and 14000 for a profile that does not exist', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.put(`${V2}/acquirer/999999`, { profileName: 'x' }), 404, 14000);
    });
  });

  describe('DELETE', () => {
    it('should delete the profile and answer {id}; v1 then answers 14000', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const id = await createAcquirer(pbo, { '01': [emvId] });
      const response = await pbo.delete(`${V2}/acquirer/${id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS', data: { id } });
      expectEnvelope(await pbo.get(`${V1_ACQUIRER}/${id}`), 404, 14000);
    });

    it('should refuse a profile a merchant binds with 409 and 10000 and keep it', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      const merchant = await bindMerchant(pbo, id);
      expectEnvelope(await pbo.delete(`${V2}/acquirer/${id}`), 409, 10000, new RegExp(`^acquirer profile ${id} is used by merchant\\(s\\) ${merchant.mchId}; remove those payment configs first$`));
      expect((await readV1(pbo, id)).profileId).toBe(id);
    });

    it("should refuse another PBO's profile with 403 and 13000 and keep it", async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const emvId = await createLegacyEmv(owner);
      const id = await createLegacyAcquirer(owner, { '01': [emvId] });
      expectEnvelope(await other.delete(`${V2}/acquirer/${id}`), 403, 13000);
      expect((await readV1(owner, id)).profileId).toBe(id);
    });

    it('should answer 404 and 14000 for a path id that cannot be a profile id', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.delete(`${V2}/acquirer/abc`), 404, 14000);
    });
  });
});
