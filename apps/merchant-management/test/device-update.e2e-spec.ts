import { dataOf } from '@app/testing';
import { deviceScenarios, expectEnvelope, TIMESTAMP, UPSERT, V1 } from './device-support';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Devices and activation codes (issue 3), end to end over HTTP: updating a device and what its phone pulls.
 * The other device-*.e2e-spec.ts files hold the rest; device-support.ts what they share.
 */
describe('devices and activation codes (v1)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const { outboxOf, createDevice, getDevice, activate, pullConfig, boundMerchant, twoAcquirers, foreignDevice } = deviceScenarios(() => app);

  describe('PUT device/{deviceId}', () => {
    it('should leave omitted fields unchanged', async () => {
      const { pbo, merchant, profileId } = await boundMerchant();
      const extParams = { acquirers: { [profileId]: { acqMid: 'M1' } } };
      const created = await createDevice(pbo, {
        mchId: merchant.mchId,
        deviceAlias: 'Till',
        deviceType: 'COTS',
        operatingMode: 'KIOSK',
        deviceAdmin: 'secret-1',
        extParams,
        emvParams: { terminalType: '21' },
      });
      const before = (await getDevice(pbo, created.id))!;
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { deviceName: 'Renamed' }));
      const after = (await getDevice(pbo, created.id))!;
      // A PUT may push the profile again (its sync state then names the next version): no input field, so not compared here.
      expect(after).toEqual({
        ...before,
        deviceName: 'Renamed',
        updatedAt: expect.stringMatching(TIMESTAMP),
        profileSync: expect.anything(),
      });
    });

    it('should clear a field sent as null', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, {
        mchId: merchant.mchId,
        deviceAlias: 'Till',
        deviceName: 'Pixel',
        deviceAdmin: 'secret-1',
        emvParams: { terminalType: '21' },
      });
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { deviceAlias: null, deviceAdmin: null, emvParams: null }));
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceAlias: null, deviceName: 'Pixel', deviceAdmin: null, emvParams: null });
    });

    it('should accept extParams and emvParams as JSON-encoded strings', async () => {
      const { pbo, merchant, profileId } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const extParams = { acquirers: { [profileId]: { acqMid: 'M2', acqTid: 'T2' } } };
      const emvParams = { terminalCapability: 'E0F0C8' };
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { extParams: JSON.stringify(extParams), emvParams: JSON.stringify(emvParams) }));
      const device = (await getDevice(pbo, created.id))!;
      expect(JSON.parse(device.extParams!)).toEqual(extParams);
      expect(JSON.parse(device.emvParams!)).toEqual(emvParams);
    });

    it.each([
      ['extParams that is not JSON', { extParams: '{not json' }, /extParams/],
      ['emvParams that is not JSON', { emvParams: 'terminalType=21' }, /emvParams/],
      ['extParams sent as an object', { extParams: { acquirers: {} } }, /extParams/],
      ['emvParams with a non-string value', { emvParams: JSON.stringify({ terminalType: 22 }) }, /emvParams\.terminalType/],
      ['a methodList with an unknown code', { methodList: '01,09' }, /methodList.*09/],
    ])('should refuse %s with 10000 and change nothing', async (_label, body, msg) => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, deviceAlias: 'Till' });
      const before = await getDevice(pbo, created.id);
      expectEnvelope(await pbo.put(`${V1}/device/${created.id}`, { deviceAlias: 'Changed', ...body }), 400, 10000, msg);
      expect(await getDevice(pbo, created.id)).toEqual(before);
      expect(await outboxOf(pbo)).toHaveLength(1);
    });

    it("should refuse extParams that drop a field of the profile's enablerParams with 10000 naming it", async () => {
      const { pbo, merchant, a, extParams } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, extParams });
      const response = await pbo.put(`${V1}/device/${created.id}`, { extParams: JSON.stringify({ acquirers: { [a.id]: { acqMid: 'MIDA' } } }) });
      expectEnvelope(response, 400, 10000, new RegExp(`^extParams\\.acquirers\\.${a.id}\\.acqTid is required by acquirer profile ${a.id} \\([^)]+\\)$`));
      expect(JSON.parse((await getDevice(pbo, created.id))!.extParams!)).toEqual(extParams);
      expect(await outboxOf(pbo)).toHaveLength(1);
    });

    it('should queue a second upsert with version 2 and the same profileId when methodList changes', async () => {
      const { pbo, merchant, b, extParams } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, extParams });
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { methodList: '02' }));
      const rows = await outboxOf(pbo);
      expect(rows).toHaveLength(2);
      expect(rows.map((row) => [row.subject, row.payload.version, row.payload.profileId])).toEqual([
        [UPSERT, 1, created.profileId],
        [UPSERT, 2, created.profileId],
      ]);
      expect(rows[1].payload.acceptances).toEqual([expect.objectContaining({ acptName: b.name, supportedPayments: ['MASTERCARD'] })]);
      // A pending code has not pulled anything yet: no update flag.
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceUpdate: 0, profileId: created.profileId });
    });

    it('should flag an activated device with deviceUpdate 1 when extParams change, until its config pull clears it', async () => {
      const { pbo, merchant, a, extParams } = await twoAcquirers();
      const created = await createDevice(pbo, { mchId: merchant.mchId, extParams });
      const activation = await activate(created.activationCode);
      dataOf(
        await pbo.put(`${V1}/device/${activation.deviceId}`, { extParams: JSON.stringify({ acquirers: { [a.id]: { acqMid: 'MIDA', acqTid: 'TIDA2' } } }) }),
      );
      const rows = await outboxOf(pbo);
      // Created, activated (naming the activation's device id), then changed.
      expect(rows).toHaveLength(3);
      expect(rows[1].payload).toMatchObject({ version: 2, profileId: created.profileId, activeSdkId: activation.deviceId });
      expect(rows[2].payload).toMatchObject({ version: 3, profileId: created.profileId, activeSdkId: activation.deviceId });
      expect(rows[2].payload.acceptances.find((acceptance) => acceptance.acptName === a.name)).toMatchObject({ primaryTid: 'TIDA2' });
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceUpdate: 1 });
      const config = await pullConfig(activation.deviceToken);
      expect(config.status).toBe(200);
      expect(config.body.data).toMatchObject({ profileId: created.profileId, deviceToken: expect.any(String) });
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceUpdate: 0 });
    });

    it('should flag an activated device with deviceUpdate 1 when its emvParams change, and hand the new values to its config pull', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { emvParams: JSON.stringify({ terminalType: '21' }) }));
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceUpdate: 1 });
      const config = dataOf(await pullConfig(activation.deviceToken));
      expect(config.emvParams).toMatchObject({ terminalType: '21', txnCurrencyCode: '0458' });
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceUpdate: 0 });
    });

    it('should queue no upsert when a PUT leaves the activation profile as it was', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, deviceAlias: 'Till' });
      dataOf(await pbo.put(`${V1}/device/${created.id}`, { deviceType: 'COTS' }));
      expect(await getDevice(pbo, created.id)).toMatchObject({ deviceType: 'COTS' });
      expect((await outboxOf(pbo)).map((row) => row.payload.version)).toEqual([1]);
    });

    it('should leave deviceUpdate 0 on an activated device when a PUT changes nothing the device pulls', async () => {
      const { pbo, merchant } = await boundMerchant();
      const created = await createDevice(pbo, { mchId: merchant.mchId, deviceAlias: 'Till' });
      const activation = await activate(created.activationCode);
      dataOf(await pbo.put(`${V1}/device/${activation.deviceId}`, { deviceType: 'COTS' }));
      expect(await getDevice(pbo, activation.deviceId)).toMatchObject({ deviceType: 'COTS', deviceUpdate: 0 });
    });

    it("should refuse another PBO's device with 13000 and change nothing", async () => {
      const foreign = await foreignDevice();
      const pbo = await app.newPbo();
      const before = await getDevice(foreign.pbo, foreign.deviceId);
      expectEnvelope(await pbo.put(`${V1}/device/${foreign.deviceId}`, { deviceAlias: 'mine now' }), 403, 13000);
      expect(await getDevice(foreign.pbo, foreign.deviceId)).toEqual(before);
    });

    it('should answer 14000 for a device that does not exist', async () => {
      const pbo = await app.newPbo();
      expectEnvelope(await pbo.put(`${V1}/device/CD-000000000001`, { deviceAlias: 'x' }), 404, 14000);
    });
  });

  // ---- state table ---------------------------------------------------------------------------
});
