import { ApiClient, queryDatabase, unique } from '@app/testing';
import { createCardAcquirer, createMerchant, merchantBody, MerchantView } from './factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

const MERCHANTS = '/api/openapi/v1/mchInfo';
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Page<T> {
  total: number;
  current: number;
  hasNext: boolean;
  records: T[];
}

describe('merchants (/api/openapi/v1/mchInfo)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  async function merchantCount(groupId: string): Promise<number> {
    const [{ n }] = await queryDatabase<{ n: number }>(app.database.url, 'SELECT count(*)::int AS n FROM merchant_management.merchant WHERE group_id = $1', [groupId]);
    return n;
  }

  async function list(client: ApiClient, query: string): Promise<Page<MerchantView>> {
    return dataOf<Page<MerchantView>>(await client.get(`${MERCHANTS}?${query}`));
  }

  describe('create', () => {
    it('should answer every field of the Merchant table', async () => {
      const pbo = await app.newPbo();
      const before = Date.now();
      const response = await pbo.post(MERCHANTS, merchantBody({ mchName: 'Kedai Runcit Aminah', mcc: '5411', country: 'MY', region: 'KL', contactPhone: '+60 3-1234 5678', contactAddress: '1 Jalan Ampang' }));

      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ code: 0, msg: 'SUCCESS' });
      const merchant = response.body.data as MerchantView;
      expect(merchant).toMatchObject({
        groupId: pbo.groupId,
        mchName: 'Kedai Runcit Aminah',
        mcc: '5411',
        region: 'KL',
        timeZone: 'Asia/Kuala_Lumpur',
        country: 'MY',
        contactName: 'Aisyah',
        contactPhone: '+60 3-1234 5678',
        contactEmail: 'aisyah@example.com',
        contactAddress: '1 Jalan Ampang',
        state: 1,
        currency: 'MYR',
        supportedPayments: [],
        hasKioskTerminal: false,
        acquirers: [],
      });
      expect(merchant.uuid).toMatch(UUID_V4);
      expect(merchant.mchId).toMatch(/^[1-9]\d{14}$/);
      expect(merchant.id).toBe(merchant.mchId);
      expect(merchant).toHaveProperty('providerReference');
      expect(merchant).toHaveProperty('createdBy');
      expect(merchant.createdAt).toMatch(TIMESTAMP);
      expect(merchant.updatedAt).toMatch(TIMESTAMP);
      const createdAt = Date.parse((merchant.createdAt as string).replace('+0000', 'Z'));
      expect(createdAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
      expect(createdAt).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('should keep the state given on create', async () => {
      const pbo = await app.newPbo();
      const merchant = await createMerchant(pbo, { state: 0 });
      expect(merchant.state).toBe(0);
    });

    it("should default timeZone to the PBO's time zone", async () => {
      const pbo = await app.newPbo({ timeZone: 'Europe/Paris' });
      const merchant = await createMerchant(pbo);
      expect(merchant.timeZone).toBe('Europe/Paris');
    });

    it('should keep a timeZone given on create', async () => {
      const pbo = await app.newPbo({ timeZone: 'Europe/Paris' });
      const merchant = await createMerchant(pbo, { timeZone: 'Asia/Tokyo' });
      expect(merchant.timeZone).toBe('Asia/Tokyo');
    });

    it('should store additionalData and return it as given', async () => {
      const pbo = await app.newPbo();
      const additionalData = { crmId: 'C-42', tags: ['halal', 'kiosk'], owner: { name: 'Aminah', shares: 0.51, verified: true, notes: null } };
      const created = await createMerchant(pbo, { additionalData });
      expect(created.additionalData).toEqual(additionalData);
      const read = dataOf<MerchantView>(await pbo.get(`${MERCHANTS}/${created.mchId}`));
      expect(read.additionalData).toEqual(additionalData);
    });

    it('should show a passcode as ****** and never in clear', async () => {
      const pbo = await app.newPbo();
      const passcode = 'Op3rator-Secret';
      const response = await pbo.post(MERCHANTS, merchantBody({ passcode }));
      const created = dataOf(response) as MerchantView;
      expect(created.passcode).toBe('******');
      const read = await pbo.get(`${MERCHANTS}/${created.mchId}`);
      const listed = await pbo.get(`${MERCHANTS}?mchId=${created.mchId}`);
      expect((read.body.data as MerchantView).passcode).toBe('******');
      for (const body of [response.body, read.body, listed.body]) expect(JSON.stringify(body)).not.toContain(passcode);
      const [row] = await queryDatabase<{ passcode_hash: string }>(app.database.url, 'SELECT passcode_hash FROM merchant_management.merchant WHERE mch_id = $1', [created.mchId]);
      expect(row.passcode_hash).not.toContain(passcode);
    });

    it('should show passcode null when none is set', async () => {
      const pbo = await app.newPbo();
      const merchant = await createMerchant(pbo);
      expect(merchant.passcode).toBeNull();
    });

    it.each(['mchName', 'currency', 'contactName', 'contactEmail'])('should refuse a merchant without %s with 10000 naming it', async (field) => {
      const pbo = await app.newPbo();
      const body: Record<string, unknown> = merchantBody();
      delete body[field];
      const response = await pbo.post(MERCHANTS, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 10000, msg: `${field} is required` });
      expect(await merchantCount(pbo.groupId)).toBe(0);
    });

    it.each([
      ['currency', 'XYZ'],
      ['currency', 'myr'],
      ['country', 'XX'],
      ['country', 'my'],
      ['timeZone', 'Mars/Olympus'],
      ['mcc', '12345'],
      ['mcc', '12a4'],
      ['contactEmail', 'aisyah.example.com'],
      ['state', 2],
    ])('should refuse %s %j with 10000 naming the field', async (field, value) => {
      const pbo = await app.newPbo();
      const response = await pbo.post(MERCHANTS, merchantBody({ [field]: value }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toMatch(new RegExp(`^${field}\\b`));
      expect(await merchantCount(pbo.groupId)).toBe(0);
    });

    it('should refuse additionalData that is not an object with 10000', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.post(MERCHANTS, merchantBody({ additionalData: ['a', 'b'] }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toMatch(/^additionalData\b/);
      expect(await merchantCount(pbo.groupId)).toBe(0);
    });

    it('should refuse an unknown field such as groupId with 10000', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.post(MERCHANTS, merchantBody({ groupId: 'someone-else' }));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 10000, msg: 'groupId is not an accepted field' });
      expect(await merchantCount(pbo.groupId)).toBe(0);
    });

    it('should refuse a providerReference already used in the same PBO with 409 and 10000', async () => {
      const pbo = await app.newPbo();
      const providerReference = unique('ref-');
      await createMerchant(pbo, { providerReference });
      const response = await pbo.post(MERCHANTS, merchantBody({ providerReference }));
      expect(response.status).toBe(409);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toContain('providerReference');
      expect(await merchantCount(pbo.groupId)).toBe(1);
    });

    it('should accept a providerReference that another PBO uses', async () => {
      const providerReference = unique('ref-');
      await createMerchant(await app.newPbo(), { providerReference });
      const merchant = await createMerchant(await app.newPbo(), { providerReference });
      expect(merchant.providerReference).toBe(providerReference);
    });
  });

  describe('automatic default binding', () => {
    it('should bind a new merchant to the default card acquirer profile', async () => {
      const pbo = await app.newPbo();
      const profileName = unique('default-acquirer-');
      const profile = await createCardAcquirer(pbo, ['01', '02'], { asDefault: true, profileName });

      const merchant = await createMerchant(pbo);

      expect([...merchant.supportedPayments].sort()).toEqual(['01', '02']);
      expect(merchant.acquirers).toHaveLength(1);
      const [summary] = merchant.acquirers;
      expect(summary).toMatchObject({ profileId: profile.id, profileName, currency: 'MYR', acqType: 'card' });
      expect(JSON.parse(summary.methodList)).toEqual({ '01': [], '02': [] });
      expect(JSON.parse(summary.emvList)).toEqual({ '01': profile.emvs['01'], '02': profile.emvs['02'] });

      const config = dataOf<Page<{ acquirerProfileId: string; currency: string; paymentMethods: { paymentMethodCode: string }[] }>>(await pbo.get(`${MERCHANTS}/payment/${merchant.mchId}`));
      expect(config.total).toBe(1);
      expect(config.records[0]).toMatchObject({ acquirerProfileId: String(profile.id), currency: 'MYR' });
      expect(config.records[0].paymentMethods.map((m) => m.paymentMethodCode).sort()).toEqual(['01', '02']);
    });

    it("should bind in the default profile's currency whatever the merchant's currency", async () => {
      const pbo = await app.newPbo();
      const profile = await createCardAcquirer(pbo, ['01'], { asDefault: true });
      const merchant = await createMerchant(pbo, { currency: 'USD' });
      expect(merchant.acquirers).toEqual([expect.objectContaining({ profileId: profile.id, currency: 'MYR' })]);
    });

    it('should bind nothing when the PBO has no default card acquirer profile', async () => {
      const pbo = await app.newPbo();
      await createCardAcquirer(pbo, ['01', '02'], { asDefault: false });
      const merchant = await createMerchant(pbo);
      expect(merchant.supportedPayments).toEqual([]);
      expect(merchant.acquirers).toEqual([]);
      const config = dataOf<Page<unknown>>(await pbo.get(`${MERCHANTS}/payment/${merchant.mchId}`));
      expect(config).toEqual({ total: 0, current: 1, hasNext: false, records: [] });
    });
  });

  describe('read', () => {
    it('should answer a merchant by mchId', async () => {
      const pbo = await app.newPbo();
      const created = await createMerchant(pbo, { mcc: '5812' });
      const response = await pbo.get(`${MERCHANTS}/${created.mchId}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS', data: created });
    });

    it('should answer 404 and 14000 for a merchant that does not exist', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.get(`${MERCHANTS}/999999999999999`);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(14000);
    });

    it("should answer 403 and 13000 for another PBO's merchant", async () => {
      const owner = await app.newPbo();
      const merchant = await createMerchant(owner);
      const response = await (await app.newPbo()).get(`${MERCHANTS}/${merchant.mchId}`);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe(13000);
      expect(response.body.data).toBeUndefined();
    });
  });

  describe('list', () => {
    it('should filter by uuid exactly', async () => {
      const pbo = await app.newPbo();
      const wanted = await createMerchant(pbo);
      await createMerchant(pbo);
      const page = await list(pbo, `uuid=${wanted.uuid}`);
      expect(page.total).toBe(1);
      expect(page.records.map((m) => m.mchId)).toEqual([wanted.mchId]);
    });

    it('should filter by mchId exactly', async () => {
      const pbo = await app.newPbo();
      const wanted = await createMerchant(pbo);
      await createMerchant(pbo);
      expect((await list(pbo, `mchId=${wanted.mchId}`)).records.map((m) => m.uuid)).toEqual([wanted.uuid]);
      expect((await list(pbo, `mchId=${wanted.mchId.slice(0, 10)}`)).total).toBe(0);
    });

    it('should filter by mchName partially and case-insensitively', async () => {
      const pbo = await app.newPbo();
      const kopi = await createMerchant(pbo, { mchName: 'Kopi Tiam Ah Seng' });
      const kopitiam = await createMerchant(pbo, { mchName: 'KOPITIAM Jaya' });
      await createMerchant(pbo, { mchName: 'Warung Pak Din' });
      const page = await list(pbo, `mchName=${encodeURIComponent('kopi')}`);
      expect(page.total).toBe(2);
      expect(page.records.map((m) => m.mchId).sort()).toEqual([kopi.mchId, kopitiam.mchId].sort());
      expect((await list(pbo, `mchName=${encodeURIComponent('tiam ah')}`)).records.map((m) => m.mchId)).toEqual([kopi.mchId]);
    });

    it("should match '%' in mchName literally", async () => {
      const pbo = await app.newPbo();
      const percent = await createMerchant(pbo, { mchName: 'Kedai 100% Halal' });
      await createMerchant(pbo, { mchName: 'Kedai 1000 Halal' });
      await createMerchant(pbo, { mchName: 'Kedai 100 Halal' });
      const page = await list(pbo, `mchName=${encodeURIComponent('100%')}`);
      expect(page.records.map((m) => m.mchId)).toEqual([percent.mchId]);
      expect((await list(pbo, `mchName=${encodeURIComponent('%')}`)).records.map((m) => m.mchId)).toEqual([percent.mchId]);
    });

    it("should list only the PBO's own merchants", async () => {
      const pbo = await app.newPbo();
      const own = await createMerchant(pbo);
      const foreign = await createMerchant(await app.newPbo());
      const page = await list(pbo, 'pageSize=-1');
      expect(page.records.map((m) => m.mchId)).toEqual([own.mchId]);
      expect((await list(pbo, `mchId=${foreign.mchId}`)).total).toBe(0);
    });

    it('should page 5 merchants two at a time', async () => {
      const pbo = await app.newPbo();
      const created: string[] = [];
      for (let i = 0; i < 5; i++) created.push((await createMerchant(pbo)).mchId);

      const first = await list(pbo, 'pageSize=2&pageNumber=1');
      expect(first).toMatchObject({ total: 5, current: 1, hasNext: true });
      expect(first.records).toHaveLength(2);
      const second = await list(pbo, 'pageSize=2&pageNumber=2');
      expect(second).toMatchObject({ total: 5, current: 2, hasNext: true });
      const third = await list(pbo, 'pageSize=2&pageNumber=3');
      expect(third).toMatchObject({ total: 5, current: 3, hasNext: false });
      expect(third.records).toHaveLength(1);
      const seen = [...first.records, ...second.records, ...third.records].map((m) => m.mchId);
      expect(seen.sort()).toEqual([...created].sort());
    });

    it('should answer every merchant on one page with pageSize -1', async () => {
      const pbo = await app.newPbo();
      for (let i = 0; i < 3; i++) await createMerchant(pbo);
      const page = await list(pbo, 'pageSize=-1');
      expect(page).toMatchObject({ total: 3, current: 1, hasNext: false });
      expect(page.records).toHaveLength(3);
    });

    it('should default to pages of 20', async () => {
      const pbo = await app.newPbo();
      for (let i = 0; i < 21; i++) await createMerchant(pbo);
      const page = await list(pbo, '');
      expect(page).toMatchObject({ total: 21, current: 1, hasNext: true });
      expect(page.records).toHaveLength(20);
    });

    it.each(['pageSize=0', 'pageSize=1001', 'pageNumber=0', 'pageSize=abc'])('should refuse %s with 10000', async (query) => {
      const pbo = await app.newPbo();
      const response = await pbo.get(`${MERCHANTS}?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toMatch(new RegExp(`^${query.split('=')[0]}\\b`));
    });
  });

  describe('replace (PUT)', () => {
    it('should replace the profile fields and answer the merchant', async () => {
      const pbo = await app.newPbo();
      const created = await createMerchant(pbo, { mcc: '5812', state: 1 });
      const response = await pbo.put(`${MERCHANTS}/${created.mchId}`, merchantBody({ mchName: 'Renamed', mcc: '5411', state: 0, country: 'SG', currency: 'SGD' }));
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ mchId: created.mchId, uuid: created.uuid, mchName: 'Renamed', mcc: '5411', state: 0, country: 'SG', currency: 'SGD' });
      const read = dataOf<MerchantView>(await pbo.get(`${MERCHANTS}/${created.mchId}`));
      expect(read).toMatchObject({ mchName: 'Renamed', mcc: '5411', state: 0, country: 'SG', currency: 'SGD', createdAt: created.createdAt });
      expect(read.updatedAt).toMatch(TIMESTAMP);
    });

    it('should move updatedAt forward and keep createdAt on PUT', async () => {
      const pbo = await app.newPbo();
      const created = await createMerchant(pbo);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const replaced = dataOf<MerchantView>(await pbo.put(`${MERCHANTS}/${created.mchId}`, merchantBody()));
      expect(replaced.createdAt).toBe(created.createdAt);
      expect((replaced.updatedAt as string) > (created.updatedAt as string)).toBe(true);
    });

    it('should clear an optional field that the PUT omits', async () => {
      const pbo = await app.newPbo();
      const created = await createMerchant(pbo, { mcc: '5812', region: 'KL', additionalData: { a: 1 }, providerReference: unique('ref-') });
      dataOf(await pbo.put(`${MERCHANTS}/${created.mchId}`, merchantBody({ mchName: created.mchName })));
      const read = dataOf<MerchantView>(await pbo.get(`${MERCHANTS}/${created.mchId}`));
      expect(read).toMatchObject({ mcc: null, region: null, additionalData: null, providerReference: null });
    });

    it("should set timeZone back to the PBO's when the PUT omits it", async () => {
      const pbo = await app.newPbo({ timeZone: 'Europe/Paris' });
      const created = await createMerchant(pbo, { timeZone: 'Asia/Tokyo' });
      dataOf(await pbo.put(`${MERCHANTS}/${created.mchId}`, merchantBody()));
      expect(dataOf<MerchantView>(await pbo.get(`${MERCHANTS}/${created.mchId}`)).timeZone).toBe('Europe/Paris');
    });

    it('should set state back to 1 when the PUT omits it', async () => {
      const pbo = await app.newPbo();
      const created = await createMerchant(pbo, { state: 0 });
      dataOf(await pbo.put(`${MERCHANTS}/${created.mchId}`, merchantBody()));
      expect(dataOf<MerchantView>(await pbo.get(`${MERCHANTS}/${created.mchId}`)).state).toBe(1);
    });

    it('should keep the passcode when the PUT omits it', async () => {
      const pbo = await app.newPbo();
      const created = await createMerchant(pbo, { passcode: 'Op3rator-Secret' });
      const [before] = await queryDatabase<{ passcode_hash: string }>(app.database.url, 'SELECT passcode_hash FROM merchant_management.merchant WHERE uuid = $1', [created.uuid]);
      const response = await pbo.put(`${MERCHANTS}/${created.mchId}`, merchantBody());
      expect((response.body.data as MerchantView).passcode).toBe('******');
      expect(dataOf<MerchantView>(await pbo.get(`${MERCHANTS}/${created.mchId}`)).passcode).toBe('******');
      const [after] = await queryDatabase<{ passcode_hash: string }>(app.database.url, 'SELECT passcode_hash FROM merchant_management.merchant WHERE uuid = $1', [created.uuid]);
      expect(after.passcode_hash).toBe(before.passcode_hash);
    });

    it('should clear the passcode when the PUT sends null', async () => {
      const pbo = await app.newPbo();
      const created = await createMerchant(pbo, { passcode: 'Op3rator-Secret' });
      dataOf(await pbo.put(`${MERCHANTS}/${created.mchId}`, merchantBody({ passcode: null })));
      expect(dataOf<MerchantView>(await pbo.get(`${MERCHANTS}/${created.mchId}`)).passcode).toBeNull();
    });

    it('should leave the payment config alone', async () => {
      const pbo = await app.newPbo();
      await createCardAcquirer(pbo, ['01'], { asDefault: true });
      const created = await createMerchant(pbo);
      dataOf(await pbo.put(`${MERCHANTS}/${created.mchId}`, merchantBody()));
      const read = dataOf<MerchantView>(await pbo.get(`${MERCHANTS}/${created.mchId}`));
      expect(read.supportedPayments).toEqual(['01']);
      expect(read.acquirers).toEqual(created.acquirers);
    });

    it('should refuse a PUT without a required field with 10000 and change nothing', async () => {
      const pbo = await app.newPbo();
      const created = await createMerchant(pbo);
      const body: Record<string, unknown> = merchantBody({ mchName: 'Renamed' });
      delete body.contactEmail;
      const response = await pbo.put(`${MERCHANTS}/${created.mchId}`, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 10000, msg: 'contactEmail is required' });
      expect(dataOf<MerchantView>(await pbo.get(`${MERCHANTS}/${created.mchId}`)).mchName).toBe(created.mchName);
    });

    it("should refuse a PUT to another merchant's providerReference with 409 and 10000", async () => {
      const pbo = await app.newPbo();
      const providerReference = unique('ref-');
      await createMerchant(pbo, { providerReference });
      const other = await createMerchant(pbo, { providerReference: unique('ref-') });
      const response = await pbo.put(`${MERCHANTS}/${other.mchId}`, merchantBody({ providerReference }));
      expect(response.status).toBe(409);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toContain('providerReference');
      expect(dataOf<MerchantView>(await pbo.get(`${MERCHANTS}/${other.mchId}`)).providerReference).toBe(other.providerReference);
    });

    it('should answer 404 and 14000 for a merchant that does not exist', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.put(`${MERCHANTS}/999999999999999`, merchantBody());
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(14000);
    });

    it("should refuse another PBO's merchant with 403 and 13000 and change nothing", async () => {
      const owner = await app.newPbo();
      const merchant = await createMerchant(owner);
      const response = await (await app.newPbo()).put(`${MERCHANTS}/${merchant.mchId}`, merchantBody({ mchName: 'Hijacked' }));
      expect(response.status).toBe(403);
      expect(response.body.code).toBe(13000);
      expect(dataOf<MerchantView>(await owner.get(`${MERCHANTS}/${merchant.mchId}`)).mchName).toBe(merchant.mchName);
    });
  });

  describe('delete', () => {
    it('should delete a merchant without payment config, after which it is 14000', async () => {
      const pbo = await app.newPbo();
      const merchant = await createMerchant(pbo);
      const response = await pbo.delete(`${MERCHANTS}/${merchant.mchId}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      const read = await pbo.get(`${MERCHANTS}/${merchant.mchId}`);
      expect(read.status).toBe(404);
      expect(read.body.code).toBe(14000);
      expect(await merchantCount(pbo.groupId)).toBe(0);
    });

    it('should refuse to delete a merchant with a payment config with 409 and 10000', async () => {
      const pbo = await app.newPbo();
      await createCardAcquirer(pbo, ['01'], { asDefault: true });
      const merchant = await createMerchant(pbo);
      const response = await pbo.delete(`${MERCHANTS}/${merchant.mchId}`);
      expect(response.status).toBe(409);
      expect(response.body.code).toBe(10000);
      expect(response.body.msg).toMatch(/payment config/);
      expect(dataOf<MerchantView>(await pbo.get(`${MERCHANTS}/${merchant.mchId}`)).supportedPayments).toEqual(['01']);
    });

    it('should answer 404 and 14000 for a merchant that does not exist', async () => {
      const pbo = await app.newPbo();
      const response = await pbo.delete(`${MERCHANTS}/999999999999999`);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(14000);
    });

    it("should refuse another PBO's merchant with 403 and 13000 and keep it", async () => {
      const owner = await app.newPbo();
      const merchant = await createMerchant(owner);
      const response = await (await app.newPbo()).delete(`${MERCHANTS}/${merchant.mchId}`);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe(13000);
      expect(dataOf<MerchantView>(await owner.get(`${MERCHANTS}/${merchant.mchId}`)).mchId).toBe(merchant.mchId);
    });
  });
});
