import { createMerchant, dataOf, MerchantView } from '@app/testing';
import { deviceScenarios, CreatedCode, expectEnvelope, Page, Pbo, V1 } from './device-support';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Devices and activation codes (issue 3), end to end over HTTP: the merchant rules that depend on activation codes and devices.
 * The other device-*.e2e-spec.ts files hold the rest; device-support.ts what they share.
 */
describe('devices and activation codes (v1)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const { devicesOf, createDevice, getDevice, activate, unboundMerchant, foreignDevice } = deviceScenarios(() => app);

  describe('merchant rules', () => {
    it('should find the merchant of an activation code in the merchant list by the bare code and by the CD- id', async () => {
      const { pbo, merchant } = await unboundMerchant();
      await createMerchant(pbo);
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      for (const value of [created.activationCode, created.id]) {
        const page = dataOf<Page<MerchantView>>(await pbo.get(`${V1}/mchInfo?activationCode=${value}`));
        expect(page.total).toBe(1);
        expect(page.records.map((record) => record.mchId)).toEqual([merchant.mchId]);
      }
      const unknown = dataOf<Page<MerchantView>>(await pbo.get(`${V1}/mchInfo?activationCode=000000000001`));
      expect(unknown).toMatchObject({ total: 0, records: [] });
    });

    it("should not find another PBO's merchant by its activation code", async () => {
      const foreign = await foreignDevice();
      const pbo = await app.newPbo();
      const page = dataOf<Page<MerchantView>>(await pbo.get(`${V1}/mchInfo?activationCode=${foreign.pending.activationCode}`));
      expect(page).toMatchObject({ total: 0, records: [] });
    });

    it('should refuse to delete a merchant while it has a pending code, and delete it once the code is deleted', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      expectEnvelope(await pbo.delete(`${V1}/mchInfo/${merchant.mchId}`), 409, 10000, /activation code/);
      dataOf(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`));
      dataOf(await pbo.delete(`${V1}/device/${created.id}`));
      dataOf(await pbo.delete(`${V1}/mchInfo/${merchant.mchId}`));
      expectEnvelope(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`), 404, 14000);
    });

    it.each([
      ['an idle code', async (pbo: Pbo, created: CreatedCode) => dataOf(await pbo.delete(`${V1}/device/${created.id}/idle`))],
      [
        'a logged-out device',
        async (pbo: Pbo, created: CreatedCode) => dataOf(await pbo.delete(`${V1}/device/${(await activate(created.activationCode)).deviceId}?deviceStatus=2`)),
      ],
    ])('should refuse to delete a merchant while it has %s', async (_label, arrange) => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      await arrange(pbo, created);
      expectEnvelope(await pbo.delete(`${V1}/mchInfo/${merchant.mchId}`), 409, 10000);
      expect(await devicesOf(pbo)).toBe(1);
    });

    it('should delete a merchant whose only device is decommissioned, and its device with it', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const { deviceId } = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V1}/device/${deviceId}?deviceStatus=3`));
      dataOf(await pbo.delete(`${V1}/mchInfo/${merchant.mchId}`));
      expect(await devicesOf(pbo)).toBe(0);
      expect(await getDevice(pbo, deviceId)).toBeNull();
    });

    it('should show hasKioskTerminal true with a pending KIOSK device and false once it is deleted', async () => {
      const { pbo, merchant } = await unboundMerchant();
      expect(merchant.hasKioskTerminal).toBe(false);
      const created = await createDevice(pbo, { mchId: merchant.mchId, operatingMode: 'KIOSK' });
      expect(dataOf<MerchantView>(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`)).hasKioskTerminal).toBe(true);
      const listed = dataOf<Page<MerchantView>>(await pbo.get(`${V1}/mchInfo?mchId=${merchant.mchId}`));
      expect(listed.records[0].hasKioskTerminal).toBe(true);
      dataOf(await pbo.delete(`${V1}/device/${created.id}`));
      expect(dataOf<MerchantView>(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`)).hasKioskTerminal).toBe(false);
    });

    it('should show hasKioskTerminal true with an active KIOSK device and false once it is decommissioned', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, operatingMode: 'KIOSK' });
      const { deviceId } = await activate(created.activationCode);
      expect(dataOf<MerchantView>(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`)).hasKioskTerminal).toBe(true);
      dataOf(await pbo.delete(`${V1}/device/${deviceId}?deviceStatus=3`));
      expect(dataOf<MerchantView>(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`)).hasKioskTerminal).toBe(false);
    });

    it('should show hasKioskTerminal false with only STANDARD devices', async () => {
      const { pbo, merchant } = await unboundMerchant();
      await createDevice(pbo, { mchId: merchant.mchId });
      await createDevice(pbo, { mchId: merchant.mchId, operatingMode: 'STANDARD' });
      expect(dataOf<MerchantView>(await pbo.get(`${V1}/mchInfo/${merchant.mchId}`)).hasKioskTerminal).toBe(false);
    });
  });

  // ---- GET device/emv/{deviceId} -------------------------------------------------------------
});
