import { ApiClient, EnvelopeBody, HttpResponse } from '@app/testing';
import { createCardAcquirer, createEmv } from './factories';
import { createLegacyEmv, legacyEmvBody, V2 } from './legacy-factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Legacy EMV configs (`/api/v2/emv`; docs/decisions.md, "Legacy /api/v2") over the same service
 * as v1: params as an object, pageSize 10 by default, PUT answering `{id}`, and one truth shared
 * with `/api/openapi/v1/emv`.
 */

const V1_EMV = '/api/openapi/v1/emv';
const LEGACY_FIELDS = ['aid', 'createdAt', 'emvName', 'emvVersion', 'groupId', 'id', 'params', 'paymentMethod', 'updatedAt'];

interface EmvView {
  id: number;
  emvName: string;
  groupId: string;
  paymentMethod: string;
  currency?: string | null;
  aid: string | null;
  emvVersion: string | null;
  params: string;
  createdAt: string;
  updatedAt: string;
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

describe('legacy EMV configs /api/v2/emv', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const listV2 = async (pbo: ApiClient, query = 'pageSize=-1') => dataOf<PageView<EmvView>>(await pbo.get(`${V2}/emv?${query}`));
  const readV1 = async (pbo: ApiClient, id: number) => dataOf<EmvView>(await pbo.get(`${V1_EMV}/${id}`));
  const withoutCurrency = ({ currency: _currency, ...fields }: EmvView) => fields;

  describe('parity with v1', () => {
    it('should read a config created through v2 the same through v1, params JSON-encoded there', async () => {
      const pbo = await app.newPbo();
      const body = legacyEmvBody({ paymentMethod: '02' });
      const id = await createLegacyEmv(pbo, body);
      const v1 = await readV1(pbo, id);
      expect(v1).toMatchObject({
        id,
        emvName: body.emvName,
        groupId: pbo.groupId,
        paymentMethod: '02',
        currency: null,
        aid: 'A0000000041010',
        emvVersion: '0096',
      });
      expect(JSON.parse(v1.params)).toEqual(body.params);
      const [v2] = (await listV2(pbo)).records;
      expect(v2).toEqual(withoutCurrency(v1));
    });

    it('should list a config created through v1 with the same fields through v2', async () => {
      const pbo = await app.newPbo();
      const id = await createEmv(pbo, { paymentMethod: '03' });
      const [v2] = (await listV2(pbo)).records;
      expect(v2).toEqual(withoutCurrency(await readV1(pbo, id)));
    });

    it('should answer exactly the fields of the legacy EMV config', async () => {
      const pbo = await app.newPbo();
      await createLegacyEmv(pbo);
      const [record] = (await listV2(pbo)).records;
      expect(Object.keys(record).sort()).toEqual(LEGACY_FIELDS);
      expect(typeof record.params).toBe('string');
    });
  });

  describe('create', () => {
    it('should answer {id}', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.post(`${V2}/emv`, legacyEmvBody());
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS', data: { id: expect.any(Number) } });
    });

    it.each([['VISA'], ['visa'], ['01']])('should store paymentMethod %s as the code 01', async (paymentMethod) => {
      const pbo = await app.newPbo();
      const id = await createLegacyEmv(pbo, { paymentMethod });
      expect((await readV1(pbo, id)).paymentMethod).toBe('01');
    });

    it.each([
      ['params JSON-encoded (the v1 form)', { params: JSON.stringify({ aid: 'A0000000031010' }) }, /^params must be a JSON object/],
      ['params as an array', { params: [{ aid: 'A0000000031010' }] }, /^params must be a JSON object/],
      ['params without aid', { params: { appVersion: '0096' } }, /^params\.aid is required/],
      ['params with an unknown key', { params: { aid: 'A0000000031010', colour: 'red' } }, /^params\.colour is not an accepted field/],
      ['params with a negative limit', { params: { aid: 'A0000000031010', clCVMLimit: -1 } }, /^params\.clCVMLimit/],
      ['no emvName', { emvName: undefined }, /^emvName is required/],
      ['an unknown payment method', { paymentMethod: 'DINERS' }, /^paymentMethod must be one of the payment method codes/],
      ['an unknown field', { currencyCode: 'MYR' }, /^currencyCode is not an accepted field/],
    ])('should refuse %s with 400 and 10000 naming the field, writing nothing', async (_case, overrides, msg) => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.post(`${V2}/emv`, legacyEmvBody(overrides)), 400, 10000, msg);
      expect((await listV2(pbo)).total).toBe(0);
    });

    it("should accept a groupId equal to the token's", async () => {
      const pbo = await app.newPbo();
      const id = await createLegacyEmv(pbo, { groupId: pbo.groupId });
      expect((await readV1(pbo, id)).groupId).toBe(pbo.groupId);
    });

    it("should refuse a groupId other than the token's with 403 and 13000, writing nothing", async () => {
      const pbo = await app.newPbo();
      const other = await app.newPbo();
      expectEnvelope(await pbo.post(`${V2}/emv`, legacyEmvBody({ groupId: other.groupId })), 403, 13000, /groupId/);
      expect((await listV2(pbo)).total).toBe(0);
      expect((await listV2(other)).total).toBe(0);
    });
  });

  describe('list', () => {
    it('should answer pages of 10 by default', async () => {
      const pbo = await app.newPbo();
      for (let i = 0; i < 12; i++) await createLegacyEmv(pbo);
      const page = dataOf<PageView<EmvView>>(await pbo.get(`${V2}/emv`));
      expect({ total: page.total, current: page.current, hasNext: page.hasNext, size: page.records.length }).toEqual({
        total: 12,
        current: 1,
        hasNext: true,
        size: 10,
      });
      const second = await listV2(pbo, 'pageNumber=2');
      expect({ current: second.current, hasNext: second.hasNext, size: second.records.length }).toEqual({ current: 2, hasNext: false, size: 2 });
    });

    it('should answer every config on one page with pageSize -1', async () => {
      const pbo = await app.newPbo();
      for (let i = 0; i < 12; i++) await createLegacyEmv(pbo);
      const page = await listV2(pbo, 'pageSize=-1');
      expect({ total: page.total, current: page.current, hasNext: page.hasNext, size: page.records.length }).toEqual({
        total: 12,
        current: 1,
        hasNext: false,
        size: 12,
      });
    });

    it("should list only the PBO's own configs", async () => {
      const pbo = await app.newPbo();
      const other = await app.newPbo();
      await createLegacyEmv(other);
      const mine = await createLegacyEmv(pbo);
      expect((await listV2(pbo)).records.map((record) => record.id)).toEqual([mine]);
    });

    it.each([['pageSize=0'], ['pageSize=-2'], ['pageNumber=0'], ['pageSize=abc']])('should refuse %s with 10000 naming the parameter', async (query) => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.get(`${V2}/emv?${query}`), 400, 10000, new RegExp(`^${query.split('=')[0]}\\b`));
    });
  });

  describe('PUT', () => {
    it('should replace the config, answer {id} and read the same through v1', async () => {
      const pbo = await app.newPbo();
      const id = await createLegacyEmv(pbo);
      const body = legacyEmvBody({ emvName: 'renamed', params: { aid: 'A0000000031010', appVersion: '0097', clCVMLimit: 10000 } });
      const response = await pbo.put(`${V2}/emv/${id}`, body);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS', data: { id } });
      const v1 = await readV1(pbo, id);
      expect(v1).toMatchObject({ emvName: 'renamed', emvVersion: '0097' });
      expect(JSON.parse(v1.params)).toEqual(body.params);
    });

    it('should keep the currency a v1 client set', async () => {
      const pbo = await app.newPbo();
      const id = await createEmv(pbo);
      dataOf(await pbo.put(`${V2}/emv/${id}`, legacyEmvBody({ emvName: 'renamed' })));
      expect(await readV1(pbo, id)).toMatchObject({ emvName: 'renamed', currency: 'MYR' });
    });

    it("should refuse another PBO's config with 403 and 13000 and change nothing", async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const id = await createLegacyEmv(owner);
      const before = await readV1(owner, id);
      expectEnvelope(await other.put(`${V2}/emv/${id}`, legacyEmvBody()), 403, 13000);
      expect(await readV1(owner, id)).toEqual(before);
    });

    it('should answer 404 and 14000 for a config that does not exist', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.put(`${V2}/emv/999999`, legacyEmvBody()), 404, 14000);
    });

    it("should refuse a groupId other than the token's with 13000 and change nothing", async () => {
      const pbo = await app.newPbo();
      const id = await createLegacyEmv(pbo);
      const before = await readV1(pbo, id);
      expectEnvelope(await pbo.put(`${V2}/emv/${id}`, legacyEmvBody({ groupId: 'someone-else' })), 403, 13000);
      expect(await readV1(pbo, id)).toEqual(before);
    });
  });

  describe('DELETE', () => {
    it('should delete the config and answer without data; v1 then answers 14000', async () => {
      const pbo = await app.newPbo();
      const id = await createLegacyEmv(pbo);
      const response = await pbo.delete(`${V2}/emv/${id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      expectEnvelope(await pbo.get(`${V1_EMV}/${id}`), 404, 14000);
    });

    it('should refuse a config an acquirer profile uses with 409 and 10000', async () => {
      const pbo = await app.newPbo();
      const { emvs } = await createCardAcquirer(pbo, ['01']);
      expectEnvelope(await pbo.delete(`${V2}/emv/${emvs['01'][0]}`), 409, 10000, /acquirer profile/);
    });

    it("should refuse another PBO's config with 403 and 13000 and keep it", async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const id = await createLegacyEmv(owner);
      expectEnvelope(await other.delete(`${V2}/emv/${id}`), 403, 13000);
      expect((await readV1(owner, id)).id).toBe(id);
    });
  });

  describe('authentication', () => {
    it('should refuse GET /api/v2/emv without a token with HTTP 401 and the envelope', async () => {
      const response = await app.anonymous.get(`${V2}/emv`);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 11000, msg: 'missing bearer token', data: 401 });
    });

    it('should refuse GET /api/v2/emv with a malformed token with HTTP 401 and the envelope', async () => {
      const response = await new ApiClient(app.baseUrl, 'not-a-jwt').get(`${V2}/emv`);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 11000, msg: expect.any(String), data: 401 });
    });

    it('should refuse GET /api/v2/current without a token with HTTP 401 and the envelope', async () => {
      const response = await app.anonymous.get(`${V2}/current`);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 11000, msg: 'missing bearer token', data: 401 });
    });

    it('should refuse GET /api/v2/current with a malformed token with HTTP 401 and the envelope', async () => {
      const response = await new ApiClient(app.baseUrl, 'not-a-jwt').get(`${V2}/current`);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 11000, msg: expect.any(String), data: 401 });
    });
  });
});
