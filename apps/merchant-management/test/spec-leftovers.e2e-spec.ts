import { dataOf } from '@app/testing';
import fc from 'fast-check';
import { createCardAcquirer, createMerchant } from './factories';
import { createLegacyCardAcquirer, legacyDeviceBody, V2 } from './legacy-factories';
import { deviceScenarios, expectEnvelope, V1 } from './device-support';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Spec conformance left over in merchant-management (issue 14, class 12), over HTTP: what the
 * spec documents says a client may send, and what it then gets.
 */
describe('spec conformance (issue 14, class 12)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const { bind, createDevice, outboxOf } = deviceScenarios(() => app);

  describe("a blank enablerParams falls back to the group's list (spec 1, acquirer write fields)", () => {
    /** Lists that name no field: empty, white space, separators only. */
    const blank = fc.array(fc.constantFrom(' ', '\t', '\n', ',', ';'), { maxLength: 6 }).map((chars) => chars.join(''));
    const writes = fc.constantFrom('v1 create', 'v2 create', 'v1 update', 'v2 update');

    it("should take a blank list on create and update (v1 and legacy), show it as null and ask devices for the group's fields", async () => {
      await fc.assert(
        fc.asyncProperty(blank, writes, async (list, write) => {
          const pbo = await app.newPbo({ enablerParams: 'acqMid;acqTid' });
          const base = write.startsWith('v1') ? V1 : V2;
          let profileId: number;
          if (write === 'v1 create') {
            profileId = (await createCardAcquirer(pbo, ['01'], { enablerParams: list })).id;
          } else if (write === 'v2 create') {
            profileId = (await createLegacyCardAcquirer(pbo, ['01'], { enablerParams: list })).id;
          } else {
            profileId = (await createCardAcquirer(pbo, ['01'], { enablerParams: 'ownField' })).id;
            dataOf(await pbo.put(`${base}/acquirer/${profileId}`, { enablerParams: list }));
          }
          const shown = dataOf<{ records: { profileId: number; enablerParams: string | null }[] }>(await pbo.get(`${base}/acquirer?pageSize=-1`));
          expect(shown.records.find((record) => record.profileId === profileId)?.enablerParams).toBeNull();

          const merchant = await createMerchant(pbo, { country: 'MY' });
          await bind(pbo, merchant.mchId, profileId);
          expectEnvelope(await pbo.post(`${V1}/device`, { mchId: merchant.mchId }), 400, 10000, new RegExp(`^extParams\\.acquirers\\.${profileId}\\.acqMid is required`));
          const created = await createDevice(pbo, { mchId: merchant.mchId, extParams: { acquirers: { [profileId]: { acqMid: '000000000000001', acqTid: '00000001' } } } });
          const [upsert] = (await outboxOf(pbo)).map((row) => row.payload).filter((payload) => payload.profileId === created.profileId);
          expect(upsert.acceptances.map((acceptance) => [acceptance.primaryMid, acceptance.primaryTid])).toEqual([['000000000000001', '00000001']]);
        }),
        { numRuns: 8 },
      );
    });

    it('should still refuse a list that is not field names, naming enablerParams', async () => {
      const pbo = await app.newPbo();
      for (const list of ['acq-Mid', '1acqMid', 'acqMid,,acqTid', 'acqMid acqTid']) {
        expectEnvelope(await pbo.post(`${V1}/acquirer`, { profileName: `p-${list}`, currency: 'MYR', connMessageFormat: 'MOCK', methodList: '{}', emvList: '{}', enablerParams: list }), 400, 10000, /^enablerParams/);
      }
    });
  });

  describe('EMV parameters per payment method (spec 2, EMV parameter object)', () => {
    const AIDS: Record<string, string> = { '01': 'A0000000031010', '02': 'A0000000041010', '03': 'A000000333010101', '04': 'A00000002501', '05': 'A0000000651010', '06': 'A0000001523010' };
    const NAMES: Record<string, string> = { '01': 'VISA', '02': 'MASTERCARD', '03': 'UNIONPAY', '04': 'AMEX', '05': 'JCB', '06': 'DISCOVER' };
    /** A valid value of every key of the table but aid (sent with every config). */
    const VALUES: Record<string, unknown> = {
      appVersion: '0096',
      terminalTransactionQualifiers: '36004000',
      clFloorLimit: 0,
      clTransLimit: 500000,
      clCVMLimit: 25000,
      terminalRiskMgmtData: '6C00800000000000',
      defaultDDOL: '9F3704',
      defaultTDOL: '9F0206',
      kernelConfiguration: '20',
      isNewCVMRuleForMC: true,
      cvmCapabilityCVMRequired: '60',
      cvmCapabilityNoCVM: '08',
    };
    /** The table's comments, read as rules: "unavailable for Mastercard and Amex", "Mastercard only". */
    const allowed = (key: string, method: string): boolean => {
      if (key === 'terminalTransactionQualifiers') return method !== '02' && method !== '04';
      if (['terminalRiskMgmtData', 'kernelConfiguration', 'isNewCVMRuleForMC'].includes(key)) return method === '02';
      return true;
    };

    interface Written {
      api: 'v1' | 'v2';
      op: 'create' | 'update';
    }
    const configsOf = async (pbo: Awaited<ReturnType<MerchantManagementTestApp['newPbo']>>) =>
      dataOf<{ records: { id: number; paymentMethod: string; params: string }[] }>(await pbo.get(`${V1}/emv?pageSize=-1`)).records;

    /** Writes a config of `method` with `params`, through v1 or legacy, as a create or as a PUT of an existing plain config. */
    async function write(pbo: Awaited<ReturnType<MerchantManagementTestApp['newPbo']>>, { api, op }: Written, method: string, params: Record<string, unknown>, id?: number) {
      const base = api === 'v1' ? V1 : V2;
      const body = { emvName: `emv-${method}`, paymentMethod: method, ...(api === 'v1' ? { currency: 'MYR', params: JSON.stringify(params) } : { params }) };
      return op === 'create' ? pbo.post<{ id: number }>(`${base}/emv`, body) : pbo.put<{ id: number }>(`${base}/emv/${id}`, body);
    }

    it('should take a key on the methods the table gives it and refuse it on the others with 400 naming key and method, writing nothing', async () => {
      const pbo = await app.newPbo();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...Object.keys(AIDS)),
          fc.subarray(Object.keys(VALUES), { minLength: 1 }),
          fc.record({ api: fc.constantFrom('v1' as const, 'v2' as const), op: fc.constantFrom('create' as const, 'update' as const) }),
          async (method, keys, how) => {
            const id = how.op === 'update' ? dataOf<{ id: number }>(await write(pbo, { ...how, op: 'create' }, method, { aid: AIDS[method] })).id : undefined;
            const before = await configsOf(pbo);
            const params = { aid: AIDS[method], ...Object.fromEntries(keys.map((key) => [key, VALUES[key]])) };
            const response = await write(pbo, how, method, params, id);
            const foreign = keys.filter((key) => !allowed(key, method));
            if (foreign.length === 0) {
              expect(response.status).toBe(200);
              const stored = (await configsOf(pbo)).find((config) => config.id === (id ?? (response.body.data as { id: number }).id));
              expect(JSON.parse(stored!.params)).toEqual(params);
            } else {
              expectEnvelope(response, 400, 10000, new RegExp(`^params\\.(${foreign.join('|')}) is not an EMV parameter of ${NAMES[method]} \\(${method}\\)`));
              expect(await configsOf(pbo)).toEqual(before);
            }
          },
        ),
        { numRuns: 60 },
      );
    });

    it('should refuse to move a config to a method its keys do not belong to', async () => {
      const pbo = await app.newPbo();
      for (const api of ['v1', 'v2'] as const) {
        const { id } = dataOf<{ id: number }>(await write(pbo, { api, op: 'create' }, '02', { aid: AIDS['02'], kernelConfiguration: '20' }));
        expectEnvelope(await write(pbo, { api, op: 'update' }, '04', { aid: AIDS['02'], kernelConfiguration: '20' }, id), 400, 10000, /^params\.kernelConfiguration is not an EMV parameter of AMEX \(04\): Mastercard only$/);
        expect((await configsOf(pbo)).find((config) => config.id === id)?.paymentMethod).toBe('02');
      }
    });
  });

  describe('MID/TID given to a device of a merchant without binding are kept, in both APIs (spec 2, quickstart)', () => {
    const alnum = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split(''));
    const mid = fc.array(alnum, { minLength: 1, maxLength: 15 }).map((chars) => chars.join(''));
    const tid = fc.array(alnum, { minLength: 1, maxLength: 8 }).map((chars) => chars.join(''));
    /** Every way a client says "this MID/TID for every acquirer". */
    const forms = ['v2 methodList.all', 'v2 extParams object', 'v2 extParams string', 'v1 allAcquirers'] as const;
    type Form = (typeof forms)[number];

    function createBody(form: Form, mchId: string, ids: { acqMid: string; acqTid: string }): { path: string; body: Record<string, unknown> } {
      const legacy = { mchId, activateCodeAlias: 'Till', deviceType: 'COTS' };
      switch (form) {
        case 'v2 methodList.all':
          return { path: `${V2}/device`, body: { ...legacy, methodList: JSON.stringify({ all: { mid: ids.acqMid, tid: ids.acqTid } }) } };
        case 'v2 extParams object':
          return { path: `${V2}/device`, body: { ...legacy, extParams: ids } };
        case 'v2 extParams string':
          return { path: `${V2}/device`, body: { ...legacy, extParams: JSON.stringify(ids) } };
        case 'v1 allAcquirers':
          return { path: `${V1}/device`, body: { mchId, deviceAlias: 'Till', extParams: { allAcquirers: ids } } };
      }
    }

    it('should keep them, show them, and give them to every acquirer bound later (enablerParams included)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...forms), mid, tid, fc.integer({ min: 1, max: 2 }), async (form, acqMid, acqTid, acquirerCount) => {
          const pbo = await app.newPbo();
          const merchant = await createMerchant(pbo, { country: 'MY' });
          const { path, body } = createBody(form, merchant.mchId, { acqMid, acqTid });
          const created = dataOf<{ id: string }>(await pbo.post(path, body));
          const shown = dataOf<{ records: { extParams: { acqMid: string | null; acqTid: string | null } }[] }>(await pbo.get(`${V2}/device?mchId=${merchant.mchId}`));
          expect(shown.records.map((record) => record.extParams)).toEqual([{ acqMid, acqTid, acquirers: {} }]);

          // Acquirers that need both fields (enablerParams) are bound afterwards: the re-push carries the kept MID/TID to each.
          const profiles = [];
          for (let i = 0; i < acquirerCount; i++) profiles.push((await createCardAcquirer(pbo, [i === 0 ? '01' : '02'], { enablerParams: 'acqMid,acqTid' })).id);
          for (const profileId of profiles) await bind(pbo, merchant.mchId, profileId);
          const v1 = dataOf<{ profileId: string | null }>(await pbo.get(`${V1}/device/${created.id}`));
          expect(v1.profileId).toEqual(expect.stringMatching(/^prof_/));
          const upserts = (await outboxOf(pbo)).map((row) => row.payload).filter((payload) => payload.profileId === v1.profileId);
          expect(upserts.at(-1)!.acceptances.map((acceptance) => [acceptance.primaryMid, acceptance.primaryTid])).toEqual(profiles.map(() => [acqMid, acqTid]));
        }),
        { numRuns: 12 },
      );
    });

    it('should still refuse, in both APIs, per-acquirer fields for a profile the merchant is not bound to', async () => {
      const pbo = await app.newPbo();
      const merchant = await createMerchant(pbo, { country: 'MY' });
      const { id } = await createCardAcquirer(pbo, ['01']);
      const extParams = { acquirers: { [id]: { acqMid: 'M', acqTid: 'T' } } };
      const message = new RegExp(`^extParams\\.acquirers\\.${id}: ${id} is not an acquirer profile bound to this merchant`);
      expectEnvelope(await pbo.post(`${V1}/device`, { mchId: merchant.mchId, extParams }), 400, 10000, message);
      expectEnvelope(await pbo.post(`${V2}/device`, { mchId: merchant.mchId, activateCodeAlias: 'Till', deviceType: 'COTS', extParams }), 400, 10000, message);
    });
  });

  describe('the legacy quickstart on a fresh PBO (spec 2, section 1 rule 4)', () => {
    it('should run current → merchant (legacy fields only) → device with MID/TID → activation, and give the phone currency and country', async () => {
      // As `pbo create --name …` leaves it: time zone UTC, no acquirer, no EMV config.
      const pbo = await app.newPbo({ timeZone: undefined });
      const owner = dataOf<{ groupId: string }>(await pbo.post(`${V2}/current`));
      expect(owner.groupId).toBe(pbo.groupId);

      const merchant = dataOf<{ mchId: string; currency: string; timeZone: string; supportedPayments: string[] }>(
        await pbo.post(`${V2}/mchInfo`, {
          mchName: 'Kedai Kopi',
          contactEmail: 'aisyah@example.com',
          contactName: 'Aisyah',
          timeZone: 'Asia/Kuala_Lumpur',
          groupId: owner.groupId,
          providerReference: `ref-${pbo.groupId}`,
          mcc: '5812',
        }),
      );
      expect(merchant).toMatchObject({ currency: 'MYR', timeZone: 'Asia/Kuala_Lumpur' });

      const code = dataOf<{ id: string; activationCode: string }>(
        await pbo.post(`${V2}/device`, { activateCodeAlias: 'Till 1', deviceType: 'COTS', mchId: merchant.mchId, extParams: { acqMid: '000000000000001', acqTid: '00000001' } }),
      );
      expect(code.id).toBe(`CD-${code.activationCode}`);
      const phone = dataOf<{ deviceId: string; emvParams: Record<string, string> }>(await app.anonymous.post('/api/sdk/v1/activate', { activationCode: code.activationCode }));
      expect(phone.emvParams).toMatchObject({ txnCurrencyCode: '0458', terminalCountryCode: '0458' });
      const [device] = dataOf<{ records: { deviceId: string; deviceStatus: number; extParams: Record<string, unknown> }[] }>(await pbo.get(`${V2}/device?mchId=${merchant.mchId}`)).records;
      expect(device).toMatchObject({ deviceId: phone.deviceId, deviceStatus: 1, extParams: { acqMid: '000000000000001', acqTid: '00000001' } });
    });

    it('should give any legacy merchant without currency a currency, or refuse it with 400 naming currency (never a 5xx)', async () => {
      const zones = Intl.supportedValuesOf('timeZone');
      const countries = ['MY', 'SG', 'DE', 'PA', 'US', 'JP', 'TR'];
      await fc.assert(
        fc.asyncProperty(fc.option(fc.constantFrom(...zones), { nil: undefined }), fc.option(fc.constantFrom(...countries), { nil: undefined }), async (timeZone, country) => {
          const pbo = await app.newPbo({ timeZone: undefined });
          const response = await pbo.post<{ currency: string }>(`${V2}/mchInfo`, { mchName: 'Kedai', contactEmail: 'a@example.com', contactName: 'A', timeZone, country });
          if (response.status === 200) {
            expect(response.body.data!.currency).toMatch(/^[A-Z]{3}$/);
          } else {
            expectEnvelope(response, 400, 10000, /^currency is required: the PBO has no default card acquirer profile, and neither .* names a national currency$/);
          }
        }),
        { numRuns: 30 },
      );
    });

    it.each([
      [{ timeZone: 'Asia/Singapore' }, 'SGD'],
      [{ timeZone: 'Europe/Berlin' }, 'EUR'],
      [{ timeZone: 'UTC', country: 'JP' }, 'JPY'],
      [{ timeZone: 'Asia/Tokyo', country: 'DE' }, 'EUR'],
    ])('should take the currency of %j: %s', async (fields, currency) => {
      const pbo = await app.newPbo({ timeZone: undefined });
      const merchant = dataOf<{ currency: string }>(await pbo.post(`${V2}/mchInfo`, { mchName: 'Kedai', contactEmail: 'a@example.com', contactName: 'A', ...fields }));
      expect(merchant.currency).toBe(currency);
    });

    it("should take the default card profile's currency before any other, and refuse on a UTC PBO when nothing names one", async () => {
      const pbo = await app.newPbo({ timeZone: undefined });
      expectEnvelope(await pbo.post(`${V2}/mchInfo`, { mchName: 'Kedai', contactEmail: 'a@example.com', contactName: 'A' }), 400, 10000, /^currency is required/);
      await createCardAcquirer(pbo, ['01'], { currency: 'THB', asDefault: true });
      const merchant = dataOf<{ currency: string }>(await pbo.post(`${V2}/mchInfo`, { mchName: 'Kedai', contactEmail: 'a@example.com', contactName: 'A', timeZone: 'Asia/Tokyo' }));
      expect(merchant.currency).toBe('THB');
    });
  });

  describe('terminalCountryCode is never absent from the EMV parameters (spec 1, device emvParams)', () => {
    const emvOf = async (pbo: Awaited<ReturnType<MerchantManagementTestApp['newPbo']>>, id: string) =>
      dataOf<{ emvParams: Record<string, string> }>(await pbo.get(`${V1}/device/emv/${id}`)).emvParams;

    it('should give a device of a merchant without country a country code, or refuse it naming emvParams.terminalCountryCode', async () => {
      const zones = Intl.supportedValuesOf('timeZone');
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...zones, 'UTC', 'Etc/GMT+5'), fc.constantFrom('MYR', 'USD', 'EUR', 'XOF', 'JPY', 'XCD'), async (timeZone, currency) => {
          const pbo = await app.newPbo();
          const merchant = await createMerchant(pbo, { timeZone, currency });
          const response = await pbo.post<{ id: string }>(`${V1}/device`, { mchId: merchant.mchId });
          if (response.status === 200) {
            expect((await emvOf(pbo, response.body.data!.id)).terminalCountryCode).toMatch(/^0\d{3}$/);
          } else {
            expectEnvelope(response, 400, 10000, /^emvParams\.terminalCountryCode is required: the merchant has no country/);
            const own = dataOf<{ id: string }>(await pbo.post(`${V1}/device`, { mchId: merchant.mchId, emvParams: { terminalCountryCode: '0276' } }));
            expect((await emvOf(pbo, own.id)).terminalCountryCode).toBe('0276');
          }
        }),
        { numRuns: 30 },
      );
    });

    it.each([
      ['Asia/Kuala_Lumpur', 'USD', '0458'],
      ['UTC', 'USD', '0840'],
      ['UTC', 'MYR', '0458'],
    ])('should take the country of time zone %s, else of currency %s: %s', async (timeZone, currency, expected) => {
      const pbo = await app.newPbo();
      const merchant = await createMerchant(pbo, { timeZone, currency });
      const created = dataOf<{ id: string }>(await pbo.post(`${V1}/device`, { mchId: merchant.mchId }));
      expect((await emvOf(pbo, created.id)).terminalCountryCode).toBe(expected);
    });

    it('should refuse a device terminalCountryCode that names no country', async () => {
      const pbo = await app.newPbo();
      const merchant = await createMerchant(pbo, { country: 'MY' });
      for (const terminalCountryCode of ['', '9999', '0000', 'MY']) {
        expectEnvelope(await pbo.post(`${V1}/device`, { mchId: merchant.mchId, emvParams: { terminalCountryCode } }), 400, 10000, /^emvParams\.terminalCountryCode must be an ISO 3166 numeric country code/);
      }
    });

    it('should refuse a merchant change (v1 and legacy) or a device PUT that would leave a device without terminal country, changing nothing', async () => {
      const pbo = await app.newPbo({ timeZone: undefined });
      const merchant = await createMerchant(pbo, { country: 'DE', currency: 'EUR', timeZone: 'UTC' });
      const created = dataOf<{ id: string }>(await pbo.post(`${V1}/device`, { mchId: merchant.mchId }));
      expect((await emvOf(pbo, created.id)).terminalCountryCode).toBe('0276');
      const countryRule = /^country is required: 1 device\(s\) of merchant \d+ have no emvParams\.terminalCountryCode of their own/;
      expectEnvelope(await pbo.put(`${V1}/mchInfo/${merchant.mchId}`, { mchName: 'Kedai', currency: 'EUR', contactName: 'A', contactEmail: 'a@example.com', timeZone: 'UTC' }), 400, 10000, countryRule);
      expectEnvelope(await pbo.put(`${V2}/mchInfo/${merchant.mchId}`, { country: null }), 400, 10000, countryRule);
      expect(dataOf<{ country: string }>(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`)).country).toBe('DE');

      // With its own country code the device no longer depends on the merchant's: then the merchant may drop it, but the device may not drop its own.
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { emvParams: JSON.stringify({ terminalCountryCode: '0250' }) }));
      dataOf(await pbo.put(`${V2}/mchInfo/${merchant.mchId}`, { country: null }));
      expect((await emvOf(pbo, created.id)).terminalCountryCode).toBe('0250');
      expectEnvelope(await pbo.put(`${V1}/device/${created.id}`, { emvParams: null }), 400, 10000, /^emvParams\.terminalCountryCode is required/);
      expect((await emvOf(pbo, created.id)).terminalCountryCode).toBe('0250');
    });
  });
  describe('EMV terminal parameters in their tags\' formats, in v1 and legacy v2 (issue 14 leftovers)', () => {
    /** Two characters that are no EMV terminal type (9F35: first digit 1 to 3, second 1 to 6), and other texts that are none. */
    const notATerminalType = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'0123456789ZAz '), minLength: 2, maxLength: 2 }),
      fc.string({ maxLength: 8 }),
    ).filter((value) => !/^[1-3][1-6]$/.test(value));

    it('should refuse a terminalType that is no EMV terminal type with 400 and 10000 naming it, on create and update in both APIs, changing nothing', async () => {
      const pbo = await app.newPbo();
      const merchant = await createMerchant(pbo, { country: 'MY' });
      const v1 = dataOf<{ id: string }>(await pbo.post(`${V1}/device`, { mchId: merchant.mchId, emvParams: { terminalType: '22' } }));
      const v2 = dataOf<{ id: string }>(await pbo.post(`${V2}/device`, legacyDeviceBody(merchant.mchId, { emvParams: { terminalType: '21' } })));
      const count = async () => dataOf<{ total: number }>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}`)).total;
      const rule = /^emvParams\.terminalType must be an EMV terminal type \(9F35\)/;
      await fc.assert(
        fc.asyncProperty(notATerminalType, async (terminalType) => {
          expectEnvelope(await pbo.post(`${V1}/device`, { mchId: merchant.mchId, emvParams: { terminalType } }), 400, 10000, rule);
          expectEnvelope(await pbo.post(`${V2}/device`, legacyDeviceBody(merchant.mchId, { emvParams: { terminalType } })), 400, 10000, rule);
          expectEnvelope(await pbo.put(`${V1}/device/${v1.id}`, { emvParams: JSON.stringify({ terminalType }) }), 400, 10000, rule);
          expectEnvelope(await pbo.put(`${V2}/device/${v2.id}`, { emvParams: { terminalType } }), 400, 10000, rule);
        }),
        { numRuns: 15 },
      );
      expect(await count()).toBe(2);
      expect(dataOf<{ emvParams: string }>(await pbo.get(`${V1}/device/${v1.id}`)).emvParams).toBe(JSON.stringify({ terminalType: '22' }));
      expect(dataOf<{ emvParams: Record<string, string> }>(await pbo.get(`${V1}/device/emv/${v2.id}`)).emvParams.terminalType).toBe('21');
    });

    it.each([
      ['terminalCapability', 'E0F8', /^emvParams\.terminalCapability must be the EMV terminal capabilities \(9F33\)/],
      ['txnCurrencyCode', '0999', /^emvParams\.txnCurrencyCode must be an ISO 4217 numeric currency code/],
      ['amexFloorLimit', '10.00', /^emvParams\.amexFloorLimit must be an amount in minor units/],
      ['emvFlags', 'on', /^emvParams\.emvFlags must be 1 to 8 hex digits/],
      ['amexReaderCapability', 'C', /^emvParams\.amexReaderCapability must be the Amex contactless reader capabilities \(9F6D\)/],
      ['amexExReaderCapability', 'D8E0', /^emvParams\.amexExReaderCapability must be the Amex enhanced contactless reader capabilities \(9F6E\)/],
    ])('should refuse an emvParams.%s of %p with 400 and 10000 naming it, in both APIs', async (key, value, rule) => {
      const pbo = await app.newPbo();
      const merchant = await createMerchant(pbo, { country: 'MY' });
      expectEnvelope(await pbo.post(`${V1}/device`, { mchId: merchant.mchId, emvParams: { [key]: value } }), 400, 10000, rule);
      expectEnvelope(await pbo.post(`${V2}/device`, legacyDeviceBody(merchant.mchId, { emvParams: { [key]: value } })), 400, 10000, rule);
    });
  });
});
