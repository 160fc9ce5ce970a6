import { decodeContract, GATEWAY_PROFILE_LIMITS, GatewayProfileUpsertV1 } from '@app/contracts';
import { EnvelopeBody, HttpResponse, queryDatabase } from '@app/testing';
import fc from 'fast-check';
import { acquirerBody, createCardAcquirer, createEmv, createMerchant, dataOf } from './factories';
import { MerchantManagementTestApp, startMerchantManagement } from './support';
import { Body, CreatedCode, expectEnvelope, Pbo, V1 } from './device-support';

/**
 * Accepted, then lost (issue 14, class 4): every text merchant-management puts in a gateway
 * profile upsert is checked at its API with the upsert contract's own limits
 * (GATEWAY_PROFILE_LIMITS), so what it answers 200 for is what the gateway takes. Lengths are
 * drawn around each limit; every upsert queued is decoded with the contract.
 */

type Case = { field: string; limit: number; send: (pbo: Pbo, text: string) => Promise<HttpResponse<EnvelopeBody>> };

describe('merchant-management: what reaches a gateway profile is refused at the edge when the gateway would refuse it', () => {
  let app: MerchantManagementTestApp;
  let pbo: Pbo;
  let mchId: string;
  let deviceId: string;
  let acquirerId: number;

  beforeAll(async () => {
    app = await startMerchantManagement();
    pbo = await app.newPbo();
    const acquirer = await createCardAcquirer(pbo, ['01']);
    acquirerId = acquirer.id;
    mchId = (await createMerchant(pbo)).mchId;
    dataOf(await pbo.post(`${V1}/mchInfo/payment/${mchId}`, { acquirerProfileId: String(acquirer.id), currency: 'MYR' }));
    deviceId = dataOf<CreatedCode>(await pbo.post(`${V1}/device`, { mchId })).id;
  });

  afterAll(() => app.close());

  const merchant = (fields: Body) => ({ mchName: 'Kedai', currency: 'MYR', contactName: 'Aisyah', contactEmail: 'aisyah@example.com', ...fields });
  const cases: Case[] = [
    { field: 'deviceAlias', limit: GATEWAY_PROFILE_LIMITS.profileName, send: (p, text) => p.post(`${V1}/device`, { mchId, deviceAlias: text }) },
    { field: 'deviceName', limit: GATEWAY_PROFILE_LIMITS.profileName, send: (p, text) => p.post(`${V1}/device`, { mchId, deviceName: text }) },
    { field: 'deviceAlias', limit: GATEWAY_PROFILE_LIMITS.profileName, send: (p, text) => p.put(`${V1}/device/${deviceId}`, { deviceAlias: text }) },
    { field: 'deviceName', limit: GATEWAY_PROFILE_LIMITS.profileName, send: (p, text) => p.put(`${V1}/device/${deviceId}`, { deviceName: text }) },
    {
      field: 'activateCodeAlias',
      limit: GATEWAY_PROFILE_LIMITS.profileName,
      send: (p, text) => p.post('/api/v2/device', { mchId, activateCodeAlias: text, deviceType: 'COTS' }),
    },
    {
      field: 'activateCodeAlias',
      limit: GATEWAY_PROFILE_LIMITS.profileName,
      send: (p, text) => p.put(`/api/v2/device/${deviceId}`, { activateCodeAlias: text }),
    },
    { field: 'mchName', limit: GATEWAY_PROFILE_LIMITS.merchantName, send: (p, text) => p.put(`${V1}/mchInfo/${mchId}`, merchant({ mchName: text })) },
    { field: 'mchName', limit: GATEWAY_PROFILE_LIMITS.merchantName, send: (p, text) => p.put(`/api/v2/mchInfo/${mchId}`, { mchName: text }) },
    {
      field: 'contactAddress',
      limit: GATEWAY_PROFILE_LIMITS.merchantAddr,
      send: (p, text) => p.put(`${V1}/mchInfo/${mchId}`, merchant({ contactAddress: text })),
    },
    { field: 'profileName', limit: GATEWAY_PROFILE_LIMITS.acptName, send: (p, text) => p.put(`${V1}/acquirer/${acquirerId}`, { profileName: text }) },
    { field: 'profileName', limit: GATEWAY_PROFILE_LIMITS.acptName, send: (p, text) => p.put(`/api/v2/acquirer/${acquirerId}`, { profileName: text }) },
  ];

  let sent = 0;
  const upserts = () =>
    queryDatabase<{ payload: unknown }>(
      app.database.url,
      `SELECT payload FROM merchant_management.outbox WHERE subject = 'gateway.profile.upsert.v1' AND payload->>'groupId' = $1`,
      [pbo.groupId],
    );

  it('should take a text up to the contract limit and refuse an empty one or one beyond, naming the field, and queue only upserts the contract takes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), fc.integer({ min: -3, max: 40 }), fc.boolean(), async (testCase, offset, over) => {
        const length = over ? testCase.limit + 1 + Math.abs(offset) : Math.max(0, testCase.limit - Math.abs(offset) * 3);
        // Unique per run (acquirer profile names must be), of exactly `length` characters.
        const text = length === 0 ? '' : `${++sent}-`.padEnd(length, 'x').slice(0, length);

        const response = await testCase.send(pbo, text);

        if (length === 0) expectEnvelope(response, 400, 10000, new RegExp(`^${testCase.field} should not be empty$`));
        else if (length > testCase.limit)
          expectEnvelope(response, 400, 10000, new RegExp(`^${testCase.field} must be shorter than or equal to ${testCase.limit} characters$`));
        else expectEnvelope(response, 200, 0);
        for (const { payload } of await upserts()) expect(() => decodeContract(GatewayProfileUpsertV1, payload)).not.toThrow();
      }),
      { numRuns: 60 },
    );
  });

  it('should refuse an empty or over-long acquirer profile name at create too (the acceptance name)', async () => {
    const emvId = await createEmv(pbo);
    expectEnvelope(await pbo.post(`${V1}/acquirer`, acquirerBody({ '01': [emvId] }, { profileName: '' })), 400, 10000, /^profileName should not be empty$/);
    expectEnvelope(
      await pbo.post(`${V1}/acquirer`, acquirerBody({ '01': [emvId] }, { profileName: 'p'.repeat(GATEWAY_PROFILE_LIMITS.acptName + 1) })),
      400,
      10000,
      new RegExp(`^profileName must be shorter than or equal to ${GATEWAY_PROFILE_LIMITS.acptName} characters$`),
    );
  });
});
