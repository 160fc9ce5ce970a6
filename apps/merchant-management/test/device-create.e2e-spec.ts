import { createCardAcquirer, createMerchant, invalidMid, invalidTid, validMid, validTid } from '@app/testing';
import fc from 'fast-check';
import { deviceScenarios, expectEnvelope, UPSERT, V1 } from './device-support';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Devices and activation codes (issue 3), end to end over HTTP: creating devices and the activation profile they get.
 * The other device-*.e2e-spec.ts files hold the rest; device-support.ts what they share.
 */
describe('devices and activation codes (v1)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const { devicesOf, outboxOf, bind, createDevice, getDevice, unboundMerchant, boundMerchant, twoAcquirers } = deviceScenarios(() => app);

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

    it('should refuse a blank deviceAlias or deviceName (white space only) with 10000 naming it, on create and update, v1 and /api/v2 (r14g)', async () => {
      const { pbo, merchant } = await boundMerchant();
      const code = await createDevice(pbo, { mchId: merchant.mchId });
      const blank = fc.array(fc.constantFrom(' ', '\t', '\u00a0', '\u2003', '\u3000'), { minLength: 1, maxLength: 8 }).map((chars) => chars.join(''));
      await fc.assert(
        fc.asyncProperty(blank, fc.constantFrom('deviceAlias', 'deviceName'), async (name, field) => {
          expectEnvelope(await pbo.post(`${V1}/device`, { mchId: merchant.mchId, [field]: name }), 400, 10000, new RegExp(`${field} must not be blank`));
          expectEnvelope(await pbo.put(`${V1}/device/${code.id}`, { [field]: name }), 400, 10000, new RegExp(`${field} must not be blank`));
          expectEnvelope(await pbo.post('/api/v2/device', { mchId: merchant.mchId, activateCodeAlias: name, deviceType: 'COTS' }), 400, 10000, /activateCodeAlias must not be blank/);
          expectEnvelope(await pbo.put(`/api/v2/device/${code.id}`, { activateCodeAlias: name }), 400, 10000, /activateCodeAlias must not be blank/);
        }),
        { numRuns: 10 },
      );
      // A name with white space around a character is a name.
      expect((await pbo.put(`${V1}/device/${code.id}`, { deviceAlias: ' Till 2 ' })).status).toBe(200);
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

    it('should refuse with 10000 naming the field every acqMid and acqTid a host cannot take, and write nothing', async () => {
      const { pbo, merchant, profileId } = await boundMerchant();
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            invalidMid().map((value) => ({ field: 'acqMid', value, rule: /must be 1 to 15 letters, digits or spaces, not spaces only \(field 42\)$/ })),
            invalidTid().map((value) => ({ field: 'acqTid', value, rule: /must be 1 to 8 letters or digits \(field 41\)$/ })),
          ),
          async ({ field, value, rule }) => {
            const response = await pbo.post(`${V1}/device`, { mchId: merchant.mchId, extParams: { acquirers: { [profileId]: { [field]: value } } } });
            expectEnvelope(response, 400, 10000, new RegExp(`^extParams\\.acquirers\\.${profileId}\\.${field} ${rule.source}`));
          },
        ),
        { numRuns: 30 },
      );
      expect(await devicesOf(pbo)).toBe(0);
      expect(await outboxOf(pbo)).toHaveLength(0);
    });

    it("should send the gateway the merchant's time zone, for the local date and time hosts get", async () => {
      const pbo = await app.newPbo();
      const acquirer = await createCardAcquirer(pbo, ['01']);
      const merchant = await createMerchant(pbo, { timeZone: 'America/St_Johns' });
      await bind(pbo, merchant.mchId, acquirer.id);
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      expect((await outboxOf(pbo)).find((row) => row.payload.profileId === created.profileId)?.payload.timeZone).toBe('America/St_Johns');
    });

    it('should take every acqMid and acqTid a host takes into the gateway profile as primaryMid and primaryTid', async () => {
      const { pbo, merchant, profileId } = await boundMerchant();
      await fc.assert(
        fc.asyncProperty(validMid(), validTid(), async (acqMid, acqTid) => {
          const created = await createDevice(pbo, { mchId: merchant.mchId, extParams: { acquirers: { [profileId]: { acqMid, acqTid } } } });
          const upsert = (await outboxOf(pbo)).find((row) => row.payload.profileId === created.profileId);
          expect(upsert?.payload.acceptances[0]).toMatchObject({ primaryMid: acqMid, primaryTid: acqTid });
        }),
        { numRuns: 8 },
      );
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
      expectEnvelope(
        response,
        400,
        10000,
        new RegExp(`^extParams\\.acquirers\\.${acquirer.id}\\.acqTid is required by acquirer profile ${acquirer.id} \\([^)]+\\)$`),
      );
      expect(await devicesOf(pbo)).toBe(0);
      expect(await outboxOf(pbo)).toHaveLength(0);
    });

    it('should refuse a device without extParams when a bound profile declares enablerParams', async () => {
      const pbo = await app.newPbo();
      const acquirer = await createCardAcquirer(pbo, ['01'], { enablerParams: 'acqMid;acqTid' });
      const merchant = await createMerchant(pbo);
      await bind(pbo, merchant.mchId, acquirer.id);
      expectEnvelope(
        await pbo.post(`${V1}/device`, { mchId: merchant.mchId }),
        400,
        10000,
        new RegExp(`^extParams\\.acquirers\\.${acquirer.id}\\.acqMid is required by acquirer profile ${acquirer.id} \\([^)]+\\)$`),
      );
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
            primaryMid: 'MIDA',
            primaryTid: 'TIDA',
            hostUrl: 'tcp://10.0.0.1:5000',
            extraParams: {},
            // The acquirer profile, whatever its name or address (docs/decisions.md, "Review r14n").
            acquirerRef: String(a.id),
          },
          {
            acptName: b.name,
            hostMessageFormat: 'S2M_8583',
            supportedPayments: ['MASTERCARD'],
            primaryMid: 'MID9',
            primaryTid: null,
            hostUrl: 'tcp://10.0.0.2:6000',
            extraParams: {},
            acquirerRef: String(b.id),
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
        extParams: { acquirers: { ...extParams.acquirers, [b.id]: { acqMid: 'MIDBDEVICE', acqTid: 'TIDB' } } },
      });
      const [row] = await outboxOf(pbo);
      expect(row.payload.acceptances.find((acceptance) => acceptance.acptName === b.name)).toMatchObject({ primaryMid: 'MIDBDEVICE', primaryTid: 'TIDB' });
    });

    it("should give a device with methodList '02' only the acceptance of the profile bound for MASTERCARD", async () => {
      const { pbo, merchant, b } = await twoAcquirers();
      // A is not matched, so its enablerParams are not required.
      const created = await createDevice(pbo, { mchId: merchant.mchId, methodList: '02' });
      expect(created.profileId).toMatch(/^prof_/);
      const rows = await outboxOf(pbo);
      expect(rows).toHaveLength(1);
      expect(rows[0].payload.acceptances).toEqual([expect.objectContaining({ acptName: b.name, supportedPayments: ['MASTERCARD'], primaryMid: 'MID9' })]);
      expect(JSON.parse((await getDevice(pbo, created.id))!.methodList)).toEqual({ '02': { mid: 'MID9', tid: null } });
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
});
