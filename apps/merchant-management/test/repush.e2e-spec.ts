import { queryDatabase } from '@app/testing';
import { createCardAcquirer, createMerchant } from './factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

interface Upsert {
  profileId: string;
  version: number;
  merchantName: string;
  activeSdkId?: string;
  acceptances: { acptName: string; supportedPayments: string[]; extraParams: Record<string, unknown> }[];
}

describe('re-push of activation profiles on payment-config changes (flow 3)', () => {
  let app: MerchantManagementTestApp;
  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  async function upserts(profileId: string): Promise<Upsert[]> {
    const rows = await queryDatabase<{ payload: Upsert }>(
      app.database.url,
      `SELECT payload FROM merchant_management.outbox WHERE subject = 'gateway.profile.upsert.v1' AND payload->>'profileId' = $1 ORDER BY (payload->>'version')::int`,
      [profileId],
    );
    return rows.map((row) => row.payload);
  }

  async function setup() {
    const pbo = await app.newPbo();
    const visa = await createCardAcquirer(pbo, ['01'], { profileName: 'Acquirer A' });
    const master = await createCardAcquirer(pbo, ['02'], { profileName: 'Acquirer B' });
    const merchant = await createMerchant(pbo);
    dataOf(await pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(visa.id), currency: 'MYR' }));
    const code = dataOf<{ id: string; activationCode: string; profileId: string }>(await pbo.post('/api/openapi/v1/device', { mchId: merchant.mchId }));
    return { pbo, visa, master, merchant, code };
  }

  it('should push a second acceptance with the next version when a second acquirer is bound', async () => {
    const { pbo, master, merchant, code } = await setup();
    dataOf(await pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(master.id), currency: 'MYR' }));
    const pushed = await upserts(code.profileId);
    expect(pushed.map((p) => p.version)).toEqual([1, 2]);
    expect(pushed[1].acceptances.map((a) => [a.acptName, a.supportedPayments])).toEqual([
      ['Acquirer A', ['VISA']],
      ['Acquirer B', ['MASTERCARD']],
    ]);
  });

  it('should push the remaining acceptances when a binding is deleted, and an empty list when none remains', async () => {
    const { pbo, visa, master, merchant, code } = await setup();
    dataOf(await pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(master.id), currency: 'MYR' }));
    dataOf(await pbo.delete(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}?acquirerProfileId=${visa.id}&currency=MYR`));
    dataOf(await pbo.delete(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}?acquirerProfileId=${master.id}&currency=MYR`));
    const pushed = await upserts(code.profileId);
    expect(pushed.map((p) => p.version)).toEqual([1, 2, 3, 4]);
    expect(pushed[2].acceptances.map((a) => a.acptName)).toEqual(['Acquirer B']);
    expect(pushed[3].acceptances).toEqual([]);
  });

  it('should not push when a change leaves the acceptances as they were', async () => {
    const { pbo, visa, merchant, code } = await setup();
    dataOf(await pbo.put(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(visa.id), currency: 'MYR' }));
    expect((await upserts(code.profileId)).map((p) => p.version)).toEqual([1]);
  });

  it("should push the acquirer profile's acqInstId and subMchDba to its devices when its connExtraParams change, and nothing else of them", async () => {
    const { pbo, visa, code } = await setup();
    dataOf(await pbo.put(`/api/openapi/v1/acquirer/${visa.id}`, { connExtraParams: JSON.stringify({ acqInstId: '60012345', subMchDba: 'Kopi Stall', apiKey: 'secret' }) }));
    dataOf(await pbo.put(`/api/openapi/v1/acquirer/${visa.id}`, { connExtraParams: JSON.stringify({ apiKey: 'secret' }) }));
    const pushed = await upserts(code.profileId);
    expect(pushed.map((p) => [p.version, p.acceptances.map((a) => a.extraParams)])).toEqual([
      [1, [{}]],
      [2, [{ acqInstId: '60012345', subMchDba: 'Kopi Stall' }]],
      [3, [{}]],
    ]);
  });

  it("should push the merchant's new name to its devices' profiles", async () => {
    const { pbo, merchant, code } = await setup();
    dataOf(await pbo.put(`/api/openapi/v1/mchInfo/${merchant.mchId}`, { mchName: 'Renamed Kedai', currency: 'MYR', contactName: 'A', contactEmail: 'a@example.com' }));
    const pushed = await upserts(code.profileId);
    expect(pushed.map((p) => [p.version, p.merchantName])).toEqual([
      [1, merchant.mchName],
      [2, 'Renamed Kedai'],
    ]);
  });

  it('should push when the acquirer profile changes its host format, and flag an activated device for a config pull', async () => {
    const { pbo, visa, code } = await setup();
    const activation = dataOf<{ deviceId: string }>(await app.anonymous.post('/api/sdk/v1/activate', { activationCode: code.activationCode }));
    dataOf(await pbo.put(`/api/openapi/v1/acquirer/${visa.id}`, { enablerMsgFormat: 'ISO8583' }));
    const pushed = await upserts(code.profileId);
    // Created, activated (the gateway learns whose token pays), then re-pushed.
    expect(pushed.map((p) => [p.version, p.activeSdkId])).toEqual([
      [1, undefined],
      [2, activation.deviceId],
      [3, activation.deviceId],
    ]);
    expect(pushed[2].acceptances[0]).toMatchObject({ hostMessageFormat: 'ISO8583' });
    expect(dataOf<{ deviceUpdate: number }>(await pbo.get(`/api/openapi/v1/device/${activation.deviceId}`)).deviceUpdate).toBe(1);
  });

  it('should give a device created while bindings change the acceptances of the final bindings', async () => {
    const pbo = await app.newPbo();
    const acquirers = [await createCardAcquirer(pbo, ['01']), await createCardAcquirer(pbo, ['02']), await createCardAcquirer(pbo, ['03'])];
    const merchant = await createMerchant(pbo);
    const [created] = await Promise.all([
      pbo.post('/api/openapi/v1/device', { mchId: merchant.mchId }),
      ...acquirers.map((acquirer) => pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirer.id), currency: 'MYR' })),
    ]);
    const code = dataOf<{ id: string }>(created as Parameters<typeof dataOf<{ id: string }>>[0]);
    const device = dataOf<{ methodList: string; profileId: string }>(await pbo.get(`/api/openapi/v1/device/${code.id}`));
    expect(Object.keys(JSON.parse(device.methodList) as object).sort()).toEqual(['01', '02', '03']);
    // Created before any binding, the device got its profile id from the first re-push.
    const pushed = await upserts(device.profileId);
    expect(pushed[pushed.length - 1].acceptances).toHaveLength(3);
  });
});
