import { ApiClient, invalidMid, queryDatabase, unique, validMid } from '@app/testing';
import fc from 'fast-check';
import { createAcquirer, createEmv, createMerchant, MerchantView } from './factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

const MERCHANTS = '/api/openapi/v1/mchInfo';
const paymentPath = (mchId: string) => `${MERCHANTS}/payment/${mchId}`;

interface Page<T> {
  total: number;
  current: number;
  hasNext: boolean;
  records: T[];
}

interface EmvRef {
  emvId: number;
  emvName: string;
}

interface PaymentConfigView {
  merchantId: string;
  acquirerProfileId: string;
  acquirerProfileName: string;
  acqType: string;
  currency: string;
  mid: string | null;
  paymentMethods: { paymentMethodCode: string; paymentMethodName: string; displayName: string; paymentType: string; emvs: EmvRef[] }[];
}

/** A card acquirer profile whose EMV configs (one per method) have known names. */
interface Profile {
  id: number;
  profileId: string;
  profileName: string;
  emvs: Record<string, EmvRef[]>;
}

async function cardProfile(client: ApiClient, methods: string[] = ['01', '02'], overrides: Record<string, unknown> = {}): Promise<Profile> {
  const emvs: Record<string, EmvRef[]> = {};
  for (const method of methods) {
    const emvName = unique(`emv-${method}-`);
    emvs[method] = [{ emvId: await createEmv(client, { paymentMethod: method, emvName }), emvName }];
  }
  const profileName = unique('acquirer-');
  const emvIds = Object.fromEntries(Object.entries(emvs).map(([method, list]) => [method, list.map((emv) => emv.emvId)]));
  const id = await createAcquirer(client, emvIds, { profileName, ...overrides });
  return { id, profileId: String(id), profileName, emvs };
}

/** A bind body naming `methods` with the profile's EMV configs (every method when omitted). */
function bindBody(profile: Profile, methods?: string[], overrides: Record<string, unknown> = {}) {
  return {
    acquirerProfileId: profile.profileId,
    currency: 'MYR',
    ...(methods && { paymentMethods: methods.map((code) => ({ paymentMethodCode: code, emvs: profile.emvs[code].map(({ emvId }) => ({ emvId })) })) }),
    ...overrides,
  };
}

describe('merchant payment config (/api/openapi/v1/mchInfo/payment/{mchId})', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  async function configOf(client: ApiClient, mchId: string, query = ''): Promise<Page<PaymentConfigView>> {
    return dataOf<Page<PaymentConfigView>>(await client.get(`${paymentPath(mchId)}${query}`));
  }

  async function merchantOf(client: ApiClient, mchId: string): Promise<MerchantView> {
    return dataOf<MerchantView>(await client.get(`${MERCHANTS}/${mchId}`));
  }

  /** Stored rows of a merchant's payment config: bindings and bound methods. */
  async function storedRows(merchantUuid: string): Promise<{ bindings: number; methods: number }> {
    const [row] = await queryDatabase<{ bindings: number; methods: number }>(
      app.database.url,
      `SELECT (SELECT count(*)::int FROM merchant_management.payment_binding WHERE merchant_uuid = $1) AS bindings,
              (SELECT count(*)::int FROM merchant_management.payment_method_binding WHERE merchant_uuid = $1) AS methods`,
      [merchantUuid],
    );
    return row;
  }

  /** Which profile holds each method of each currency, as the GET shows it. */
  function holders(page: Page<PaymentConfigView>): Record<string, string> {
    const result: Record<string, string> = {};
    for (const record of page.records) for (const method of record.paymentMethods) result[`${record.currency}/${method.paymentMethodCode}`] = record.acquirerProfileId;
    return result;
  }

  /** The message names the profile by name or by its id standing alone (not as digits of an mchId). */
  /** The whole documented conflict message: method, currency, the holder's id and name, the merchant. */
  function conflictMessage(method: string, methodName: string, holder: Profile, mchId: string): string {
    return `payment method ${method} (${methodName}) in MYR is already bound to acquirer profile ${holder.profileId} (${holder.profileName}) of merchant ${mchId}`;
  }

  async function expectRefused(response: { status: number; body: { code: number; msg: string; data?: unknown } }, status: number, code: number, msg?: RegExp) {
    expect(response.status).toBe(status);
    expect(response.body.code).toBe(code);
    expect(response.body.data).toBeUndefined();
    if (msg) expect(response.body.msg).toMatch(msg);
  }

  describe('bind (POST)', () => {
    it('should bind a merchant and show one record per (acquirerProfileId, currency)', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01', '02']);
      const merchant = await createMerchant(pbo);

      const response = await pbo.post(paymentPath(merchant.mchId), bindBody(profile, ['01', '02'], { mid: 'MID0001' }));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });

      const page = await configOf(pbo, merchant.mchId);
      expect(page).toMatchObject({ total: 1, current: 1, hasNext: false });
      expect(page.records).toHaveLength(1);
      const [record] = page.records;
      expect(record).toMatchObject({ merchantId: merchant.mchId, acquirerProfileId: profile.profileId, acquirerProfileName: profile.profileName, acqType: 'card', currency: 'MYR', mid: 'MID0001' });
      const methods = [...record.paymentMethods].sort((a, b) => a.paymentMethodCode.localeCompare(b.paymentMethodCode));
      expect(methods).toEqual([
        expect.objectContaining({ paymentMethodCode: '01', paymentMethodName: 'VISA', displayName: 'Visa', paymentType: 'card', emvs: profile.emvs['01'] }),
        expect.objectContaining({ paymentMethodCode: '02', paymentMethodName: 'MASTERCARD', displayName: 'Mastercard', paymentType: 'card', emvs: profile.emvs['02'] }),
      ]);
    });

    it("should bind every method of the profile with its EMV configs when paymentMethods is omitted", async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01', '02', '03']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(profile)));
      const [record] = (await configOf(pbo, merchant.mchId)).records;
      const methods = Object.fromEntries(record.paymentMethods.map((m) => [m.paymentMethodCode, m.emvs]));
      expect(methods).toEqual({ '01': profile.emvs['01'], '02': profile.emvs['02'], '03': profile.emvs['03'] });
      expect(record.paymentMethods.find((m) => m.paymentMethodCode === '03')?.paymentMethodName).toBe('UNIONPAY');
    });

    it("should use the profile's EMV configs for a method whose emvs are omitted", async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), { acquirerProfileId: profile.profileId, currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01' }] }));
      expect((await configOf(pbo, merchant.mchId)).records[0].paymentMethods[0].emvs).toEqual(profile.emvs['01']);
    });

    it('should show each bound profile as its own record', async () => {
      const pbo = await app.newPbo();
      const visa = await cardProfile(pbo, ['01']);
      const master = await cardProfile(pbo, ['02']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(visa)));
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(master)));
      const page = await configOf(pbo, merchant.mchId);
      expect(page.total).toBe(2);
      expect(holders(page)).toEqual({ 'MYR/01': visa.profileId, 'MYR/02': master.profileId });
    });

    it('should add methods to an existing binding on a second POST', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01', '02']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(profile, ['01'], { mid: 'MIDA' })));
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(profile, ['02'], { mid: 'MIDB' })));
      const page = await configOf(pbo, merchant.mchId);
      expect(page.total).toBe(1);
      expect(page.records[0].mid).toBe('MIDB');
      expect(page.records[0].paymentMethods.map((m) => m.paymentMethodCode).sort()).toEqual(['01', '02']);
    });

    it('should refuse a (currency, method) bound to a different profile with 409 and 10000 naming method, currency and holder', async () => {
      const pbo = await app.newPbo();
      const holder = await cardProfile(pbo, ['01', '02']);
      const other = await cardProfile(pbo, ['01', '02']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(holder, ['01'])));
      const before = await storedRows(merchant.uuid);

      const response = await pbo.post(paymentPath(merchant.mchId), bindBody(other, ['02', '01']));

      await expectRefused(response, 409, 10000);
      expect(response.body.msg).toBe(conflictMessage('01', 'VISA', holder, merchant.mchId));
      expect(await storedRows(merchant.uuid)).toEqual(before);
      const page = await configOf(pbo, merchant.mchId);
      expect(page.total).toBe(1);
      expect(holders(page)).toEqual({ 'MYR/01': holder.profileId });
    });

    it('should name the conflicting method and its holder, not a method the target profile already holds', async () => {
      const pbo = await app.newPbo();
      const target = await cardProfile(pbo, ['01', '02']);
      const holder = await cardProfile(pbo, ['01', '02']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(target, ['01'])));
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(holder, ['02'])));

      // 01 is already the target's own (a merge keeps it); 02 is the other profile's.
      const response = await pbo.post(paymentPath(merchant.mchId), bindBody(target, ['01', '02']));

      await expectRefused(response, 409, 10000);
      // 02 and its holder, not 01, which the target already holds.
      expect(response.body.msg).toBe(conflictMessage('02', 'MASTERCARD', holder, merchant.mchId));
      expect(holders(await configOf(pbo, merchant.mchId))).toEqual({ 'MYR/01': target.profileId, 'MYR/02': holder.profileId });
    });

    it('should keep the mid of a binding when a later POST omits it', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01', '02']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(profile, ['01'], { mid: 'MIDA' })));
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(profile, ['02'])));
      expect((await configOf(pbo, merchant.mchId)).records[0].mid).toBe('MIDA');
    });

    it('should refuse with 10000 naming mid every MID a host cannot take (field 42), and bind with every one it takes', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      await fc.assert(
        fc.asyncProperty(invalidMid(), async (mid) => {
          await expectRefused(await pbo.post(paymentPath(merchant.mchId), bindBody(profile, ['01'], { mid })), 400, 10000, /^mid must be 1 to 15 letters, digits or spaces, not spaces only \(field 42\)$/);
        }),
        { numRuns: 25 },
      );
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
      await fc.assert(
        fc.asyncProperty(validMid(), async (mid) => {
          dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(profile, ['01'], { mid })));
          expect((await configOf(pbo, merchant.mchId)).records[0].mid).toBe(mid);
        }),
        { numRuns: 10 },
      );
    });

    it('should accept the same method bound to another profile in another currency', async () => {
      const pbo = await app.newPbo();
      const ringgit = await cardProfile(pbo, ['01']);
      const dollar = await cardProfile(pbo, ['01'], { currency: 'USD' });
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(ringgit, ['01'])));
      const response = await pbo.post(paymentPath(merchant.mchId), bindBody(dollar, ['01'], { currency: 'USD' }));
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      expect(holders(await configOf(pbo, merchant.mchId))).toEqual({ 'MYR/01': ringgit.profileId, 'USD/01': dollar.profileId });
    });

    it("should refuse a method that is not in the profile's methodList with 10000 and write nothing", async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const unionPay = await createEmv(pbo, { paymentMethod: '03' });
      const merchant = await createMerchant(pbo);
      const response = await pbo.post(paymentPath(merchant.mchId), { acquirerProfileId: profile.profileId, currency: 'MYR', paymentMethods: [{ paymentMethodCode: '03', emvs: [{ emvId: unionPay }] }] });
      await expectRefused(response, 400, 10000, /^paymentMethods\[0\]\.paymentMethodCode\b.*03/);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it('should refuse a payment method code that does not exist with 10000', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      const response = await pbo.post(paymentPath(merchant.mchId), { acquirerProfileId: profile.profileId, currency: 'MYR', paymentMethods: [{ paymentMethodCode: '99' }] });
      await expectRefused(response, 400, 10000, /^paymentMethods\[0\]\.paymentMethodCode\b/);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it("should refuse an EMV id that is not in the profile's emvList for that method with 10000", async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01', '02']);
      const merchant = await createMerchant(pbo);
      // The MASTERCARD EMV config of the same profile, named under VISA.
      const response = await pbo.post(paymentPath(merchant.mchId), {
        acquirerProfileId: profile.profileId,
        currency: 'MYR',
        paymentMethods: [{ paymentMethodCode: '01', emvs: [{ emvId: profile.emvs['02'][0].emvId }] }],
      });
      await expectRefused(response, 400, 10000, /^paymentMethods\[0\]\.emvs\b/);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it("should refuse an EMV config of the PBO that the profile does not list with 10000", async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const unlisted = await createEmv(pbo, { paymentMethod: '01' });
      const merchant = await createMerchant(pbo);
      const response = await pbo.post(paymentPath(merchant.mchId), { acquirerProfileId: profile.profileId, currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01', emvs: [{ emvId: unlisted }] }] });
      await expectRefused(response, 400, 10000);
      expect(response.body.msg).toBe(
        `paymentMethods[0].emvs: EMV config ${unlisted} is not in the emvList of acquirer profile ${profile.profileId} (${profile.profileName}) for payment method 01`,
      );
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it("should refuse another PBO's EMV id with 403 and 13000", async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const foreignEmv = await createEmv(await app.newPbo(), { paymentMethod: '01' });
      const merchant = await createMerchant(pbo);
      const response = await pbo.post(paymentPath(merchant.mchId), { acquirerProfileId: profile.profileId, currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01', emvs: [{ emvId: foreignEmv }] }] });
      await expectRefused(response, 403, 13000);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it('should refuse an EMV id that does not exist with 404 and 14000', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      const response = await pbo.post(paymentPath(merchant.mchId), { acquirerProfileId: profile.profileId, currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01', emvs: [{ emvId: 999999 }] }] });
      await expectRefused(response, 404, 14000);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it("should refuse another PBO's acquirer profile with 403 and 13000", async () => {
      const pbo = await app.newPbo();
      const foreign = await cardProfile(await app.newPbo(), ['01']);
      const merchant = await createMerchant(pbo);
      const response = await pbo.post(paymentPath(merchant.mchId), { acquirerProfileId: foreign.profileId, currency: 'MYR' });
      await expectRefused(response, 403, 13000);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it('should refuse an acquirer profile that does not exist with 404 and 14000', async () => {
      const pbo = await app.newPbo();
      const merchant = await createMerchant(pbo);
      const response = await pbo.post(paymentPath(merchant.mchId), { acquirerProfileId: '999999', currency: 'MYR' });
      await expectRefused(response, 404, 14000);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it.each(['acquirerProfileId', 'currency'])('should refuse a bind without %s with 10000 naming it', async (field) => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      const body: Record<string, unknown> = bindBody(profile);
      delete body[field];
      const response = await pbo.post(paymentPath(merchant.mchId), body);
      await expectRefused(response, 400, 10000, new RegExp(`^${field} is required`));
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it('should refuse a currency that is not ISO 4217 with 10000', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      const response = await pbo.post(paymentPath(merchant.mchId), bindBody(profile, undefined, { currency: 'XYZ' }));
      await expectRefused(response, 400, 10000, /^currency\b/);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it('should refuse an emvId of the wrong type with 10000 naming its path', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      const emvId = String(profile.emvs['01'][0].emvId);
      const response = await pbo.post(paymentPath(merchant.mchId), { acquirerProfileId: profile.profileId, currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01', emvs: [{ emvId }] }] });
      await expectRefused(response, 400, 10000, /^paymentMethods\[0\]\.emvs\[0\]\.emvId\b/);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it('should refuse an unknown field with 10000 naming it', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      const response = await pbo.post(paymentPath(merchant.mchId), bindBody(profile, undefined, { merchantId: merchant.mchId }));
      await expectRefused(response, 400, 10000, /^merchantId is not an accepted field/);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it('should refuse an empty paymentMethods list with 10000', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      const response = await pbo.post(paymentPath(merchant.mchId), bindBody(profile, [], {}));
      await expectRefused(response, 400, 10000, /^paymentMethods\b/);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it('should refuse a card method without EMV configs with 10000', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      const response = await pbo.post(paymentPath(merchant.mchId), { acquirerProfileId: profile.profileId, currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01', emvs: [] }] });
      await expectRefused(response, 400, 10000, /^paymentMethods\[0\]\.emvs\b/);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it('should end two concurrent conflicting binds with exactly one success and one 409', async () => {
      const pbo = await app.newPbo();
      const first = await cardProfile(pbo, ['01']);
      const second = await cardProfile(pbo, ['01']);
      for (let round = 0; round < 10; round++) {
        const merchant = await createMerchant(pbo);
        const responses = await Promise.all([
          pbo.post(paymentPath(merchant.mchId), bindBody(first, ['01'])),
          pbo.post(paymentPath(merchant.mchId), bindBody(second, ['01'])),
        ]);
        const outcomes = responses.map((r) => `${r.status}/${r.body.code}`).sort();
        expect({ round, outcomes }).toEqual({ round, outcomes: ['200/0', '409/10000'] });
        const winner = responses[0].status === 200 ? first : second;
        const loser = responses.find((r) => r.status === 409)!;
        expect({ round, msg: loser.body.msg }).toEqual({ round, msg: conflictMessage('01', 'VISA', winner, merchant.mchId) });
        const page = await configOf(pbo, merchant.mchId);
        expect({ round, holders: holders(page), total: page.total }).toEqual({ round, holders: { 'MYR/01': winner.profileId }, total: 1 });
      }
    });
  });

  describe('replace (PUT)', () => {
    it('should replace the whole subtree of the binding', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01', '02', '03']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(profile, ['01', '02'])));

      const response = await pbo.put(paymentPath(merchant.mchId), bindBody(profile, ['03']));

      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      const page = await configOf(pbo, merchant.mchId);
      expect(page.total).toBe(1);
      expect(page.records[0].paymentMethods.map((m) => m.paymentMethodCode)).toEqual(['03']);
      expect((await merchantOf(pbo, merchant.mchId)).supportedPayments).toEqual(['03']);
    });

    it('should free the methods a PUT drops for another profile', async () => {
      const pbo = await app.newPbo();
      const first = await cardProfile(pbo, ['01', '02']);
      const second = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(first)));
      dataOf(await pbo.put(paymentPath(merchant.mchId), bindBody(first, ['02'])));
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(second, ['01'])));
      expect(holders(await configOf(pbo, merchant.mchId))).toEqual({ 'MYR/01': second.profileId, 'MYR/02': first.profileId });
    });

    it('should answer 404 and 14000 to a PUT of a binding that does not exist and write nothing', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      const response = await pbo.put(paymentPath(merchant.mchId), bindBody(profile, ['01']));
      await expectRefused(response, 404, 14000);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it('should refuse a PUT taking a method held by another profile with 409 and keep the binding', async () => {
      const pbo = await app.newPbo();
      const first = await cardProfile(pbo, ['01', '02']);
      const second = await cardProfile(pbo, ['01', '02']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(first, ['01'])));
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(second, ['02'])));
      const response = await pbo.put(paymentPath(merchant.mchId), bindBody(second, ['01']));
      await expectRefused(response, 409, 10000);
      expect(holders(await configOf(pbo, merchant.mchId))).toEqual({ 'MYR/01': first.profileId, 'MYR/02': second.profileId });
    });
  });

  describe('unbind (DELETE)', () => {
    it('should drop the whole binding named by acquirerProfileId and currency', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01', '02']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(profile)));

      const response = await pbo.delete(`${paymentPath(merchant.mchId)}?acquirerProfileId=${profile.profileId}&currency=MYR`);

      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      expect(await configOf(pbo, merchant.mchId)).toEqual({ total: 0, current: 1, hasNext: false, records: [] });
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 0, methods: 0 });
    });

    it('should let the merchant be deleted once its bindings are gone', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(profile)));
      expect((await pbo.delete(`${MERCHANTS}/${merchant.mchId}`)).status).toBe(409);
      dataOf(await pbo.delete(`${paymentPath(merchant.mchId)}?acquirerProfileId=${profile.profileId}&currency=MYR`));
      expect(await pbo.delete(`${MERCHANTS}/${merchant.mchId}`)).toMatchObject({ status: 200, body: { code: 0 } });
    });

    it.each([
      ['acquirerProfileId', 'currency=MYR'],
      ['currency', 'acquirerProfileId=1'],
    ])('should refuse a DELETE without %s with 10000 naming it', async (field, query) => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(profile)));
      const response = await pbo.delete(`${paymentPath(merchant.mchId)}?${query.replace('acquirerProfileId=1', `acquirerProfileId=${profile.profileId}`)}`);
      await expectRefused(response, 400, 10000, new RegExp(`^${field} is required`));
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 1, methods: 1 });
    });

    it('should answer 404 and 14000 for a binding that does not exist', async () => {
      const pbo = await app.newPbo();
      const profile = await cardProfile(pbo, ['01']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(profile)));
      const response = await pbo.delete(`${paymentPath(merchant.mchId)}?acquirerProfileId=${profile.profileId}&currency=USD`);
      await expectRefused(response, 404, 14000);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 1, methods: 1 });
    });
  });

  describe('read (GET)', () => {
    it('should page the bindings one at a time', async () => {
      const pbo = await app.newPbo();
      const visa = await cardProfile(pbo, ['01']);
      const master = await cardProfile(pbo, ['02']);
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(visa)));
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(master)));

      const first = await configOf(pbo, merchant.mchId, '?pageSize=1&pageNumber=1');
      const second = await configOf(pbo, merchant.mchId, '?pageSize=1&pageNumber=2');

      expect(first).toMatchObject({ total: 2, current: 1, hasNext: true });
      expect(second).toMatchObject({ total: 2, current: 2, hasNext: false });
      expect(first.records).toHaveLength(1);
      expect(second.records).toHaveLength(1);
      expect([first.records[0].acquirerProfileId, second.records[0].acquirerProfileId].sort()).toEqual([visa.profileId, master.profileId].sort());
    });

    it('should answer 404 and 14000 for a merchant that does not exist', async () => {
      const pbo = await app.newPbo();
      await expectRefused(await pbo.get(paymentPath('999999999999999')), 404, 14000);
    });
  });

  describe("another PBO's merchant", () => {
    async function foreignMerchant() {
      const owner = await app.newPbo();
      const profile = await cardProfile(owner, ['01']);
      const merchant = await createMerchant(owner);
      dataOf(await owner.post(paymentPath(merchant.mchId), bindBody(profile)));
      const intruder = await app.newPbo();
      const intruderProfile = await cardProfile(intruder, ['01']);
      return { owner, merchant, profile, intruder, intruderProfile };
    }

    it('should refuse GET with 403 and 13000', async () => {
      const { merchant, intruder } = await foreignMerchant();
      await expectRefused(await intruder.get(paymentPath(merchant.mchId)), 403, 13000);
    });

    it('should refuse POST with 403 and 13000 and write nothing', async () => {
      const { merchant, intruder, intruderProfile } = await foreignMerchant();
      await expectRefused(await intruder.post(paymentPath(merchant.mchId), bindBody(intruderProfile, undefined, { currency: 'USD' })), 403, 13000);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 1, methods: 1 });
    });

    it('should refuse PUT with 403 and 13000 and change nothing', async () => {
      const { owner, merchant, profile, intruder } = await foreignMerchant();
      await expectRefused(await intruder.put(paymentPath(merchant.mchId), bindBody(profile, undefined, { mid: 'HIJACK' })), 403, 13000);
      expect((await configOf(owner, merchant.mchId)).records[0].mid).toBeNull();
    });

    it('should refuse DELETE with 403 and 13000 and keep the binding', async () => {
      const { merchant, profile, intruder } = await foreignMerchant();
      await expectRefused(await intruder.delete(`${paymentPath(merchant.mchId)}?acquirerProfileId=${profile.profileId}&currency=MYR`), 403, 13000);
      expect(await storedRows(merchant.uuid)).toEqual({ bindings: 1, methods: 1 });
    });
  });

  describe('merchant summary', () => {
    it('should follow the bindings in supportedPayments and acquirers', async () => {
      const pbo = await app.newPbo();
      const visa = await cardProfile(pbo, ['01']);
      const master = await cardProfile(pbo, ['02']);
      const merchant = await createMerchant(pbo);
      expect(merchant.supportedPayments).toEqual([]);

      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(visa)));
      dataOf(await pbo.post(paymentPath(merchant.mchId), bindBody(master)));
      const bound = await merchantOf(pbo, merchant.mchId);
      expect([...bound.supportedPayments].sort()).toEqual(['01', '02']);
      expect(bound.acquirers.map((a) => a.profileId).sort()).toEqual([visa.id, master.id].sort());
      const visaSummary = bound.acquirers.find((a) => a.profileId === visa.id)!;
      expect(visaSummary).toMatchObject({ profileName: visa.profileName, currency: 'MYR', acqType: 'card' });
      expect(JSON.parse(visaSummary.methodList)).toEqual({ '01': [] });
      expect(JSON.parse(visaSummary.emvList)).toEqual({ '01': [visa.emvs['01'][0].emvId] });

      dataOf(await pbo.delete(`${paymentPath(merchant.mchId)}?acquirerProfileId=${master.profileId}&currency=MYR`));
      const unbound = await merchantOf(pbo, merchant.mchId);
      expect(unbound.supportedPayments).toEqual(['01']);
      expect(unbound.acquirers.map((a) => a.profileId)).toEqual([visa.id]);
    });
  });
});
