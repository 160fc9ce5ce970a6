import { createMerchant, dataOf } from '@app/testing';
import { deviceScenarios, Device, expectEnvelope, MASTERCARD_AID, Page, TIMESTAMP, V1, VISA_AID } from './device-support';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Devices and activation codes (issue 3), end to end over HTTP: reading devices: one by its ids, the list, the EMV parameters.
 * The other device-*.e2e-spec.ts files hold the rest; device-support.ts what they share.
 */
describe('devices and activation codes (v1)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const { createDevice, getDevice, activate, unboundMerchant, boundMerchant, twoAcquirers, foreignDevice } = deviceScenarios(() => app);

  describe('GET device/{deviceId}', () => {
    it('should find a pending code by its CD- id and by the bare code, as the same record', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, deviceAlias: 'Till 1' });
      const byId = await getDevice(pbo, created.id);
      const byCode = await getDevice(pbo, created.activationCode);
      expect(byId).toMatchObject({ deviceId: created.id, deviceAlias: 'Till 1' });
      expect(byCode).toEqual(byId);
    });

    it('should find an activated device by its device id, its CD- id and its bare code, as the same record', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const pending = (await getDevice(pbo, created.id))!;
      const { deviceId } = await activate(created.activationCode);
      const byDeviceId = await getDevice(pbo, deviceId);
      expect(byDeviceId).toMatchObject({ deviceId, uuid: pending.uuid, deviceStatus: 1, isDevice: true });
      expect(await getDevice(pbo, created.id)).toEqual(byDeviceId);
      expect(await getDevice(pbo, created.activationCode)).toEqual(byDeviceId);
    });

    it.each([
      ['a CD- id', 'CD-000000000001'],
      ['a bare code', '000000000001'],
      ['a device id', 'SDK0000000000000000000000'],
      ['an id that cannot be an id', 'not an id!'],
    ])('should answer HTTP 200, code 0 and data null for %s that does not exist', async (_label, id) => {
      const pbo = await app.newPbo();
      const response = await pbo.get(`${V1}/device/${encodeURIComponent(id)}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS', data: null });
    });

    it("should refuse another PBO's device by device id with 13000, and answer its code, bare or as a CD- id, as an unknown one (data null)", async () => {
      const foreign = await foreignDevice();
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.get(`${V1}/device/${foreign.deviceId}`), 403, 13000, /owner info invalid/);
      // A code is a secret in either form (docs/decisions.md, "A `CD-` id is the activation code"): code-oracle.e2e-spec.ts proves it on every route.
      for (const id of [foreign.created.activationCode, foreign.pending.activationCode, foreign.created.id, foreign.pending.id]) {
        expect(await pbo.get(`${V1}/device/${id}`)).toMatchObject({ status: 200, body: { code: 0, msg: 'SUCCESS', data: null } });
      }
    });

    it('should show a pending code with its fields: deviceToken carrying the code, deviceAdmin masked, JSON-encoded params, no isDevice', async () => {
      const { pbo, merchant, profileId } = await boundMerchant();
      const extParams = { acquirers: { [profileId]: { acqMid: 'M1', acqTid: 'T1' } } };
      const emvParams = { terminalType: '21', emvFlags: '1' };
      const created = await createDevice(pbo, {
        mchId: merchant.mchId,
        deviceAlias: 'Front till',
        deviceName: 'Pixel',
        deviceType: 'COTS',
        operatingMode: 'KIOSK',
        deviceAdmin: 'admin-secret',
        extParams,
        emvParams,
      });
      const device = (await getDevice(pbo, created.id))!;
      expect(device).toMatchObject({
        deviceId: created.id,
        mchId: merchant.mchId,
        groupId: pbo.groupId,
        deviceType: 'COTS',
        deviceStatus: 0,
        deviceUpdate: 0,
        deviceAlias: 'Front till',
        deviceName: 'Pixel',
        deviceAdmin: '******',
        operatingMode: 'KIOSK',
        profileId: created.profileId,
        activesAt: null,
      });
      expect(device.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(device.deviceToken)).toEqual({ activationCode: created.activationCode });
      expect(JSON.parse(device.emvParams!)).toEqual(emvParams);
      expect(JSON.parse(device.extParams!)).toEqual(extParams);
      expect(JSON.parse(device.methodList)).toEqual({ '01': { mid: 'M1', tid: 'T1' }, '02': { mid: 'M1', tid: 'T1' } });
      expect('isDevice' in device).toBe(false);
      expect(device.createdAt).toMatch(TIMESTAMP);
      expect(device.updatedAt).toMatch(TIMESTAMP);
      expect(JSON.stringify(device)).not.toContain('admin-secret');
    });

    it('should show deviceAdmin, emvParams and extParams as null when they were not set', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      expect(await getDevice(pbo, created.id)).toMatchObject({
        deviceAdmin: null,
        emvParams: null,
        extParams: null,
        operatingMode: 'STANDARD',
        deviceType: null,
      });
    });

    it('should show an activated device with isDevice true, deviceStatus 1, activesAt and the app version the phone reported', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const { deviceId } = await activate(created.activationCode);
      const device = (await getDevice(pbo, deviceId))!;
      expect(device).toMatchObject({ deviceId, isDevice: true, deviceStatus: 1, deviceUpdate: 0, appVersion: '1.2.3' });
      expect(device.activesAt).toMatch(TIMESTAMP);
      expect(JSON.parse(device.deviceToken)).toEqual({ activationCode: created.activationCode });
    });
  });

  // ---- GET device (list) ---------------------------------------------------------------------

  describe('GET device list', () => {
    it('should refuse a list without mchId with 10000 naming mchId', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.get(`${V1}/device`), 400, 10000, /mchId/);
    });

    it('should list the devices of the merchant only', async () => {
      const { pbo, merchant } = await boundMerchant();
      const other = await createMerchant(pbo);
      const mine = await createDevice(pbo, { mchId: merchant.mchId });
      await createDevice(pbo, { mchId: other.mchId });
      const page = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}`));
      expect(page).toMatchObject({ total: 1, current: 1, hasNext: false });
      expect(page.records.map((device) => device.deviceId)).toEqual([mine.id]);
    });

    it('should filter by deviceId: the CD- id of a pending code and the device id of an activated one', async () => {
      const { pbo, merchant } = await boundMerchant();
      const pending = await createDevice(pbo, { mchId: merchant.mchId });
      const activated = await createDevice(pbo, { mchId: merchant.mchId });
      const { deviceId } = await activate(activated.activationCode);
      const byCode = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&deviceId=${pending.id}`));
      expect(byCode.total).toBe(1);
      expect(byCode.records.map((device) => device.deviceId)).toEqual([pending.id]);
      const byDevice = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&deviceId=${deviceId}`));
      expect(byDevice.total).toBe(1);
      expect(byDevice.records.map((device) => device.deviceId)).toEqual([deviceId]);
      const none = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&deviceId=CD-000000000001`));
      expect(none).toMatchObject({ total: 0, records: [] });
    });

    it('should filter by deviceType', async () => {
      const { pbo, merchant } = await boundMerchant();
      const cots = await createDevice(pbo, { mchId: merchant.mchId, deviceType: 'COTS' });
      await createDevice(pbo, { mchId: merchant.mchId, deviceType: 'POS' });
      await createDevice(pbo, { mchId: merchant.mchId });
      const page = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&deviceType=COTS`));
      expect(page.total).toBe(1);
      expect(page.records.map((device) => device.deviceId)).toEqual([cots.id]);
    });

    it('should page the list with pageNumber and pageSize, and return all with pageSize -1', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await createDevice(pbo, { mchId: merchant.mchId })).id);
      const first = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&pageSize=2&pageNumber=1`));
      const second = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&pageSize=2&pageNumber=2`));
      expect(first).toMatchObject({ total: 3, current: 1, hasNext: true });
      expect(first.records).toHaveLength(2);
      expect(second).toMatchObject({ total: 3, current: 2, hasNext: false });
      expect(second.records).toHaveLength(1);
      expect([...first.records, ...second.records].map((device) => device.deviceId).sort()).toEqual([...ids].sort());
      const all = dataOf<Page<Device>>(await pbo.get(`${V1}/device?mchId=${merchant.mchId}&pageSize=-1`));
      expect(all).toMatchObject({ total: 3, current: 1, hasNext: false });
      expect(all.records).toHaveLength(3);
    });

    it("should refuse the list of another PBO's merchant with 13000", async () => {
      const foreign = await foreignDevice();
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.get(`${V1}/device?mchId=${foreign.merchant.mchId}`), 403, 13000);
    });

    it('should refuse the list of an unknown merchant with 14000', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.get(`${V1}/device?mchId=999999999999999`), 404, 14000);
    });
  });

  // ---- PUT device ----------------------------------------------------------------------------

  // ---- GET device/emv/{deviceId} -------------------------------------------------------------

  describe('GET device/emv/{deviceId}', () => {
    it("should resolve the defaults from the merchant's currency and country", async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const emv = dataOf<{ emvParams: Record<string, string> }>(await pbo.get(`${V1}/device/emv/${created.id}`));
      expect(emv.emvParams).toEqual({
        amexFloorLimit: '0',
        txnCurrencyCode: '0458',
        terminalCountryCode: '0458',
        terminalType: '22',
        terminalCapability: 'E0F8C8',
        emvFlags: '0',
      });
    });

    it("should let the device's own emvParams override the defaults", async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, emvParams: { terminalType: '21', terminalCountryCode: '0702' } });
      const emv = dataOf<{ emvParams: Record<string, string> }>(await pbo.get(`${V1}/device/emv/${created.id}`));
      expect(emv.emvParams).toEqual({
        amexFloorLimit: '0',
        txnCurrencyCode: '0458',
        terminalCountryCode: '0702',
        terminalType: '21',
        terminalCapability: 'E0F8C8',
        emvFlags: '0',
      });
    });

    it('should list the AIDs of the bound EMV configs with their payment method codes', async () => {
      const { pbo, merchant, extParams } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, extParams });
      const emv = dataOf<{ emvAID: { aid: string; paymentMethod: string }[] }>(await pbo.get(`${V1}/device/emv/${created.id}`));
      expect(emv.emvAID).toHaveLength(2);
      expect(emv.emvAID).toEqual(
        expect.arrayContaining([
          { aid: VISA_AID, paymentMethod: '01' },
          { aid: MASTERCARD_AID, paymentMethod: '02' },
        ]),
      );
    });

    it("should list only the AIDs of the device's methodList", async () => {
      const { pbo, merchant } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, methodList: '02' });
      const emv = dataOf<{ emvAID: unknown[] }>(await pbo.get(`${V1}/device/emv/${created.id}`));
      expect(emv.emvAID).toEqual([{ aid: MASTERCARD_AID, paymentMethod: '02' }]);
    });

    it('should answer an empty emvAID when no acquirer matches', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      expect(dataOf(await pbo.get(`${V1}/device/emv/${created.id}`))).toMatchObject({ emvAID: [] });
    });

    it('should answer what the device received at activation, by its device id', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, emvParams: { emvFlags: '3' } });
      const activation = await activate(created.activationCode);
      const emv = dataOf(await pbo.get(`${V1}/device/emv/${activation.deviceId}`));
      expect(emv).toEqual({ emvParams: activation.emvParams, emvAID: activation.emvAID });
    });
  });

  // ---- POST device/code ----------------------------------------------------------------------
});
