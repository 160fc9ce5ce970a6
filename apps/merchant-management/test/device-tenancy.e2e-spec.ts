import { ApiClient, dataOf } from '@app/testing';
import { deviceScenarios, Body, Device, expectEnvelope, Page, Pbo, SDK, V1 } from './device-support';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Devices and activation codes (issue 3), end to end over HTTP: tenancy: another PBO's devices and tokens.
 * The other device-*.e2e-spec.ts files hold the rest; device-support.ts what they share.
 */
describe('devices and activation codes (v1)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const { devicesOf, outboxOf, createDevice, activate, boundMerchant, foreignDevice } = deviceScenarios(() => app);

  describe('tenancy', () => {
    let foreign: Awaited<ReturnType<typeof foreignDevice>>;
    let pbo: Pbo;
    let before: { devices: Device[]; outbox: number };

    beforeAll(async () => {
      foreign = await foreignDevice();
      pbo = await app.newPbo();
      before = {
        devices: dataOf<Page<Device>>(await foreign.pbo.get(`${V1}/device?mchId=${foreign.merchant.mchId}&pageSize=-1`)).records,
        outbox: (await outboxOf(foreign.pbo)).length,
      };
    });

    // Routes naming a pending device by its `CD-` id (the activation code) answer another PBO's as an unknown one: code-oracle.e2e-spec.ts.
    const routes: [string, (f: Awaited<ReturnType<typeof foreignDevice>>) => [method: string, path: string, body?: Body]][] = [
      ['GET device/{id} by device id', (f) => ['GET', `${V1}/device/${f.deviceId}`]],
      ['GET device list', (f) => ['GET', `${V1}/device?mchId=${f.merchant.mchId}`]],
      ['POST device', (f) => ['POST', `${V1}/device`, { mchId: f.merchant.mchId }]],
      ['PUT device/{id}', (f) => ['PUT', `${V1}/device/${f.deviceId}`, { deviceAlias: 'x' }]],
      ['DELETE device/{id}?deviceStatus=2', (f) => ['DELETE', `${V1}/device/${f.deviceId}?deviceStatus=2`]],
      ['DELETE device/{id}?deviceStatus=3', (f) => ['DELETE', `${V1}/device/${f.deviceId}?deviceStatus=3`]],
      ['GET device/emv/{id}', (f) => ['GET', `${V1}/device/emv/${f.deviceId}`]],
    ];

    it.each(routes)("should refuse %s of another PBO's device with 403 / 13000", async (_label, route) => {
      const [method, path, body] = route(foreign);
      expectEnvelope(await pbo.request(method, path, body), 403, 13000);
    });

    it("should leave the other PBO's devices and outbox untouched after all those attempts", async () => {
      for (const [, route] of routes) {
        const [method, path, body] = route(foreign);
        await pbo.request(method, path, body);
      }
      const after = dataOf<Page<Device>>(await foreign.pbo.get(`${V1}/device?mchId=${foreign.merchant.mchId}&pageSize=-1`)).records;
      expect(after).toEqual(before.devices);
      expect(await outboxOf(foreign.pbo)).toHaveLength(before.outbox);
      expect(await devicesOf(pbo)).toBe(0);
    });

    it('should not accept a device token in place of a PBO token, nor a PBO token for the config pull', async () => {
      const { pbo: owner, merchant } = await boundMerchant();
      const created = await createDevice(owner, { mchId: merchant.mchId });
      const activation = await activate(created.activationCode);
      expectEnvelope(await new ApiClient(app.baseUrl, activation.deviceToken).get(`${V1}/device/${activation.deviceId}`), 401, 11000);
      expectEnvelope(await new ApiClient(app.baseUrl, owner.token).get(`${SDK}/config`), 401, 11000);
      expectEnvelope(await app.anonymous.get(`${SDK}/config`), 401, 11000);
    });
  });
});
