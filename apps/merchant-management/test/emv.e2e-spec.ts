import { ApiClient, queryDatabase } from '@app/testing';
import { createAcquirer, createCardAcquirer, createEmv, createMerchant, emvBody } from './factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

const EMV = '/api/openapi/v1/emv';
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/;

interface EmvView {
  id: number;
  emvName: string;
  groupId: string;
  paymentMethod: string;
  currency: string | null;
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

describe('EMV configs /api/openapi/v1/emv', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const listEmvs = async (pbo: ApiClient, query = 'pageSize=-1') => dataOf<PageView<EmvView>>(await pbo.get(`${EMV}?${query}`));
  const readEmv = async (pbo: ApiClient, id: number) => dataOf<EmvView>(await pbo.get(`${EMV}/${id}`));
  const bindMerchant = async (pbo: ApiClient, acquirerProfileId: number) => {
    const merchant = await createMerchant(pbo);
    dataOf(await pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirerProfileId), currency: 'MYR' }));
    return merchant;
  };

  describe('create', () => {
    it('should answer the id of the new config', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.post(EMV, emvBody());
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS', data: { id: expect.any(Number) } });
    });

    it('should store limits sent as digit strings as numbers', async () => {
      const pbo = await app.newPbo();
      const id = await createEmv(pbo, { params: JSON.stringify({ aid: 'A0000000031010', clFloorLimit: '0', clTransLimit: '500000', clCVMLimit: '25000' }) });
      expect(JSON.parse((await readEmv(pbo, id)).params)).toEqual({ aid: 'A0000000031010', clFloorLimit: 0, clTransLimit: 500000, clCVMLimit: 25000 });
    });

    it.each([
      ['is not JSON', 'not json', 'params must be a JSON-encoded object'],
      ['is a JSON array', JSON.stringify([{ aid: 'A0000000031010' }]), 'params must be a JSON-encoded object'],
      ['has an unknown key', JSON.stringify({ aid: 'A0000000031010', colour: 'red' }), 'params.colour is not an accepted field'],
      ['has no aid', JSON.stringify({ appVersion: '0096' }), 'params.aid is required'],
      ['has a non-hex aid', JSON.stringify({ aid: 'A00000000310ZZ' }), 'params.aid'],
      ['has a negative clFloorLimit', JSON.stringify({ aid: 'A0000000031010', clFloorLimit: -1 }), 'params.clFloorLimit'],
      ['has a non-hex terminalTransactionQualifiers', JSON.stringify({ aid: 'A0000000031010', terminalTransactionQualifiers: 'XYZ' }), 'params.terminalTransactionQualifiers'],
    ])('should refuse params that %s with 400 and 10000 naming the key, writing nothing', async (_case, params, message) => {
      const pbo = await app.newPbo();
      const response = await pbo.post(EMV, emvBody({ params }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toContain(message);
      expect((await listEmvs(pbo)).total).toBe(0);
    });

    it('should refuse an unknown payment method code with 10000 naming paymentMethod', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.post(EMV, emvBody({ paymentMethod: '07' }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toContain('paymentMethod');
      expect((await listEmvs(pbo)).total).toBe(0);
    });

    it('should refuse a currency that is not an ISO 4217 code with 10000 naming currency', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.post(EMV, emvBody({ currency: 'ABC' }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toContain('currency');
      expect((await listEmvs(pbo)).total).toBe(0);
    });

    it('should refuse a body without emvName with "emvName is required"', async () => {
      const pbo = await app.newPbo();
      const { emvName: _omitted, ...body } = emvBody();
      const response = await pbo.post(EMV, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 10000, msg: 'emvName is required' });
      expect((await listEmvs(pbo)).total).toBe(0);
    });

    it('should refuse an unknown field with "is not an accepted field"', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.post(EMV, emvBody({ groupId: 'someone-else' }));
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 10000, msg: 'groupId is not an accepted field' });
      expect((await listEmvs(pbo)).total).toBe(0);
    });
  });

  describe('read one', () => {
    it('should return every field, params as a JSON-encoded string and timestamps as yyyy-mm-ddThh:mm:ss+0000', async () => {
      const pbo = await app.newPbo();
      const body = emvBody({ paymentMethod: '02', currency: 'SGD' });
      const id = dataOf<{ id: number }>(await pbo.post(EMV, body)).id;

      const response = await pbo.get(`${EMV}/${id}`);

      expect(response.status).toBe(200);
      expect(response.body.code).toBe(0);
      const emv = response.body.data as EmvView;
      expect(emv).toEqual({
        id,
        emvName: body.emvName,
        groupId: pbo.groupId,
        paymentMethod: '02',
        currency: 'SGD',
        aid: 'A0000000041010',
        emvVersion: '0096',
        params: expect.any(String),
        createdAt: expect.stringMatching(TIMESTAMP),
        updatedAt: expect.stringMatching(TIMESTAMP),
      });
      expect(JSON.parse(emv.params)).toEqual(JSON.parse(body.params));
    });

    it('should refuse another PBO\'s config with 403 and 13000', async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const id = await createEmv(owner);
      const response = await other.get(`${EMV}/${id}`);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe(13000);
    });

    it('should answer 404 and 14000 for an id that does not exist', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.get(`${EMV}/999999999`);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(14000);
    });

    it('should answer 404 and 14000 for an id that is not numeric', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.get(`${EMV}/abc`);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(14000);
    });
  });

  describe('list', () => {
    it('should page the PBO\'s configs with total, current, hasNext and records', async () => {
      const pbo = await app.newPbo();
      const ids = [await createEmv(pbo), await createEmv(pbo), await createEmv(pbo)];

      const first = await listEmvs(pbo, 'pageNumber=1&pageSize=2');
      const second = await listEmvs(pbo, 'pageNumber=2&pageSize=2');

      expect(first).toMatchObject({ total: 3, current: 1, hasNext: true });
      expect(second).toMatchObject({ total: 3, current: 2, hasNext: false });
      expect([...first.records, ...second.records].map((emv) => emv.id)).toEqual(ids);
    });

    it('should answer 20 records per page by default', async () => {
      const pbo = await app.newPbo();
      await Promise.all(Array.from({ length: 21 }, () => createEmv(pbo)));
      const page = dataOf<PageView<EmvView>>(await pbo.get(EMV));
      expect(page).toMatchObject({ total: 21, current: 1, hasNext: true });
      expect(page.records).toHaveLength(20);
    });

    it('should answer every record on one page when pageSize is -1', async () => {
      const pbo = await app.newPbo();
      await Promise.all(Array.from({ length: 3 }, () => createEmv(pbo)));
      const page = await listEmvs(pbo, 'pageNumber=2&pageSize=-1');
      expect(page).toMatchObject({ total: 3, current: 1, hasNext: false });
      expect(page.records).toHaveLength(3);
    });

    it.each(['pageSize=0', 'pageSize=1001', 'pageSize=abc', 'pageNumber=0'])('should refuse %s with 400 and 10000 naming the parameter', async (query) => {
      const pbo = await app.newPbo();
      const response = await pbo.get(`${EMV}?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toContain(query.split('=')[0]);
    });

    it('should filter by a case-insensitive part of emvName', async () => {
      const pbo = await app.newPbo();
      const wanted = [await createEmv(pbo, { emvName: 'Visa contactless' }), await createEmv(pbo, { emvName: 'High value VISA' })];
      await createEmv(pbo, { emvName: 'Mastercard', paymentMethod: '02' });
      const page = await listEmvs(pbo, 'pageSize=-1&emvName=visa');
      expect(page.total).toBe(2);
      expect(page.records.map((emv) => emv.id)).toEqual(wanted);
    });

    it('should match % and _ in the emvName filter literally', async () => {
      const pbo = await app.newPbo();
      const wanted = await createEmv(pbo, { emvName: 'limit_100%' });
      await createEmv(pbo, { emvName: 'limitX100' });
      const page = await listEmvs(pbo, `pageSize=-1&emvName=${encodeURIComponent('_100%')}`);
      expect(page.records.map((emv) => emv.id)).toEqual([wanted]);
    });

    it('should filter by paymentMethod exactly', async () => {
      const pbo = await app.newPbo();
      await createEmv(pbo, { paymentMethod: '01' });
      const mastercard = await createEmv(pbo, { paymentMethod: '02' });
      const page = await listEmvs(pbo, 'pageSize=-1&paymentMethod=02');
      expect(page.total).toBe(1);
      expect(page.records.map((emv) => emv.id)).toEqual([mastercard]);
    });

    it('should refuse a paymentMethod filter that is not a payment method code', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.get(`${EMV}?paymentMethod=VISA`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toContain('paymentMethod');
    });

    it('should not list another PBO\'s configs', async () => {
      const pbo = await app.newPbo();
      const other = await app.newPbo();
      await createEmv(other);
      const mine = await createEmv(pbo);
      const page = await listEmvs(pbo);
      expect(page.total).toBe(1);
      expect(page.records.map((emv) => emv.id)).toEqual([mine]);
    });
  });

  describe('replace', () => {
    it('should replace every field and answer the id', async () => {
      const pbo = await app.newPbo();
      const id = await createEmv(pbo, { paymentMethod: '01', currency: 'MYR' });
      const replacement = emvBody({ paymentMethod: '03', currency: 'SGD' });

      const response = await pbo.put(`${EMV}/${id}`, replacement);

      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS', data: { id } });
      const emv = await readEmv(pbo, id);
      expect(emv).toMatchObject({ id, emvName: replacement.emvName, paymentMethod: '03', currency: 'SGD', aid: 'A000000333010101' });
      expect(JSON.parse(emv.params)).toEqual(JSON.parse(replacement.params));
      expect(emv.updatedAt).toMatch(TIMESTAMP);
    });

    it('should drop params keys that the replacement does not send', async () => {
      const pbo = await app.newPbo();
      const id = await createEmv(pbo);
      dataOf(await pbo.put(`${EMV}/${id}`, emvBody({ params: JSON.stringify({ aid: 'A0000000031010' }) })));
      expect(JSON.parse((await readEmv(pbo, id)).params)).toEqual({ aid: 'A0000000031010' });
    });

    it('should refuse invalid params with 10000 and leave the config unchanged', async () => {
      const pbo = await app.newPbo();
      const id = await createEmv(pbo);
      const before = await readEmv(pbo, id);
      const response = await pbo.put(`${EMV}/${id}`, emvBody({ params: JSON.stringify({ aid: 'A0000000031010', clCVMLimit: -5 }) }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toContain('params.clCVMLimit');
      expect(await readEmv(pbo, id)).toEqual(before);
    });

    it('should refuse changing paymentMethod while an acquirer profile lists the config (409, 10000)', async () => {
      const pbo = await app.newPbo();
      const id = await createEmv(pbo, { paymentMethod: '01' });
      await createAcquirer(pbo, { '01': [id] });
      const before = await readEmv(pbo, id);

      const response = await pbo.put(`${EMV}/${id}`, emvBody({ paymentMethod: '02' }));

      expect(response.status).toBe(409);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toContain('paymentMethod');
      expect(await readEmv(pbo, id)).toEqual(before);
    });

    it('should refuse another PBO\'s config with 403 and 13000 and leave it unchanged', async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const id = await createEmv(owner);
      const before = await readEmv(owner, id);
      const response = await other.put(`${EMV}/${id}`, emvBody());
      expect(response.status).toBe(403);
      expect(response.body.code).toBe(13000);
      expect(await readEmv(owner, id)).toEqual(before);
    });

    it('should answer 404 and 14000 for an id that does not exist', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.put(`${EMV}/999999999`, emvBody());
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(14000);
      expect((await listEmvs(pbo)).total).toBe(0);
    });
  });

  describe('delete', () => {
    it('should delete the config', async () => {
      const pbo = await app.newPbo();
      const id = await createEmv(pbo);
      const response = await pbo.delete(`${EMV}/${id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      const read = await pbo.get(`${EMV}/${id}`);
      expect(read.status).toBe(404);
      expect(read.body.code).toBe(14000);
    });

    it('should refuse while an acquirer profile lists the config (409, 10000, naming the profile)', async () => {
      const pbo = await app.newPbo();
      const id = await createEmv(pbo);
      const profileName = 'Maybank card';
      await createAcquirer(pbo, { '01': [id] }, { profileName });

      const response = await pbo.delete(`${EMV}/${id}`);

      expect(response.status).toBe(409);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toContain(profileName);
      expect((await readEmv(pbo, id)).id).toBe(id);
    });

    it('should delete the config once the acquirer profile that listed it is gone', async () => {
      const pbo = await app.newPbo();
      const id = await createEmv(pbo);
      const profileId = await createAcquirer(pbo, { '01': [id] });
      dataOf(await pbo.delete(`/api/openapi/v1/acquirer/${profileId}`));
      expect((await pbo.delete(`${EMV}/${id}`)).status).toBe(200);
      expect((await pbo.get(`${EMV}/${id}`)).status).toBe(404);
    });

    it('should refuse while a merchant payment config uses the config (409, 10000)', async () => {
      const pbo = await app.newPbo();
      const { id: profileId, emvs } = await createCardAcquirer(pbo, ['01']);
      const emvId = emvs['01'][0];
      await bindMerchant(pbo, profileId);

      const response = await pbo.delete(`${EMV}/${emvId}`);

      expect(response.status).toBe(409);
      expect(response.body.code).toBe(10000);
      expect((await readEmv(pbo, emvId)).id).toBe(emvId);
      const rows = await queryDatabase<{ n: string }>(app.database.url, 'SELECT count(*) AS n FROM merchant_management.payment_method_emv WHERE emv_id = $1', [emvId]);
      expect(Number(rows[0].n)).toBe(1);
    });

    it('should refuse another PBO\'s config with 403 and 13000 and keep it', async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const id = await createEmv(owner);
      const response = await other.delete(`${EMV}/${id}`);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe(13000);
      expect((await readEmv(owner, id)).id).toBe(id);
    });

    it('should answer 404 and 14000 for an id that does not exist', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.delete(`${EMV}/999999999`);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(14000);
    });

    it('should answer 404 and 14000 for an id that is not numeric', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.delete(`${EMV}/1e3`);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(14000);
    });
  });
});
