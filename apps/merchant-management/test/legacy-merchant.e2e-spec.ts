import { ApiClient, EnvelopeBody, HttpResponse, queryDatabase } from '@app/testing';
import { createCardAcquirer, createMerchant, MerchantView } from './factories';
import { createLegacyDevice, createLegacyMerchant, LegacyMerchant, legacyMerchantBody, V2 } from './legacy-factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Legacy merchants (`/api/v2/mchInfo`; docs/decisions.md, "Legacy /api/v2") and the
 * single-method unbind (`DELETE /api/v2/mchInfo/payment/{mchId}/{paymentMethod}`), over the same
 * services as v1: `supportedPaymentMethods` and `extParams` in the response, currency defaulted
 * from the PBO's default card profile, partial PUT, and one truth shared with
 * `/api/openapi/v1/mchInfo`.
 */

const V1 = '/api/openapi/v1';
const UPSERT = 'gateway.profile.upsert.v1';

type Pbo = ApiClient & { groupId: string };

interface PageView<T> {
  total: number;
  current: number;
  hasNext: boolean;
  records: T[];
}

interface PaymentConfig {
  acquirerProfileId: string;
  currency: string;
  paymentMethods: { paymentMethodCode: string; emvs: { emvId: number }[] }[];
}

interface Upsert {
  profileId: string;
  version: number;
  merchantName: string;
  acceptances: { acptName: string; supportedPayments: string[] }[];
}

function expectEnvelope(response: HttpResponse<EnvelopeBody>, status: number, code: number, msg: RegExp = /\S/): void {
  expect({ status: response.status, code: response.body.code, msg: response.body.msg }).toEqual({ status, code, msg: expect.stringMatching(msg) });
}

/** The v1 merchant as the legacy API shows it, less the fields only the legacy shape has. */
function sharedFields(merchant: Record<string, unknown>): Record<string, unknown> {
  const { acquirers: _acquirers, supportedPaymentMethods: _methods, extParams: _extParams, ...fields } = merchant;
  return fields;
}

describe('legacy merchants /api/v2/mchInfo', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const readV1 = async (pbo: ApiClient, mchId: string) => dataOf<MerchantView>(await pbo.get(`${V1}/mchInfo/${mchId}`));
  const readV2 = async (pbo: ApiClient, mchId: string) => dataOf<LegacyMerchant>(await pbo.get(`${V2}/mchInfo/${mchId}`));
  const listV2 = async (pbo: ApiClient, query = '') => dataOf<PageView<LegacyMerchant>>(await pbo.get(`${V2}/mchInfo${query ? `?${query}` : ''}`));
  const paymentConfig = async (pbo: ApiClient, mchId: string) => dataOf<PageView<PaymentConfig>>(await pbo.get(`${V1}/mchInfo/payment/${mchId}`));
  const merchantsOf = async (pbo: Pbo) =>
    Number(
      (await queryDatabase<{ n: string }>(app.database.url, 'SELECT count(*) AS n FROM merchant_management.merchant WHERE group_id = $1', [pbo.groupId]))[0].n,
    );
  const bind = async (pbo: ApiClient, mchId: string, profileId: number, extra: Record<string, unknown> = {}) =>
    dataOf(await pbo.post(`${V1}/mchInfo/payment/${mchId}`, { acquirerProfileId: String(profileId), currency: 'MYR', ...extra }));

  describe('parity with v1', () => {
    it('should read a merchant created through v2 the same through v1', async () => {
      const pbo = await app.newPbo();
      const created = await createLegacyMerchant(pbo, { contactAddress: '1 Jalan Ampang', providerReference: 'ext-1', country: 'MY' });
      const v1 = await readV1(pbo, created.mchId);
      expect(sharedFields(created)).toEqual(sharedFields(v1));
      expect(v1).toMatchObject({
        groupId: pbo.groupId,
        mcc: '5812',
        timeZone: 'Asia/Kuala_Lumpur',
        currency: 'MYR',
        contactAddress: '1 Jalan Ampang',
        providerReference: 'ext-1',
        state: 1,
      });
    });

    it('should read a merchant created through v1 the same through v2, by id and in the list', async () => {
      const pbo = await app.newPbo();
      const v1 = await createMerchant(pbo, { country: 'MY', mcc: '5411' });
      const byId = await readV2(pbo, v1.mchId);
      expect(sharedFields(byId)).toEqual(sharedFields(v1));
      expect((await listV2(pbo)).records).toEqual([byId]);
    });

    it('should answer the legacy fields: supportedPayments, supportedPaymentMethods, extParams, and no acquirers', async () => {
      const pbo = await app.newPbo();
      const created = await createLegacyMerchant(pbo);
      expect(created).toMatchObject({ id: created.mchId, supportedPayments: [], supportedPaymentMethods: [], extParams: { acqMid: null, acqTid: null } });
      expect(created).not.toHaveProperty('acquirers');
      for (const field of [
        'uuid',
        'mchId',
        'mchName',
        'contactName',
        'contactEmail',
        'contactAddress',
        'contactPhone',
        'groupId',
        'timeZone',
        'mcc',
        'providerReference',
        'state',
        'receiptLogo',
        'createdAt',
        'updatedAt',
      ]) {
        expect(created).toHaveProperty(field);
      }
    });

    it('should show each bound method by name with its acquirer profile, and the MID of the first binding that has one', async () => {
      const pbo = await app.newPbo();
      const a = await createCardAcquirer(pbo, ['01', '02']);
      const b = await createCardAcquirer(pbo, ['03']);
      const merchant = await createLegacyMerchant(pbo);
      await bind(pbo, merchant.mchId, a.id);
      await bind(pbo, merchant.mchId, b.id, { mid: 'MIDB' });
      const read = await readV2(pbo, merchant.mchId);
      expect(read.supportedPaymentMethods).toEqual([
        { paymentMethod: 'VISA', profileId: a.id },
        { paymentMethod: 'MASTERCARD', profileId: a.id },
        { paymentMethod: 'UNIONPAY', profileId: b.id },
      ]);
      expect(read.supportedPayments).toEqual((await readV1(pbo, merchant.mchId)).supportedPayments);
      expect(read.extParams).toEqual({ acqMid: 'MIDB', acqTid: null });
    });

    it("should show the PBO's default MID when no binding has a MID", async () => {
      const pbo = await app.newPbo();
      // Set before the PBO's first request (PBO reads are cached).
      await queryDatabase(app.database.url, 'UPDATE merchant_management.pbo SET default_mid = $2 WHERE group_id = $1', [pbo.groupId, 'PBOMID']);
      const { id } = await createCardAcquirer(pbo, ['01']);
      const merchant = await createLegacyMerchant(pbo);
      await bind(pbo, merchant.mchId, id);
      expect((await readV2(pbo, merchant.mchId)).extParams).toEqual({ acqMid: 'PBOMID', acqTid: null });
    });
  });

  describe('create', () => {
    it("should take the default card profile's currency when the body has none, and bind that profile", async () => {
      const pbo = await app.newPbo();
      const profile = await createCardAcquirer(pbo, ['01'], { asDefault: true, currency: 'SGD' });
      const created = await createLegacyMerchant(pbo, { currency: undefined });
      expect(created.currency).toBe('SGD');
      expect(created.supportedPaymentMethods).toEqual([{ paymentMethod: 'VISA', profileId: profile.id }]);
    });

    it("should take the time zone's national currency for a body without currency when the PBO has no default card profile", async () => {
      const pbo = await app.newPbo();
      const created = dataOf<{ currency: string }>(await pbo.post(`${V2}/mchInfo`, legacyMerchantBody({ currency: undefined, timeZone: 'Asia/Singapore' })));
      expect(created.currency).toBe('SGD');
    });

    it('should refuse a body without currency with 10000 naming currency when nothing names one, writing nothing', async () => {
      const pbo = await app.newPbo({ timeZone: undefined });
      expectEnvelope(await pbo.post(`${V2}/mchInfo`, legacyMerchantBody({ currency: undefined, timeZone: 'UTC' })), 400, 10000, /^currency is required/);
      expect(await merchantsOf(pbo)).toBe(0);
    });

    it.each([
      ['no mchName', { mchName: undefined }, /^mchName is required/],
      // Field 43 is printable ASCII: a name with no Latin letter or digit would reach the host blank.
      ['a mchName blank on the wire', { mchName: '北京饭店' }, /^mchName must carry at least one Latin letter or digit/],
      ['a bad contactEmail', { contactEmail: 'nobody' }, /^contactEmail must be an e-mail address/],
      ['a bad currency', { currency: 'XYZ' }, /^currency must be an ISO 4217/],
      ['a null currency', { currency: null }, /^currency must not be null/],
      ['a bad timeZone', { timeZone: 'Mars/Olympus' }, /^timeZone must be an IANA time zone/],
      ['a bad mcc', { mcc: '58' }, /^mcc must be 4 digits/],
      ['a groupId that is not a string', { groupId: 7 }, /^groupId must be a string/],
      ['an unknown field', { mchType: 'x' }, /^mchType is not an accepted field/],
    ])('should refuse %s with 400 and 10000 naming the field, writing nothing', async (_case, overrides, msg) => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.post(`${V2}/mchInfo`, legacyMerchantBody(overrides)), 400, 10000, msg);
      expect(await merchantsOf(pbo)).toBe(0);
    });

    it("should accept a groupId equal to the token's", async () => {
      const pbo = await app.newPbo();
      expect((await createLegacyMerchant(pbo, { groupId: pbo.groupId })).groupId).toBe(pbo.groupId);
    });

    it("should refuse a groupId other than the token's with 403 and 13000, writing nothing anywhere", async () => {
      const pbo = await app.newPbo();
      const other = await app.newPbo();
      expectEnvelope(await pbo.post(`${V2}/mchInfo`, legacyMerchantBody({ groupId: other.groupId })), 403, 13000, /groupId/);
      expect(await merchantsOf(pbo)).toBe(0);
      expect(await merchantsOf(other)).toBe(0);
    });
  });

  describe('list', () => {
    it('should answer pages of 10 by default, without mchId', async () => {
      const pbo = await app.newPbo();
      for (let i = 0; i < 11; i++) await createLegacyMerchant(pbo);
      const first = await listV2(pbo);
      expect({ total: first.total, current: first.current, hasNext: first.hasNext, size: first.records.length }).toEqual({
        total: 11,
        current: 1,
        hasNext: true,
        size: 10,
      });
      const all = await listV2(pbo, 'pageSize=-1');
      expect({ total: all.total, hasNext: all.hasNext, size: all.records.length }).toEqual({ total: 11, hasNext: false, size: 11 });
    });

    it('should filter by mchId exactly and by mchName partially', async () => {
      const pbo = await app.newPbo();
      const aminah = await createLegacyMerchant(pbo, { mchName: 'Kedai Aminah' });
      const bakar = await createLegacyMerchant(pbo, { mchName: 'Warung Bakar' });
      expect((await listV2(pbo, `mchId=${aminah.mchId}`)).records.map((m) => m.mchId)).toEqual([aminah.mchId]);
      expect((await listV2(pbo, 'mchName=bakar')).records.map((m) => m.mchId)).toEqual([bakar.mchId]);
    });

    it("should list only the PBO's own merchants, even by another PBO's mchId", async () => {
      const pbo = await app.newPbo();
      const other = await app.newPbo();
      const theirs = await createLegacyMerchant(other);
      await createLegacyMerchant(pbo);
      expect((await listV2(pbo, `mchId=${theirs.mchId}`)).total).toBe(0);
      expect((await listV2(pbo)).total).toBe(1);
    });
  });

  describe('read', () => {
    it('should answer 404 and 14000 for a merchant that does not exist', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.get(`${V2}/mchInfo/999999999999999`), 404, 14000);
    });

    it("should answer 403 and 13000 for another PBO's merchant", async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const merchant = await createLegacyMerchant(owner);
      expectEnvelope(await other.get(`${V2}/mchInfo/${merchant.mchId}`), 403, 13000);
    });
  });

  describe('PUT', () => {
    it('should change only the fields sent and keep those a v1 client set', async () => {
      const pbo = await app.newPbo();
      const v1 = await createMerchant(pbo, { country: 'MY', region: 'KL', contactPhone: '+60 3-1234 5678', additionalData: { tier: 'gold' } });
      const response = await pbo.put(`${V2}/mchInfo/${v1.mchId}`, { mchName: 'Renamed Kedai' });
      expect(response.status).toBe(200);
      const updated = response.body.data as LegacyMerchant;
      expect(updated).toMatchObject({
        mchName: 'Renamed Kedai',
        country: 'MY',
        region: 'KL',
        contactPhone: '+60 3-1234 5678',
        additionalData: { tier: 'gold' },
      });
      expect(sharedFields(await readV1(pbo, v1.mchId))).toEqual(sharedFields(updated));
    });

    it('should clear an optional field sent as null', async () => {
      const pbo = await app.newPbo();
      const merchant = await createLegacyMerchant(pbo, { contactPhone: '+60 3-1234 5678' });
      dataOf(await pbo.put(`${V2}/mchInfo/${merchant.mchId}`, { contactPhone: null }));
      expect((await readV1(pbo, merchant.mchId)).contactPhone).toBeNull();
    });

    it.each([
      ['mchName null', { mchName: null }, /^mchName must not be null/],
      ['state 2', { state: 2 }, /^state must be 1/],
      ['an unknown field', { color: 'red' }, /^color is not an accepted field/],
    ])('should refuse %s with 400 and 10000 naming the field and change nothing', async (_case, body, msg) => {
      const pbo = await app.newPbo();
      const merchant = await createLegacyMerchant(pbo);
      expectEnvelope(await pbo.put(`${V2}/mchInfo/${merchant.mchId}`, body), 400, 10000, msg);
      expect(await readV2(pbo, merchant.mchId)).toEqual(merchant);
    });

    it("should push the merchant's new name to its devices' gateway profiles", async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      const merchant = await createLegacyMerchant(pbo);
      await bind(pbo, merchant.mchId, id);
      const device = dataOf<{ profileId: string }>(await pbo.post(`${V1}/device`, { mchId: merchant.mchId }));
      dataOf(await pbo.put(`${V2}/mchInfo/${merchant.mchId}`, { mchName: 'Renamed Kedai' }));
      const pushed = await upserts(device.profileId);
      expect(pushed.map((p) => [p.version, p.merchantName])).toEqual([
        [1, merchant.mchName],
        [2, 'Renamed Kedai'],
      ]);
    });

    it("should refuse a groupId other than the token's with 403 and 13000 and change nothing", async () => {
      const pbo = await app.newPbo();
      const merchant = await createLegacyMerchant(pbo);
      expectEnvelope(await pbo.put(`${V2}/mchInfo/${merchant.mchId}`, { mchName: 'x', groupId: 'another-group' }), 403, 13000);
      expect(await readV2(pbo, merchant.mchId)).toEqual(merchant);
    });

    it("should refuse another PBO's merchant with 403 and 13000 and change nothing", async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const merchant = await createLegacyMerchant(owner);
      expectEnvelope(await other.put(`${V2}/mchInfo/${merchant.mchId}`, { mchName: 'mine now' }), 403, 13000);
      expect(await readV2(owner, merchant.mchId)).toEqual(merchant);
    });
  });

  describe('DELETE', () => {
    it('should delete a merchant without payment config and answer without data', async () => {
      const pbo = await app.newPbo();
      const merchant = await createLegacyMerchant(pbo);
      const response = await pbo.delete(`${V2}/mchInfo/${merchant.mchId}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      expectEnvelope(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`), 404, 14000);
    });

    it('should refuse a merchant with a payment config with 409 and 10000', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      const merchant = await createLegacyMerchant(pbo);
      await bind(pbo, merchant.mchId, id);
      expectEnvelope(await pbo.delete(`${V2}/mchInfo/${merchant.mchId}`), 409, 10000, /payment config/);
    });

    it('should refuse a merchant with an activation code with 409 and 10000', async () => {
      const pbo = await app.newPbo();
      const merchant = await createLegacyMerchant(pbo);
      await createLegacyDevice(pbo, merchant.mchId);
      expectEnvelope(await pbo.delete(`${V2}/mchInfo/${merchant.mchId}`), 409, 10000, /activation code/);
    });

    it("should refuse another PBO's merchant with 403 and 13000 and keep it", async () => {
      const owner = await app.newPbo();
      const other = await app.newPbo();
      const merchant = await createLegacyMerchant(owner);
      expectEnvelope(await other.delete(`${V2}/mchInfo/${merchant.mchId}`), 403, 13000);
      expect((await readV2(owner, merchant.mchId)).mchId).toBe(merchant.mchId);
    });
  });

  // ---- DELETE /api/v2/mchInfo/payment/{mchId}/{paymentMethod} -----------------------------------

  async function upserts(profileId: string): Promise<Upsert[]> {
    const rows = await queryDatabase<{ payload: Upsert }>(
      app.database.url,
      `SELECT payload FROM merchant_management.outbox WHERE subject = $1 AND payload->>'profileId' = $2 ORDER BY (payload->>'version')::int`,
      [UPSERT, profileId],
    );
    return rows.map((row) => row.payload);
  }

  /** A merchant bound to one VISA/MASTERCARD profile, with a device whose profile carries both. */
  async function boundWithDevice() {
    const pbo = await app.newPbo();
    const acquirer = await createCardAcquirer(pbo, ['01', '02'], { profileName: `Acquirer ${pbo.groupId}` });
    const merchant = await createLegacyMerchant(pbo);
    await bind(pbo, merchant.mchId, acquirer.id);
    const device = dataOf<{ profileId: string }>(await pbo.post(`${V1}/device`, { mchId: merchant.mchId }));
    return { pbo, acquirer, merchant, device };
  }

  describe('DELETE /api/v2/mchInfo/payment/{mchId}/{paymentMethod}', () => {
    it('should unbind one method by code, leave the other methods of the binding, and answer without data', async () => {
      const { pbo, acquirer, merchant } = await boundWithDevice();
      const response = await pbo.delete(`${V2}/mchInfo/payment/${merchant.mchId}/01`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      const config = await paymentConfig(pbo, merchant.mchId);
      expect(config.total).toBe(1);
      expect(config.records[0]).toMatchObject({ acquirerProfileId: String(acquirer.id), currency: 'MYR' });
      expect(config.records[0].paymentMethods).toEqual([
        expect.objectContaining({ paymentMethodCode: '02', emvs: [expect.objectContaining({ emvId: acquirer.emvs['02'][0] })] }),
      ]);
      expect((await readV2(pbo, merchant.mchId)).supportedPaymentMethods).toEqual([{ paymentMethod: 'MASTERCARD', profileId: acquirer.id }]);
    });

    it.each([['VISA'], ['visa'], ['Visa']])('should unbind a method named %s', async (name) => {
      const { pbo, merchant } = await boundWithDevice();
      dataOf(await pbo.delete(`${V2}/mchInfo/payment/${merchant.mchId}/${name}`));
      expect((await readV1(pbo, merchant.mchId)).supportedPayments).toEqual(['02']);
    });

    it('should remove the binding with its last method, after which the merchant can be deleted', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01']);
      const merchant = await createLegacyMerchant(pbo);
      await bind(pbo, merchant.mchId, id);
      dataOf(await pbo.delete(`${V2}/mchInfo/payment/${merchant.mchId}/01`));
      expect(await paymentConfig(pbo, merchant.mchId)).toEqual({ total: 0, current: 1, hasNext: false, records: [] });
      dataOf(await pbo.delete(`${V2}/mchInfo/${merchant.mchId}`));
    });

    it('should unbind the method in every currency it is bound in', async () => {
      const pbo = await app.newPbo();
      const { id } = await createCardAcquirer(pbo, ['01', '02']);
      const merchant = await createLegacyMerchant(pbo);
      await bind(pbo, merchant.mchId, id, { currency: 'MYR' });
      await bind(pbo, merchant.mchId, id, { currency: 'USD' });
      dataOf(await pbo.delete(`${V2}/mchInfo/payment/${merchant.mchId}/02`));
      const config = await paymentConfig(pbo, merchant.mchId);
      expect(config.records.map((record) => [record.currency, record.paymentMethods.map((m) => m.paymentMethodCode)])).toEqual([
        ['MYR', ['01']],
        ['USD', ['01']],
      ]);
    });

    it("should queue a gateway.profile.upsert.v1 with the next version for the merchant's device, without the unbound method", async () => {
      const { pbo, merchant, device } = await boundWithDevice();
      dataOf(await pbo.delete(`${V2}/mchInfo/payment/${merchant.mchId}/MASTERCARD`));
      const pushed = await upserts(device.profileId);
      expect(pushed.map((p) => p.version)).toEqual([1, 2]);
      expect(pushed[0].acceptances.map((a) => a.supportedPayments)).toEqual([['VISA', 'MASTERCARD']]);
      expect(pushed[1].acceptances.map((a) => a.supportedPayments)).toEqual([['VISA']]);
    });

    it('should push an empty acceptance list when the last bound method goes', async () => {
      const { pbo, merchant, device } = await boundWithDevice();
      dataOf(await pbo.delete(`${V2}/mchInfo/payment/${merchant.mchId}/01`));
      dataOf(await pbo.delete(`${V2}/mchInfo/payment/${merchant.mchId}/02`));
      const pushed = await upserts(device.profileId);
      expect(pushed.map((p) => [p.version, p.acceptances.length])).toEqual([
        [1, 1],
        [2, 1],
        [3, 0],
      ]);
    });

    it('should answer 404 and 14000 for a method the merchant does not have bound, changing nothing', async () => {
      const { pbo, merchant, device } = await boundWithDevice();
      expectEnvelope(await pbo.delete(`${V2}/mchInfo/payment/${merchant.mchId}/03`), 404, 14000, /03/);
      expect((await readV1(pbo, merchant.mchId)).supportedPayments).toEqual(['01', '02']);
      expect((await upserts(device.profileId)).map((p) => p.version)).toEqual([1]);
    });

    it.each([['09'], ['DINERS'], ['1']])('should refuse paymentMethod %s with 400 and 10000 naming paymentMethod', async (method) => {
      const { pbo, merchant } = await boundWithDevice();
      expectEnvelope(await pbo.delete(`${V2}/mchInfo/payment/${merchant.mchId}/${method}`), 400, 10000, /^paymentMethod /);
      expect((await readV1(pbo, merchant.mchId)).supportedPayments).toEqual(['01', '02']);
    });

    it('should answer 404 and 14000 for a merchant that does not exist', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.delete(`${V2}/mchInfo/payment/999999999999999/01`), 404, 14000);
    });

    it("should refuse another PBO's merchant with 403 and 13000 and change nothing", async () => {
      const { pbo: owner, merchant, device } = await boundWithDevice();
      const other = await app.newPbo();
      expectEnvelope(await other.delete(`${V2}/mchInfo/payment/${merchant.mchId}/01`), 403, 13000);
      expect((await readV1(owner, merchant.mchId)).supportedPayments).toEqual(['01', '02']);
      expect((await upserts(device.profileId)).map((p) => p.version)).toEqual([1]);
    });

    it('should refuse without a token with 401 and 11000', async () => {
      const response = await app.anonymous.delete(`${V2}/mchInfo/payment/999999999999999/01`);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 11000, msg: 'missing bearer token', data: 401 });
    });
  });
});
