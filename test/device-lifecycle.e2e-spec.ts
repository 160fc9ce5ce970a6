import { testCardEmv } from '@app/host-protocol';
import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { ApiClient, createAcquirer, createEmv, createMerchant, dataOf, gatewayBase, MerchantView, queryDatabase, startTestApp, TestApp, unique, waitFor } from '@app/testing';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { PboService, ProfileSyncService } from '../apps/merchant-management/src';
import { StandaloneModule } from '../apps/standalone/src';

const GATEWAY_BASE = gatewayBase(DEFAULT_GATEWAY_NAMESPACE);

/** What a PBO does to a device after it was activated: log it out, decommission it, idle it and activate its code again. */
type Step = 'logout' | 'decommission' | 'idle-and-reactivate';

interface Phone {
  client: ApiClient;
  profileId: string;
  deviceId: string;
}

/**
 * Device lifecycle reaches the gateway (issue 14, class 8), in standalone over HTTP as a PBO and a
 * phone see it: after each step a PBO takes, the phone's sale is taken exactly while its device is
 * active, and the gateway shows the profile DISABLED exactly while it is not. The steps are
 * generated; the model is the device status merchant-management shows.
 */
describe('device lifecycle at the gateway', () => {
  let app: TestApp;
  let pbo: ApiClient;
  let merchant: MerchantView;
  let acquirer: number;

  beforeAll(async () => {
    app = await startTestApp((options) => StandaloneModule.register(options));
    const created = await app.app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur' });
    pbo = await app.clientFor(created.groupId);
    const emvId = await createEmv(pbo, { paymentMethod: '01' });
    acquirer = await createAcquirer(pbo, { '01': [emvId] }, { profileName: unique('Acquirer '), connMessageFormat: 'MOCK', enablerMsgFormat: null, connUrl: null });
    merchant = await createMerchant(pbo, { country: 'MY', timeZone: 'Asia/Kuala_Lumpur', mcc: '5814' });
    dataOf(await pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirer), currency: 'MYR' }));
  });

  afterAll(() => app?.close());

  async function newCode(): Promise<{ activationCode: string; profileId: string }> {
    return dataOf(
      await pbo.post('/api/openapi/v1/device', {
        mchId: merchant.mchId,
        deviceAlias: unique('Till '),
        extParams: { acquirers: { [acquirer]: { acqMid: 'MID000000000042', acqTid: `T${String(Date.now()).slice(-7)}` } } },
      }),
    );
  }

  async function activate(activationCode: string): Promise<Phone> {
    const activation = dataOf<{ deviceToken: string; profileId: string; deviceId: string }>(await app.anonymous.post('/api/sdk/v1/activate', { activationCode }));
    return { client: new ApiClient(app.baseUrl, activation.deviceToken), profileId: activation.profileId, deviceId: activation.deviceId };
  }

  /** Waits until the gateway shows the profile in `status` (upserts travel through the outbox). */
  async function gatewayShows(profileId: string, status: 'ACTIVE' | 'DISABLED'): Promise<void> {
    await waitFor(`profile ${profileId} ${status} at the gateway`, async () => {
      const response = await pbo.get(`${GATEWAY_BASE}/profiles/${profileId}`);
      return response.status === 200 && (response.body as unknown as { entityStatus: string }).entityStatus === status;
    });
  }

  async function sale(phone: Phone): Promise<{ status: number; body: unknown }> {
    const emvData = testCardEmv({ card: 'visa', amountMinor: '1250', currencyNumeric: '458', countryNumeric: '458', date: new Date() });
    return phone.client.request(
      'POST',
      `${GATEWAY_BASE}/transaction`,
      { profileId: phone.profileId, tranType: 'SALE', amount: { value: '12.50', currency: 'MYR' }, emvData },
      { 'idempotency-key': randomUUID() },
    );
  }

  function expectRefusedAsDisabled(response: { status: number; body: unknown }, profileId: string): void {
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400, detail: `profile ${profileId} is DISABLED` });
  }

  it("should refuse a decommissioned device's sale with 400 once its profile is DISABLED", async () => {
    const code = await newCode();
    const phone = await activate(code.activationCode);
    await gatewayShows(phone.profileId, 'ACTIVE');
    expect((await sale(phone)).status).toBe(201);

    expect((await pbo.delete(`/api/openapi/v1/device/${phone.deviceId}?deviceStatus=3`)).status).toBe(200);

    await gatewayShows(phone.profileId, 'DISABLED');
    expectRefusedAsDisabled(await sale(phone), phone.profileId);
  });

  it('should disable the profile of a deleted activation code', async () => {
    const code = await newCode();
    await gatewayShows(code.profileId, 'ACTIVE');

    expect((await pbo.delete(`/api/openapi/v1/device/CD-${code.activationCode}`)).status).toBe(200);

    await gatewayShows(code.profileId, 'DISABLED');
  });

  function expectRefusedAsEarlierActivation(response: { status: number; body: unknown }): void {
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ status: 401, detail: 'device token is of an earlier activation of this device; activate it again' });
  }

  it("should refuse the old phone's token with 401 once the idled device is activated again, and take the new phone's", async () => {
    const code = await newCode();
    const oldPhone = await activate(code.activationCode);
    await gatewayShows(oldPhone.profileId, 'ACTIVE');
    expect((await sale(oldPhone)).status).toBe(201);
    expect((await pbo.delete(`/api/openapi/v1/device/${oldPhone.deviceId}/idle`)).status).toBe(200);
    await gatewayShows(oldPhone.profileId, 'DISABLED');

    const newPhone = await activate(code.activationCode);
    await gatewayShows(newPhone.profileId, 'ACTIVE');

    expect(newPhone.profileId).toBe(oldPhone.profileId);
    expectRefusedAsEarlierActivation(await sale(oldPhone));
    expect((await sale(newPhone)).status).toBe(201);
  });

  it('should take any token of a profile pushed before activeSdkId, and only the current activation once the backfill pushed it again', async () => {
    const code = await newCode();
    const oldPhone = await activate(code.activationCode);
    expect((await pbo.delete(`/api/openapi/v1/device/${oldPhone.deviceId}/idle`)).status).toBe(200);
    await gatewayShows(oldPhone.profileId, 'DISABLED');
    const newPhone = await activate(code.activationCode);
    await gatewayShows(newPhone.profileId, 'ACTIVE');
    // As before activeSdkId: the gateway's profile names no activation (no sale has read it since
    // the push, so none is cached), and migration 1764100000000 marked the active device.
    await queryDatabase(app.database.url, 'UPDATE payment_gateway.profile SET active_sdk_id = NULL WHERE id = $1', [newPhone.profileId]);
    await queryDatabase(app.database.url, 'UPDATE merchant_management.device SET active_sdk_backfill = true WHERE device_id = $1', [newPhone.deviceId]);

    // The documented rule for such a profile: the token's profileId alone decides.
    expect((await sale(oldPhone)).status).toBe(201);
    expect((await sale(newPhone)).status).toBe(201);

    const backfill = app.app.get(ProfileSyncService);
    expect(await backfill.backfillActiveSdkIds()).toBe(1);
    await waitFor('the gateway to learn the current activation', async () => {
      const [row] = await queryDatabase<{ active_sdk_id: string | null }>(app.database.url, 'SELECT active_sdk_id FROM payment_gateway.profile WHERE id = $1', [newPhone.profileId]);
      return row.active_sdk_id === newPhone.deviceId;
    });
    expectRefusedAsEarlierActivation(await sale(oldPhone));
    expect((await sale(newPhone)).status).toBe(201);
    // Once: the mark is gone.
    expect(await backfill.backfillActiveSdkIds()).toBe(0);
  });

  it('should take sales exactly while the device is active, whatever the PBO does to it', async () => {
    const steps = fc.array(fc.constantFrom<Step>('logout', 'decommission', 'idle-and-reactivate'), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        const code = await newCode();
        let phone = await activate(code.activationCode);
        // Phones of earlier activations of the same code: their tokens never pay again.
        const earlier: Phone[] = [];
        let active = true;
        let decommissioned = false;
        for (const step of plan) {
          if (decommissioned) break;
          if (step === 'logout' && active) {
            expect((await pbo.delete(`/api/openapi/v1/device/${phone.deviceId}?deviceStatus=2`)).status).toBe(200);
            active = false;
          } else if (step === 'decommission') {
            expect((await pbo.delete(`/api/openapi/v1/device/${phone.deviceId}?deviceStatus=3`)).status).toBe(200);
            active = false;
            decommissioned = true;
          } else if (step === 'idle-and-reactivate') {
            expect((await pbo.delete(`/api/openapi/v1/device/${phone.deviceId}/idle`)).status).toBe(200);
            await gatewayShows(phone.profileId, 'DISABLED');
            expectRefusedAsDisabled(await sale(phone), phone.profileId);
            earlier.push(phone);
            phone = await activate(code.activationCode);
            active = true;
          }
          await gatewayShows(phone.profileId, active ? 'ACTIVE' : 'DISABLED');
          const response = await sale(phone);
          if (active) expect(response.status).toBe(201);
          else expectRefusedAsDisabled(response, phone.profileId);
          for (const old of earlier) expectRefusedAsEarlierActivation(await sale(old));
        }
      }),
      { numRuns: 6 },
    );
  });
});
