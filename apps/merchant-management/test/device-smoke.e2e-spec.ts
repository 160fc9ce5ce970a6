import { queryDatabase } from '@app/testing';
import { createCardAcquirer, createMerchant } from './factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

describe('devices (smoke)', () => {
  let app: MerchantManagementTestApp;
  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  it('should create, read, activate and pull config of a device', async () => {
    const pbo = await app.newPbo();
    const acquirer = await createCardAcquirer(pbo, ['01', '02'], { asDefault: true, enablerParams: 'acqMid,acqTid' });
    const merchant = await createMerchant(pbo, { country: 'MY' });
    const created = dataOf<{ id: string; activationCode: string; profileId: string }>(
      await pbo.post('/api/openapi/v1/device', { mchId: merchant.mchId, deviceAlias: 'Till 1', extParams: { acquirers: { [acquirer.id]: { acqMid: 'M1', acqTid: 'T1' } } } }),
    );
    expect(created.id).toBe(`CD-${created.activationCode}`);
    expect(created.profileId).toMatch(/^prof_/);
    const outbox = await queryDatabase<{ subject: string; payload: { acceptances: unknown[] } }>(app.database.url, 'SELECT subject, payload FROM merchant_management.outbox');
    expect(outbox).toHaveLength(1);
    expect(outbox[0].payload.acceptances).toEqual([
      { acptName: expect.any(String), hostMessageFormat: 'MOCK', supportedPayments: ['VISA', 'MASTERCARD'], primaryMid: 'M1', primaryTid: 'T1', extraParams: { connUrl: 'tcp://127.0.0.1:5000' } },
    ]);
    const device = dataOf<{ deviceId: string; deviceStatus: number; isDevice?: boolean }>(await pbo.get(`/api/openapi/v1/device/${created.id}`));
    expect(device).toMatchObject({ deviceId: created.id, deviceStatus: 0 });
    expect(device.isDevice).toBeUndefined();
    const activation = dataOf<{ deviceId: string; deviceToken: string; emvAID: unknown[]; emvParams: Record<string, string> }>(
      await app.anonymous.post('/api/sdk/v1/activate', { activationCode: created.activationCode, deviceInfo: { model: 'Pixel' } }),
    );
    expect(activation.emvAID).toHaveLength(2);
    expect(activation.emvParams.terminalCountryCode).toBe('0458');
    const again = await app.anonymous.post('/api/sdk/v1/activate', { activationCode: created.activationCode });
    expect(again.body.code).toBe(10000);
    const config = await fetch(`${app.baseUrl}/api/sdk/v1/config`, { headers: { authorization: `Bearer ${activation.deviceToken}` } });
    expect(((await config.json()) as { data: { profileId: string } }).data.profileId).toBe(created.profileId);
    const del = await pbo.delete(`/api/openapi/v1/mchInfo/${merchant.mchId}`);
    expect(del.status).toBe(409);
    const mail = await pbo.post('/api/openapi/v1/device/code', { deviceId: created.id, email: 'x@example.com' });
    expect(mail.status).toBe(409);
  });
});
