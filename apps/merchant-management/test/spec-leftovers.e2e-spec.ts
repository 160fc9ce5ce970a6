import { dataOf } from '@app/testing';
import fc from 'fast-check';
import { createCardAcquirer, createMerchant } from './factories';
import { createLegacyCardAcquirer, V2 } from './legacy-factories';
import { deviceScenarios, expectEnvelope, V1 } from './device-support';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Spec conformance left over in merchant-management (issue 14, class 12), over HTTP: what the
 * spec documents says a client may send, and what it then gets.
 */
describe('spec conformance (issue 14, class 12)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const { bind, createDevice, outboxOf } = deviceScenarios(() => app);

  describe("a blank enablerParams falls back to the group's list (spec 1, acquirer write fields)", () => {
    /** Lists that name no field: empty, white space, separators only. */
    const blank = fc.array(fc.constantFrom(' ', '\t', '\n', ',', ';'), { maxLength: 6 }).map((chars) => chars.join(''));
    const writes = fc.constantFrom('v1 create', 'v2 create', 'v1 update', 'v2 update');

    it("should take a blank list on create and update (v1 and legacy), show it as null and ask devices for the group's fields", async () => {
      await fc.assert(
        fc.asyncProperty(blank, writes, async (list, write) => {
          const pbo = await app.newPbo({ enablerParams: 'acqMid;acqTid' });
          const base = write.startsWith('v1') ? V1 : V2;
          let profileId: number;
          if (write === 'v1 create') {
            profileId = (await createCardAcquirer(pbo, ['01'], { enablerParams: list })).id;
          } else if (write === 'v2 create') {
            profileId = (await createLegacyCardAcquirer(pbo, ['01'], { enablerParams: list })).id;
          } else {
            profileId = (await createCardAcquirer(pbo, ['01'], { enablerParams: 'ownField' })).id;
            dataOf(await pbo.put(`${base}/acquirer/${profileId}`, { enablerParams: list }));
          }
          const shown = dataOf<{ records: { profileId: number; enablerParams: string | null }[] }>(await pbo.get(`${base}/acquirer?pageSize=-1`));
          expect(shown.records.find((record) => record.profileId === profileId)?.enablerParams).toBeNull();

          const merchant = await createMerchant(pbo, { country: 'MY' });
          await bind(pbo, merchant.mchId, profileId);
          expectEnvelope(await pbo.post(`${V1}/device`, { mchId: merchant.mchId }), 400, 10000, new RegExp(`^extParams\\.acquirers\\.${profileId}\\.acqMid is required`));
          const created = await createDevice(pbo, { mchId: merchant.mchId, extParams: { acquirers: { [profileId]: { acqMid: '000000000000001', acqTid: '00000001' } } } });
          const [upsert] = (await outboxOf(pbo)).map((row) => row.payload).filter((payload) => payload.profileId === created.profileId);
          expect(upsert.acceptances.map((acceptance) => [acceptance.primaryMid, acceptance.primaryTid])).toEqual([['000000000000001', '00000001']]);
        }),
        { numRuns: 8 },
      );
    });

    it('should still refuse a list that is not field names, naming enablerParams', async () => {
      const pbo = await app.newPbo();
      for (const list of ['acq-Mid', '1acqMid', 'acqMid,,acqTid', 'acqMid acqTid']) {
        expectEnvelope(await pbo.post(`${V1}/acquirer`, { profileName: `p-${list}`, currency: 'MYR', connMessageFormat: 'MOCK', methodList: '{}', emvList: '{}', enablerParams: list }), 400, 10000, /^enablerParams/);
      }
    });
  });
});
