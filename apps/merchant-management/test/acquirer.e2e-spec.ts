import { ApiClient, queryDatabase } from '@app/testing';
import { acquirerBody, createAcquirer, createCardAcquirer, createEmv, createMerchant } from './factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

const ACQUIRER = '/api/openapi/v1/acquirer';
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/;

interface AcquirerView {
  profileId: number;
  groupId: string;
  profileName: string;
  asDefault: boolean;
  asSettleBlock: boolean;
  currency: string;
  acqType: string;
  connUrl: string | null;
  connMessageFormat: string;
  methodList: string;
  emvList: string;
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
}

interface PageView<T> {
  total: number;
  current: number;
  hasNext: boolean;
  records: T[];
}

describe('acquirer profiles /api/openapi/v1/acquirer', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const listProfiles = async (pbo: ApiClient, query = 'pageSize=-1') => dataOf<PageView<AcquirerView>>(await pbo.get(`${ACQUIRER}?${query}`));
  const readProfile = async (pbo: ApiClient, id: number) => dataOf<AcquirerView>(await pbo.get(`${ACQUIRER}/${id}`));
  const paymentConfigPath = (mchId: string) => `/api/openapi/v1/mchInfo/payment/${mchId}`;
  const bindMerchant = async (pbo: ApiClient, acquirerProfileId: number, paymentMethods?: { paymentMethodCode: string }[]) => {
    const merchant = await createMerchant(pbo);
    dataOf(await pbo.post(paymentConfigPath(merchant.mchId), { acquirerProfileId: String(acquirerProfileId), currency: 'MYR', paymentMethods }));
    return merchant;
  };
  const defaults = async (pbo: ApiClient) => (await listProfiles(pbo)).records.filter((profile) => profile.asDefault).map((profile) => profile.profileId);
  const expectRefused = (response: { status: number; body: { code: number; msg: string } }, status: number, code: number, message?: string) => {
    expect(response.status).toBe(status);
    expect(response.body.code).toBe(code);
    if (message !== undefined) expect(response.body.msg).toContain(message);
  };

  describe('create', () => {
    it('should answer the id of the new profile', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const response = await pbo.post(ACQUIRER, acquirerBody({ '01': [emvId] }));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS', data: { id: expect.any(Number) } });
    });

    it('should drop EMV id 0 from emvList', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const id = await createAcquirer(pbo, { '01': [0, emvId] });
      expect(JSON.parse((await readProfile(pbo, id)).emvList)).toEqual({ '01': [emvId] });
    });

    it('should refuse a card profile without methodList (rule 1)', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const { methodList: _omitted, ...body } = acquirerBody({ '01': [emvId] });
      expectRefused(await pbo.post(ACQUIRER, body), 400, 10000, 'methodList');
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse a card profile without emvList (rule 1)', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const { emvList: _omitted, ...body } = acquirerBody({ '01': [emvId] });
      expectRefused(await pbo.post(ACQUIRER, body), 400, 10000, 'emvList');
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse a card profile whose methodList key has no EMV id in emvList (rule 1)', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const body = acquirerBody({ '01': [emvId] }, { methodList: JSON.stringify({ '01': [], '02': [] }) });
      expectRefused(await pbo.post(ACQUIRER, body), 400, 10000, 'payment method 02');
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse a card profile whose methodList key has only EMV id 0 (rule 1)', async () => {
      const pbo = await app.newPbo();
      const body = acquirerBody({ '01': [0] });
      expectRefused(await pbo.post(ACQUIRER, body), 400, 10000, 'emvList');
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse an emvList key that is not in methodList', async () => {
      const pbo = await app.newPbo();
      const visa = await createEmv(pbo, { paymentMethod: '01' });
      const mastercard = await createEmv(pbo, { paymentMethod: '02' });
      const body = acquirerBody({ '01': [visa], '02': [mastercard] }, { methodList: JSON.stringify({ '01': [] }) });
      expectRefused(await pbo.post(ACQUIRER, body), 400, 10000, 'emvList key 02');
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse an EMV id configured for another payment method', async () => {
      const pbo = await app.newPbo();
      const mastercard = await createEmv(pbo, { paymentMethod: '02' });
      expectRefused(await pbo.post(ACQUIRER, acquirerBody({ '01': [mastercard] })), 400, 10000, 'emvList.01');
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse another PBO\'s EMV id with 403 and 13000', async () => {
      const pbo = await app.newPbo();
      const other = await app.newPbo();
      const foreign = await createEmv(other);
      expectRefused(await pbo.post(ACQUIRER, acquirerBody({ '01': [foreign] })), 403, 13000);
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse an EMV id that does not exist with 404 and 14000', async () => {
      const pbo = await app.newPbo();
      expectRefused(await pbo.post(ACQUIRER, acquirerBody({ '01': [999999999] })), 404, 14000);
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse a qr profile when the PBO\'s QR support is off', async () => {
      const pbo = await app.newPbo({ qrEnabled: false });
      const body = acquirerBody({}, { acqType: 'qr', methodList: JSON.stringify({ '01': [] }) });
      expectRefused(await pbo.post(ACQUIRER, body), 400, 10000, 'qr');
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should accept a qr profile without emvList when the PBO\'s QR support is on', async () => {
      const pbo = await app.newPbo({ qrEnabled: true });
      const { emvList: _omitted, ...body } = acquirerBody({}, { acqType: 'qr', methodList: JSON.stringify({ '01': [] }) });
      const id = dataOf<{ id: number }>(await pbo.post(ACQUIRER, body)).id;
      const profile = await readProfile(pbo, id);
      expect(profile).toMatchObject({ acqType: 'qr' });
      expect(JSON.parse(profile.methodList)).toEqual({ '01': [] });
      expect(JSON.parse(profile.emvList)).toEqual({});
    });

    it('should refuse a profileName the PBO already uses with 409 and 10000', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      await createAcquirer(pbo, { '01': [emvId] }, { profileName: 'Maybank' });
      expectRefused(await pbo.post(ACQUIRER, acquirerBody({ '01': [emvId] }, { profileName: 'Maybank' })), 409, 10000, 'profileName');
      expect((await listProfiles(pbo)).total).toBe(1);
    });

    it('should accept a profileName that only another PBO uses', async () => {
      const pbo = await app.newPbo();
      const other = await app.newPbo();
      await createCardAcquirer(other, ['01'], { profileName: 'CIMB' });
      const { id } = await createCardAcquirer(pbo, ['01'], { profileName: 'CIMB' });
      expect((await readProfile(pbo, id)).profileName).toBe('CIMB');
    });

    it('should refuse a connMessageFormat that is not a host format', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      expectRefused(await pbo.post(ACQUIRER, acquirerBody({ '01': [emvId] }, { connMessageFormat: 'XML' })), 400, 10000, 'connMessageFormat');
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse a connUrl that is not tcp, tls, http or https', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      expectRefused(await pbo.post(ACQUIRER, acquirerBody({ '01': [emvId] }, { connUrl: 'ftp://host.example' })), 400, 10000, 'connUrl');
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse a methodList that is not JSON', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      expectRefused(await pbo.post(ACQUIRER, acquirerBody({ '01': [emvId] }, { methodList: '{01: []' })), 400, 10000, 'methodList');
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse a methodList key that is not a payment method code', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const body = acquirerBody({ '01': [emvId] }, { methodList: JSON.stringify({ '01': [], VISA: [] }) });
      expectRefused(await pbo.post(ACQUIRER, body), 400, 10000, 'methodList key VISA');
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse an unknown field with "is not an accepted field"', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const response = await pbo.post(ACQUIRER, acquirerBody({ '01': [emvId] }, { groupId: 'someone-else' }));
      expectRefused(response, 400, 10000);
      expect(response.body.msg).toBe('groupId is not an accepted field');
      expect((await listProfiles(pbo)).total).toBe(0);
    });
  });

  describe('read', () => {
    it('should list the profile with every field, methodList and emvList as JSON-encoded strings', async () => {
      const pbo = await app.newPbo();
      const visa = await createEmv(pbo, { paymentMethod: '01' });
      const mastercard = await createEmv(pbo, { paymentMethod: '02' });
      const body = acquirerBody({ '01': [visa], '02': [mastercard] }, { asSettleBlock: true });
      const id = dataOf<{ id: number }>(await pbo.post(ACQUIRER, body)).id;

      const page = await listProfiles(pbo, '');

      expect(page).toMatchObject({ total: 1, current: 1, hasNext: false });
      const [profile] = page.records;
      expect(profile).toMatchObject({
        profileId: id,
        groupId: pbo.groupId,
        profileName: body.profileName,
        asDefault: false,
        asSettleBlock: true,
        currency: 'MYR',
        acqType: 'card',
        connUrl: 'tcp://127.0.0.1:5000',
        connMessageFormat: 'SVC_ENABLER',
        enablerMsgFormat: 'MOCK',
        methodList: expect.any(String),
        emvList: expect.any(String),
        createdAt: expect.stringMatching(TIMESTAMP),
        updatedAt: expect.stringMatching(TIMESTAMP),
      });
      expect(JSON.parse(profile.methodList)).toEqual({ '01': [], '02': [] });
      expect(JSON.parse(profile.emvList)).toEqual({ '01': [visa], '02': [mastercard] });
    });

    it('should answer one profile on GET /acquirer/{profileId}', async () => {
      const pbo = await app.newPbo();
      const { id, emvs } = await createCardAcquirer(pbo, ['01']);
      const profile = await readProfile(pbo, id);
      expect(profile).toMatchObject({ profileId: id, groupId: pbo.groupId });
      expect(JSON.parse(profile.emvList)).toEqual(emvs);
    });

    it('should filter by a case-insensitive part of profileName', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const wanted = [await createAcquirer(pbo, { '01': [emvId] }, { profileName: 'Maybank card' }), await createAcquirer(pbo, { '01': [emvId] }, { profileName: 'MAYBANK backup' })];
      await createAcquirer(pbo, { '01': [emvId] }, { profileName: 'CIMB' });
      const page = await listProfiles(pbo, 'pageSize=-1&profileName=maybank');
      expect(page.total).toBe(2);
      expect(page.records.map((profile) => profile.profileId)).toEqual(wanted);
    });

    it('should page the PBO\'s profiles with total, current, hasNext and records', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const ids = [await createAcquirer(pbo, { '01': [emvId] }), await createAcquirer(pbo, { '01': [emvId] }), await createAcquirer(pbo, { '01': [emvId] })];

      const first = await listProfiles(pbo, 'pageNumber=1&pageSize=2');
      const second = await listProfiles(pbo, 'pageNumber=2&pageSize=2');
      const all = await listProfiles(pbo, 'pageSize=-1');

      expect(first).toMatchObject({ total: 3, current: 1, hasNext: true });
      expect(second).toMatchObject({ total: 3, current: 2, hasNext: false });
      expect([...first.records, ...second.records].map((profile) => profile.profileId)).toEqual(ids);
      expect(all).toMatchObject({ total: 3, current: 1, hasNext: false });
      expect(all.records).toHaveLength(3);
    });

    it.each(['pageSize=0', 'pageSize=1001', 'pageSize=abc'])('should refuse %s with 400 and 10000', async (query) => {
      const pbo = await app.newPbo();
      expectRefused(await pbo.get(`${ACQUIRER}?${query}`), 400, 10000, 'pageSize');
    });

    it('should not list another PBO\'s profiles', async () => {
      const pbo = await app.newPbo();
      const other = await app.newPbo();
      await createCardAcquirer(other, ['01']);
      expect((await listProfiles(pbo)).total).toBe(0);
    });

    it('should refuse another PBO\'s profile with 403 and 13000', async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const { id } = await createCardAcquirer(owner, ['01']);
      expectRefused(await other.get(`${ACQUIRER}/${id}`), 403, 13000);
    });

    it.each(['999999999', 'abc'])('should answer 404 and 14000 for profile id %s', async (id) => {
      const pbo = await app.newPbo();
      expectRefused(await pbo.get(`${ACQUIRER}/${id}`), 404, 14000);
    });
  });

  describe('default profile', () => {
    it('should clear the other default of the same acqType when a new profile is created as default', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const first = await createAcquirer(pbo, { '01': [emvId] }, { asDefault: true });
      const second = await createAcquirer(pbo, { '01': [emvId] }, { asDefault: true });
      expect((await readProfile(pbo, first)).asDefault).toBe(false);
      expect((await readProfile(pbo, second)).asDefault).toBe(true);
    });

    it('should clear the other default of the same acqType when a profile is updated to default', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const first = await createAcquirer(pbo, { '01': [emvId] }, { asDefault: true });
      const second = await createAcquirer(pbo, { '01': [emvId] });
      dataOf(await pbo.put(`${ACQUIRER}/${second}`, { asDefault: true }));
      expect((await readProfile(pbo, first)).asDefault).toBe(false);
      expect((await readProfile(pbo, second)).asDefault).toBe(true);
    });

    it('should keep the default of the other acqType', async () => {
      const pbo = await app.newPbo({ qrEnabled: true });
      const emvId = await createEmv(pbo);
      const qr = await createAcquirer(pbo, {}, { acqType: 'qr', methodList: JSON.stringify({ '01': [] }), asDefault: true });
      const card = await createAcquirer(pbo, { '01': [emvId] }, { asDefault: true });
      expect((await readProfile(pbo, qr)).asDefault).toBe(true);
      expect((await readProfile(pbo, card)).asDefault).toBe(true);
    });

    it('should end with exactly one default when two defaults of the same acqType are created concurrently', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const responses = await Promise.all([pbo.post(ACQUIRER, acquirerBody({ '01': [emvId] }, { asDefault: true })), pbo.post(ACQUIRER, acquirerBody({ '01': [emvId] }, { asDefault: true }))]);
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      expect(await defaults(pbo)).toHaveLength(1);
      const rows = await queryDatabase<{ n: string }>(app.database.url, `SELECT count(*) AS n FROM merchant_management.acquirer_profile WHERE group_id = $1 AND acq_type = 'card' AND as_default`, [pbo.groupId]);
      expect(Number(rows[0].n)).toBe(1);
    });

    it('should end with exactly one default when two profiles of the same acqType are made default concurrently', async () => {
      const pbo = await app.newPbo();
      const emvId = await createEmv(pbo);
      const ids = [await createAcquirer(pbo, { '01': [emvId] }), await createAcquirer(pbo, { '01': [emvId] })];
      const responses = await Promise.all(ids.map((id) => pbo.put(`${ACQUIRER}/${id}`, { asDefault: true })));
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      expect(await defaults(pbo)).toHaveLength(1);
    });
  });

  describe('update', () => {
    it('should change only the included fields', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01', '02'], { notifyUrl: 'https://notify.example/acq', enablerParams: 'acqMid,acqTid' });
      const before = await readProfile(pbo, id);

      const response = await pbo.put(`${ACQUIRER}/${id}`, { connUrl: 'https://host.example:8443/pay' });

      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      const after = await readProfile(pbo, id);
      expect(after.connUrl).toBe('https://host.example:8443/pay');
      const { connUrl: _a, updatedAt: _b, ...unchangedAfter } = after;
      const { connUrl: _c, updatedAt: _d, ...unchangedBefore } = before;
      expect(unchangedAfter).toEqual(unchangedBefore);
      expect(after.updatedAt).toMatch(TIMESTAMP);
    });

    it('should change methodList and emvList together', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      const jcb = await createEmv(pbo, { paymentMethod: '05' });
      dataOf(await pbo.put(`${ACQUIRER}/${id}`, { methodList: JSON.stringify({ '05': ['SALE'] }), emvList: JSON.stringify({ '05': [jcb] }) }));
      const profile = await readProfile(pbo, id);
      expect(JSON.parse(profile.methodList)).toEqual({ '05': ['SALE'] });
      expect(JSON.parse(profile.emvList)).toEqual({ '05': [jcb] });
    });

    it('should refuse an emvList that leaves a methodList key without EMV id (rule 1) and change nothing', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01', '02']);
      const before = await readProfile(pbo, id);
      const response = await pbo.put(`${ACQUIRER}/${id}`, { emvList: JSON.stringify({ '01': JSON.parse(before.emvList)['01'] }), profileName: 'renamed' });
      expectRefused(response, 400, 10000, 'payment method 02');
      expect(await readProfile(pbo, id)).toEqual(before);
    });

    it('should refuse a currency different from the stored one and change nothing', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      const before = await readProfile(pbo, id);
      expectRefused(await pbo.put(`${ACQUIRER}/${id}`, { currency: 'SGD', profileName: 'renamed' }), 400, 10000, 'currency');
      expect(await readProfile(pbo, id)).toEqual(before);
    });

    it('should accept a currency equal to the stored one', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      dataOf(await pbo.put(`${ACQUIRER}/${id}`, { currency: 'MYR', profileName: 'renamed' }));
      expect(await readProfile(pbo, id)).toMatchObject({ currency: 'MYR', profileName: 'renamed' });
    });

    it('should refuse an acqType different from the stored one and change nothing', async () => {
      const pbo = await app.newPbo({ qrEnabled: true });
      const { id } = await createCardAcquirer(pbo, ['01']);
      const before = await readProfile(pbo, id);
      expectRefused(await pbo.put(`${ACQUIRER}/${id}`, { acqType: 'qr' }), 400, 10000, 'acqType');
      expect(await readProfile(pbo, id)).toEqual(before);
    });

    it('should accept an acqType equal to the stored one', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      dataOf(await pbo.put(`${ACQUIRER}/${id}`, { acqType: 'card', asSettleBlock: true }));
      expect(await readProfile(pbo, id)).toMatchObject({ acqType: 'card', asSettleBlock: true });
    });

    it('should refuse a profileName another profile of the PBO uses with 409 and 10000', async () => {
      const pbo = await app.newPbo();
      await createCardAcquirer(pbo, ['01'], { profileName: 'Maybank' });
      const { id } = await createCardAcquirer(pbo, ['01'], { profileName: 'CIMB' });
      expectRefused(await pbo.put(`${ACQUIRER}/${id}`, { profileName: 'Maybank' }), 409, 10000, 'profileName');
      expect((await readProfile(pbo, id)).profileName).toBe('CIMB');
    });

    it('should refuse removing a method a merchant binds with 409 naming the merchant, and change nothing', async () => {
      const pbo = await app.newPbo();
      const { id, emvs } = await createCardAcquirer(pbo, ['01', '02']);
      const merchant = await bindMerchant(pbo, id, [{ paymentMethodCode: '02' }]);
      const before = await readProfile(pbo, id);

      const response = await pbo.put(`${ACQUIRER}/${id}`, { methodList: JSON.stringify({ '01': [] }), emvList: JSON.stringify({ '01': emvs['01'] }) });

      expectRefused(response, 409, 10000);
      expect(response.body.msg).toBe(`payment method 02 of this profile is bound by merchant ${merchant.mchId} (MYR); unbind it first`);
      expect(await readProfile(pbo, id)).toEqual(before);
    });

    it('should accept removing a method no merchant binds', async () => {
      const pbo = await app.newPbo();
      const { id, emvs } = await createCardAcquirer(pbo, ['01', '02']);
      await bindMerchant(pbo, id, [{ paymentMethodCode: '01' }]);
      dataOf(await pbo.put(`${ACQUIRER}/${id}`, { methodList: JSON.stringify({ '01': [] }), emvList: JSON.stringify({ '01': emvs['01'] }) }));
      expect(JSON.parse((await readProfile(pbo, id)).methodList)).toEqual({ '01': [] });
    });

    it('should refuse removing an EMV config a merchant binds with 409, and change nothing', async () => {
      const pbo = await app.newPbo();
      const { id, emvs } = await createCardAcquirer(pbo, ['01']);
      const merchant = await bindMerchant(pbo, id);
      const replacement = await createEmv(pbo, { paymentMethod: '01' });
      const before = await readProfile(pbo, id);

      const response = await pbo.put(`${ACQUIRER}/${id}`, { emvList: JSON.stringify({ '01': [replacement] }) });

      expectRefused(response, 409, 10000);
      expect(response.body.msg).toBe(`EMV config ${emvs['01'][0]} of payment method 01 is used by merchant ${merchant.mchId} (MYR); unbind it first`);
      expect(await readProfile(pbo, id)).toEqual(before);
    });

    it.each(['profileName', 'connMessageFormat', 'asDefault', 'asSettleBlock'])('should refuse null for %s with 400 and 10000, changing nothing', async (field) => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      const before = await readProfile(pbo, id);
      expectRefused(await pbo.put(`${ACQUIRER}/${id}`, { [field]: null }), 400, 10000, field);
      expect(await readProfile(pbo, id)).toEqual(before);
    });

    it('should refuse a bad connUrl and change nothing', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      const before = await readProfile(pbo, id);
      expectRefused(await pbo.put(`${ACQUIRER}/${id}`, { connUrl: 'host.example:5000' }), 400, 10000, 'connUrl');
      expect(await readProfile(pbo, id)).toEqual(before);
    });

    it('should refuse an unknown field with "is not an accepted field"', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      const before = await readProfile(pbo, id);
      const response = await pbo.put(`${ACQUIRER}/${id}`, { profileId: 1 });
      expectRefused(response, 400, 10000);
      expect(response.body.msg).toBe('profileId is not an accepted field');
      expect(await readProfile(pbo, id)).toEqual(before);
    });

    it('should refuse another PBO\'s profile with 403 and 13000 and change nothing', async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const { id } = await createCardAcquirer(owner, ['01']);
      const before = await readProfile(owner, id);
      expectRefused(await other.put(`${ACQUIRER}/${id}`, { profileName: 'taken over' }), 403, 13000);
      expect(await readProfile(owner, id)).toEqual(before);
    });

    it('should answer 404 and 14000 for a profile that does not exist', async () => {
      const pbo = await app.newPbo();
      expectRefused(await pbo.put(`${ACQUIRER}/999999999`, { profileName: 'x' }), 404, 14000);
    });
  });

  describe('delete', () => {
    it('should delete the profile', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      const response = await pbo.delete(`${ACQUIRER}/${id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      expectRefused(await pbo.get(`${ACQUIRER}/${id}`), 404, 14000);
    });

    it('should refuse while a merchant binds it (409, 10000, used by merchant) and succeed once the binding is deleted', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      const merchant = await bindMerchant(pbo, id);

      const refused = await pbo.delete(`${ACQUIRER}/${id}`);

      expectRefused(refused, 409, 10000);
      expect(refused.body.msg).toBe(`acquirer profile ${id} is used by merchant(s) ${merchant.mchId}; remove those payment configs first`);
      expect((await readProfile(pbo, id)).profileId).toBe(id);

      dataOf(await pbo.delete(`${paymentConfigPath(merchant.mchId)}?acquirerProfileId=${id}&currency=MYR`));
      expect((await pbo.delete(`${ACQUIRER}/${id}`)).status).toBe(200);
      expectRefused(await pbo.get(`${ACQUIRER}/${id}`), 404, 14000);
    });

    it('should refuse another PBO\'s profile with 403 and 13000 and keep it', async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const { id } = await createCardAcquirer(owner, ['01']);
      expectRefused(await other.delete(`${ACQUIRER}/${id}`), 403, 13000);
      expect((await readProfile(owner, id)).profileId).toBe(id);
    });

    it.each(['999999999', 'abc'])('should answer 404 and 14000 for profile id %s', async (id) => {
      const pbo = await app.newPbo();
      expectRefused(await pbo.delete(`${ACQUIRER}/${id}`), 404, 14000);
    });
  });
});
