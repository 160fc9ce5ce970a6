import { ApiClient } from '@app/testing';
import { createLegacyAcquirer, createLegacyDevice, createLegacyEmv, createLegacyMerchant, LegacyDevice, LegacyMerchant, V2 } from './legacy-factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Rules every legacy route shares: the bearer token (HTTP 401 with the envelope), and one truth
 * with v1 along the legacy quickstart (owner, EMV, acquirer, merchant, activation code).
 */

const V1 = '/api/openapi/v1';

interface Page<T> {
  total: number;
  records: T[];
}

/** Every legacy merchant-management route, with a body where it takes one. */
const ROUTES: [method: string, path: string, body?: Record<string, unknown>][] = [
  ['GET', '/current'],
  ['POST', '/current'],
  ['GET', '/mchInfo'],
  ['POST', '/mchInfo', { mchName: 'x', contactName: 'x', contactEmail: 'x@example.com' }],
  ['GET', '/mchInfo/123456789012345'],
  ['PUT', '/mchInfo/123456789012345', { mchName: 'x' }],
  ['DELETE', '/mchInfo/123456789012345'],
  ['DELETE', '/mchInfo/payment/123456789012345/01'],
  ['GET', '/device?mchId=123456789012345'],
  ['POST', '/device', { mchId: '123456789012345', activateCodeAlias: 'x', deviceType: 'COTS' }],
  ['PUT', '/device/CD-123456789012', { activateCodeAlias: 'x' }],
  ['DELETE', '/device/CD-123456789012'],
  ['GET', '/emv'],
  ['POST', '/emv', { emvName: 'x', paymentMethod: '01', params: { aid: 'A0000000031010' } }],
  ['PUT', '/emv/1', { emvName: 'x', paymentMethod: '01', params: { aid: 'A0000000031010' } }],
  ['DELETE', '/emv/1'],
  ['GET', '/acquirer'],
  ['POST', '/acquirer', { profileName: 'x', currency: 'MYR', connMessageFormat: 'MOCK', methodList: { '01': [] }, emvList: { '01': [1] } }],
  ['PUT', '/acquirer/1', { profileName: 'x' }],
  ['DELETE', '/acquirer/1'],
];

describe('legacy /api/v2 rules', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  for (const [method, path, body] of ROUTES) {
    it(`should refuse ${method} /api/v2${path} without a token with HTTP 401 and the envelope`, async () => {
      const response = await app.anonymous.request(method, `${V2}${path}`, body);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 11000, msg: 'missing bearer token', data: 401 });
    });

    it(`should refuse ${method} /api/v2${path} with a wrongly signed token with HTTP 401 and the envelope`, async () => {
      const token = (await app.clientFor('whoever')).token!;
      const forged = `${token.slice(0, token.lastIndexOf('.') + 1)}${'A'.repeat(43)}`;
      const response = await new ApiClient(app.baseUrl, forged).request(method, `${V2}${path}`, body);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 11000, msg: expect.any(String), data: 401 });
    });
  }

  it('should run the legacy quickstart and show the same objects through v1', async () => {
    const pbo = await app.newPbo();
    const owner = dataOf<{ groupId: string }>(await pbo.post(`${V2}/current`));
    expect(owner.groupId).toBe(pbo.groupId);

    const emvId = await createLegacyEmv(pbo, { groupId: owner.groupId });
    const profileId = await createLegacyAcquirer(pbo, { '01': [emvId] }, { groupId: owner.groupId, asDefault: true });
    const merchant = await createLegacyMerchant(pbo, { groupId: owner.groupId, currency: undefined, providerReference: 'quickstart-1' });
    expect(merchant).toMatchObject({ currency: 'MYR', supportedPaymentMethods: [{ paymentMethod: 'VISA', profileId }] });

    const code = await createLegacyDevice(pbo, merchant.mchId, { groupId: owner.groupId, extParams: { acqMid: '000000000000001', acqTid: '00000001' } });
    const activation = dataOf<{ deviceId: string; profileId: string }>(
      await app.anonymous.post('/api/sdk/v1/activate', { activationCode: code.activationCode }),
    );

    const v1Merchants = dataOf<Page<{ mchId: string; supportedPayments: string[] }>>(await pbo.get(`${V1}/mchInfo?pageSize=-1`));
    expect(v1Merchants.records.map((m) => [m.mchId, m.supportedPayments])).toEqual([[merchant.mchId, ['01']]]);
    const v1Device = dataOf<{ deviceId: string; profileId: string; methodList: string }>(await pbo.get(`${V1}/device/${activation.deviceId}`));
    expect(v1Device).toMatchObject({ deviceId: activation.deviceId, profileId: activation.profileId });
    expect(JSON.parse(v1Device.methodList)).toEqual({ '01': { mid: '000000000000001', tid: '00000001' } });

    const [legacyDevice] = dataOf<Page<LegacyDevice>>(await pbo.get(`${V2}/device?mchId=${merchant.mchId}`)).records;
    expect(legacyDevice).toMatchObject({ deviceId: activation.deviceId, isDevice: true, extParams: { acqMid: '000000000000001', acqTid: '00000001' } });
    const [legacyMerchant] = dataOf<Page<LegacyMerchant>>(await pbo.get(`${V2}/mchInfo`)).records;
    expect(legacyMerchant.mchId).toBe(merchant.mchId);
  });
});
