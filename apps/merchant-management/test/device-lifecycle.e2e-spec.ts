import { dataOf, unique } from '@app/testing';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deviceScenarios, expectEnvelope, SDK, V1 } from './device-support';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Devices and activation codes (issue 3), end to end over HTTP: the state table of activation codes and devices, and e-mailing a pending code.
 * The other device-*.e2e-spec.ts files hold the rest; device-support.ts what they share.
 */
describe('devices and activation codes (v1)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const { devicesOf, outboxOf, createDevice, getDevice, activate, pullConfig, unboundMerchant, boundMerchant } = deviceScenarios(() => app);

  describe('state table: activation code / device', () => {
    it('should turn a pending code into an active device when the phone activates it', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      expect(activation).toMatchObject({
        deviceId: expect.stringMatching(/^SDK[0-9A-F]{20}$/),
        namespace: 'demo',
        profileId: created.profileId,
        deviceToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      });
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceId: activation.deviceId, deviceStatus: 1, isDevice: true });
      expect(dataOf(await pullConfig(activation.deviceToken))).toMatchObject({ profileId: created.profileId });
    });

    it('should refuse a second activation with the same code with 409 / 10000', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const { deviceId } = await activate(created.activationCode);
      expectEnvelope(await app.anonymous.post(`${SDK}/activate`, { activationCode: created.activationCode }), 409, 10000, /already used/);
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceId, deviceStatus: 1 });
    });

    it('should log an active device out with deviceStatus=2, after which its config pull is refused with 401 / 11000', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=2`));
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceStatus: 2, isDevice: true });
      expectEnvelope(await pullConfig(activation.deviceToken), 401, 11000);
    });

    it('should decommission an active device with deviceStatus=3, after which PUT, idle and delete are refused with 409', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, deviceAlias: 'Till' });
      const activation = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=3`));
      const decommissioned = await getDevice(pbo, activation.deviceId);
      expect(decommissioned).toMatchObject({ deviceStatus: 3, deviceAlias: 'Till' });
      expectEnvelope(await pullConfig(activation.deviceToken), 401, 11000);
      expectEnvelope(await pbo.put(`${V1}/device/${activation.deviceId}`, { deviceAlias: 'Again' }), 409, 10000, /decommissioned/);
      expectEnvelope(await pbo.delete(`${V1}/device/${created.id}/idle`), 409, 10000, /decommissioned/);
      expectEnvelope(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=2`), 409, 10000, /decommissioned/);
      expectEnvelope(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=3`), 409, 10000, /decommissioned/);
      expect(await getDevice(pbo, activation.deviceId)).toEqual(decommissioned);
    });

    it('should refuse to activate the code of a decommissioned device', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=3`));
      expectEnvelope(await app.anonymous.post(`${SDK}/activate`, { activationCode: created.activationCode }), 409, 10000, /decommissioned/);
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceId: activation.deviceId, deviceStatus: 3 });
    });

    it('should idle a pending code, which can then be activated', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      dataOf(await pbo.delete(`${V1}/device/${created.id}/idle`));
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceId: created.id, deviceStatus: 4 });
      const activation = await activate(created.activationCode);
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceId: activation.deviceId, deviceStatus: 1, isDevice: true });
    });

    it("should idle an active device: the old phone's config pull is refused and a re-activation gets a new device id", async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const first = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V1}/device/${created.id}/idle`));
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceStatus: 4 });
      expectEnvelope(await pullConfig(first.deviceToken), 401, 11000);
      const second = await activate(created.activationCode);
      expect(second.deviceId).toMatch(/^SDK[0-9A-F]{20}$/);
      expect(second.deviceId).not.toBe(first.deviceId);
      expect(second.profileId).toBe(created.profileId);
      expect(await getDevice(pbo, second.deviceId)).toMatchObject({ deviceStatus: 1 });
      expect(await getDevice(pbo, first.deviceId)).toBeNull();
      expectEnvelope(await pullConfig(first.deviceToken), 401, 11000);
      expect(dataOf(await pullConfig(second.deviceToken))).toMatchObject({ deviceId: second.deviceId });
    });

    it('should idle a logged-out device so that its code can be activated again', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const first = await activate(created.activationCode);
      dataOf(await pbo.delete(`${V1}/device/${first.deviceId}?deviceStatus=2`));
      dataOf(await pbo.delete(`${V1}/device/${first.deviceId}/idle`));
      const second = await activate(created.activationCode);
      expect(second.deviceId).not.toBe(first.deviceId);
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceId: second.deviceId, deviceStatus: 1 });
    });

    it('should delete a pending code by its CD- id: GET answers data null and the code no longer activates (14000)', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      dataOf(await pbo.delete(`${V1}/device/${created.id}`));
      expect(await getDevice(pbo, created.id)).toBeNull();
      expect(await getDevice(pbo, created.activationCode)).toBeNull();
      expect(await devicesOf(pbo)).toBe(0);
      expectEnvelope(await app.anonymous.post(`${SDK}/activate`, { activationCode: created.activationCode }), 404, 14000);
    });

    it('should delete a pending code by its bare code', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      dataOf(await pbo.delete(`${V1}/device/${created.activationCode}`));
      expect(await devicesOf(pbo)).toBe(0);
    });

    it('should refuse to delete the CD- id of an activated code with 409 and keep the device active', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      expectEnvelope(
        await pbo.delete(`${V1}/device/${created.id}`),
        409,
        10000,
        new RegExp(`^activation code ${created.id} was activated as device ${activation.deviceId}; log it out or decommission it by its device id$`),
      );
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceStatus: 1 });
      expect(dataOf(await pullConfig(activation.deviceToken))).toMatchObject({ deviceId: activation.deviceId });
    });

    it('should refuse to delete a device id without deviceStatus with 10000 naming deviceStatus', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      expectEnvelope(await pbo.delete(`${V1}/device/${activation.deviceId}`), 400, 10000, /deviceStatus/);
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceStatus: 1 });
    });

    it.each(['5', '1', 'x'])('should refuse deviceStatus=%s with 10000 naming deviceStatus', async (status) => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      expectEnvelope(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=${status}`), 400, 10000, /deviceStatus/);
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceStatus: 1 });
    });

    // Spec scenario 1 (both documents): a code id deletes a pending code; deviceStatus (2, 3, or none) does not turn that into a 409.
    const PENDING_DELETES = ['/api/openapi/v1', '/api/v2'].flatMap((base) =>
      (['CD-', 'bare'] as const).flatMap((form) => [undefined, '2', '3'].map((status) => [base, form, status] as const)),
    );
    it.each(PENDING_DELETES)('should delete a pending code through %s by its %s id with deviceStatus=%s: 200, gone, its gateway profile DISABLED', async (base, form, status) => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const id = form === 'CD-' ? created.id : created.activationCode;
      const response = await pbo.delete(`${base}/device/${id}${status === undefined ? '' : `?deviceStatus=${status}`}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: 0, msg: 'SUCCESS' });
      // (That the phone can no longer activate a deleted code is shown above; twelve more failed activations would trip the throttle.)
      expect(await getDevice(pbo, created.id)).toBeNull();
      expect(await devicesOf(pbo)).toBe(0);
      const pushed = (await outboxOf(pbo)).filter((row) => row.payload.profileId === created.profileId).map((row) => row.payload.entityStatus);
      expect(pushed).toEqual(['ACTIVE', 'DISABLED']);
    });

    // Review r14i: idled or logged out, then decommissioned or deleted, the gateway must learn the terminals are free.
    const RETIREMENTS = [
      ['idled', 'decommissioned', 'idle', '?deviceStatus=3'],
      ['logged out', 'decommissioned', '?deviceStatus=2', '?deviceStatus=3'],
      ['idled while pending', 'deleted', 'idle', ''],
    ] as const;
    it.each(RETIREMENTS)('should push a device %s, then %s: DISABLED keeping its terminals, then DISABLED freeing them', async (_first, _then, away, gone) => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const id = _first === 'idled while pending' ? created.id : (await activate(created.activationCode)).deviceId;
      const leave = (how: string) => (how === 'idle' ? pbo.delete(`${V1}/device/${id}/idle`) : pbo.delete(`${V1}/device/${id}${how}`));
      expect((await leave(away)).status).toBe(200);
      expect((await leave(gone)).status).toBe(200);
      const pushed = (await outboxOf(pbo)).filter((row) => row.payload.profileId === created.profileId).map((row) => [row.payload.entityStatus, row.payload.keepsTerminals ?? false]);
      expect(pushed.slice(-2)).toEqual([
        ['DISABLED', true],
        ['DISABLED', false],
      ]);
    });

    it('should answer 14000 when deleting or idling a device that does not exist', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.delete(`${V1}/device/CD-000000000001`), 404, 14000);
      expectEnvelope(await pbo.delete(`${V1}/device/CD-000000000001/idle`), 404, 14000);
    });
  });

  // ---- merchant rules ------------------------------------------------------------------------

  describe('POST device/code', () => {
    /** The raw messages written for `to` (tests run with the file transport). */
    async function mailTo(to: string): Promise<string[]> {
      const directory = (app.options.mail as { directory: string }).directory;
      const files = await readdir(directory).catch(() => [] as string[]);
      const raws = await Promise.all(files.map((file) => readFile(join(directory, file), 'utf8')));
      return raws.filter((raw) => raw.includes(to));
    }

    it('should e-mail a pending code to the given address', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const to = `${unique('owner-')}@example.com`;
      dataOf(await pbo.post(`${V1}/device/code`, { deviceId: created.id, email: to }));
      const messages = await mailTo(to);
      expect(messages).toHaveLength(1);
      const code = created.activationCode;
      expect(messages[0]).toContain(`${code.slice(0, 4)} ${code.slice(4, 8)} ${code.slice(8)}`);
      expect(messages[0]).toContain(merchant.mchId);
    });

    it('should refuse to e-mail the code of an activated device with 409 and send nothing', async () => {
      const { pbo, merchant } = await unboundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      await activate(created.activationCode);
      const to = `${unique('owner-')}@example.com`;
      expectEnvelope(await pbo.post(`${V1}/device/code`, { deviceId: created.id, email: to }), 409, 10000, /already used/);
      expect(await mailTo(to)).toHaveLength(0);
    });
  });

  // ---- tenancy -------------------------------------------------------------------------------
});
