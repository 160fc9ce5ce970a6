import {
  ApiClient,
  createCardAcquirer,
  createMerchant,
  envelopeData,
  expectSuccess,
  merchantManagementClient,
  queryDatabase,
  startTestApp,
  TestApp,
  unique,
  waitFor,
} from '@app/testing';
import { GATEWAY_PROFILE_OUTCOME_V1, GatewayProfileOutcomeV1 } from '@app/contracts';
import { InProcessTransport } from '@app/messaging';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { PboService } from '../apps/merchant-management/src';
import { StandaloneModule } from '../apps/standalone/src';

type Client = ReturnType<typeof merchantManagementClient>;

interface Pbo {
  api: ApiClient;
  mm: Client;
  groupId: string;
  mchId: string;
  acquirerId: number;
}

interface Code {
  id: string;
  activationCode: string;
  profileId: string;
}

interface ProfileSync {
  state: 'PENDING' | 'APPLIED' | 'REJECTED';
  version: number;
  reason: string | null;
  decidedAt: string | null;
}

/** Which acceptance field a device's extParams sets, and the gateway contract's limit (GATEWAY_PROFILE_LIMITS). */
const MID_TID_FIELDS = { acqMid: 'primaryMid', acqTid: 'primaryTid' } as const;

/**
 * A device whose gateway profile could not be pushed says so, and the PBO can list and replay it
 * (issue 14, class 4), in standalone over HTTP as a PBO and a phone see it. The edge refuses what
 * the gateway's contract would (test/profile-limits); these tests put refused data where only a
 * path around the edge (data stored before the edge checked it) or a gateway-side refusal can.
 */
describe('profile sync state of devices', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp((options) => StandaloneModule.register(options));
  });

  afterAll(() => app?.close());

  /** A fresh PBO with a VISA acquirer bound to a merchant: its lists hold only what the test makes. */
  async function newPbo(): Promise<Pbo> {
    const created = await app.app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur' });
    const api = await app.clientFor(created.groupId);
    const acquirer = await createCardAcquirer(api, ['01'], { profileName: unique('Acquirer '), enablerMsgFormat: 'MOCK' });
    const merchant = await createMerchant(api);
    const mm = merchantManagementClient(api);
    expectSuccess(await mm.POST('/api/openapi/v1/mchInfo/payment/{mchId}', { params: { path: { mchId: merchant.mchId } }, body: { acquirerProfileId: String(acquirer.id), currency: 'MYR' } }));
    return { api, mm, groupId: created.groupId, mchId: merchant.mchId, acquirerId: acquirer.id };
  }

  async function newCode(pbo: Pbo, mid = 'MID000000000042', tid = 'T0000042'): Promise<Code> {
    const created = envelopeData(
      await pbo.mm.POST('/api/openapi/v1/device', {
        body: { mchId: pbo.mchId, deviceAlias: unique('Till '), extParams: { acquirers: { [pbo.acquirerId]: { acqMid: mid, acqTid: tid } } } } as never,
      }),
    );
    if (!created.profileId) throw new Error('the device got no profile');
    return { id: created.id, activationCode: created.activationCode, profileId: created.profileId };
  }

  async function syncOf(pbo: Pbo, deviceId: string): Promise<ProfileSync | null> {
    const device = envelopeData(await pbo.mm.GET('/api/openapi/v1/device/{deviceId}', { params: { path: { deviceId } } }));
    if (!device) throw new Error(`device ${deviceId} is gone`);
    return device.profileSync;
  }

  /** Waits until the device shows `state` (outcomes travel back through the gateway's outbox) and answers its sync. */
  async function settles(pbo: Pbo, deviceId: string, state: ProfileSync['state']): Promise<ProfileSync> {
    let sync: ProfileSync | null = null;
    await waitFor(`device ${deviceId} profile ${state}`, async () => (sync = await syncOf(pbo, deviceId))?.state === state, 15_000).catch((error: Error) => {
      throw new Error(`${error.message}; it shows ${JSON.stringify(sync)}`);
    });
    return sync as unknown as ProfileSync;
  }

  /** Writes `value` into the stored extParams of a device, as data stored before the edge checked it would be. */
  async function storeExtParam(pbo: Pbo, code: Code, field: keyof typeof MID_TID_FIELDS, value: string): Promise<void> {
    await queryDatabase(
      app.database.url,
      `UPDATE merchant_management.device SET ext_params = jsonb_set(ext_params, ARRAY['acquirers', $2, $3], to_jsonb($4::text)) WHERE profile_id = $1`,
      [code.profileId, String(pbo.acquirerId), field, value],
    );
  }

  async function replay(pbo: Pbo, deviceId: string) {
    return pbo.mm.POST('/api/openapi/v1/profileSync/{deviceId}/replay', { params: { path: { deviceId } } });
  }

  async function listed(pbo: Pbo, query: { state?: 'PENDING' | 'REJECTED'; mchId?: string } = {}) {
    return envelopeData(await pbo.mm.GET('/api/openapi/v1/profileSync', { params: { query: { pageSize: -1, ...query } } }));
  }

  async function gatewayVersion(profileId: string): Promise<number | undefined> {
    const rows = await queryDatabase<{ version: number }>(app.database.url, 'SELECT version FROM payment_gateway.profile WHERE id = $1', [profileId]);
    return rows[0]?.version;
  }

  async function activate(activationCode: string) {
    return merchantManagementClient(app.anonymous).POST('/api/sdk/v1/activate', { body: { activationCode } });
  }

  it("should answer an unknown device's GET with data null, as the committed document says under OpenAPI 3.0.3 read strictly", async () => {
    const pbo = await newPbo();
    // The typed client fails the call when the answer does not validate (libs/testing openapi-client.ts).
    const result = await pbo.mm.GET('/api/openapi/v1/device/{deviceId}', { params: { path: { deviceId: '000000000000' } } });
    expect(result.response.status).toBe(200);
    expect(result.data).toEqual({ code: 0, msg: 'SUCCESS', data: null });
  });

  it('should show a new device APPLIED once the gateway stored its profile, and list nothing for the PBO', async () => {
    const pbo = await newPbo();
    const code = await newCode(pbo);

    const sync = await settles(pbo, code.id, 'APPLIED');

    expect(sync).toEqual({ state: 'APPLIED', version: 1, reason: null, decidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/) });
    expect(await listed(pbo)).toEqual({ total: 0, current: 1, hasNext: false, records: [] });
  });

  it('should show REJECTED with the reason any MID or TID the gateway refuses, refuse activation, then apply it after the fix and a replay', async () => {
    const pbo = await newPbo();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<keyof typeof MID_TID_FIELDS>('acqMid', 'acqTid'),
        fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), minLength: 33, maxLength: 64 }),
        async (field, refused) => {
          const code = await newCode(pbo);
          await settles(pbo, code.id, 'APPLIED');
          await storeExtParam(pbo, code, field, refused);

          const replayed = envelopeData(await replay(pbo, code.id));
          expect(replayed).toMatchObject({ deviceId: code.id, mchId: pbo.mchId, profileId: code.profileId, profileSync: { state: 'PENDING', version: 2, reason: null } });

          const rejected = await settles(pbo, code.id, 'REJECTED');
          expect(rejected).toMatchObject({ state: 'REJECTED', version: 2 });
          expect(rejected.reason).toContain(`acceptances[0].${MID_TID_FIELDS[field]}`);
          expect(rejected.reason).toContain('32');
          // The gateway kept what it had.
          expect(await gatewayVersion(code.profileId)).toBe(1);
          const listedRejected = await listed(pbo, { state: 'REJECTED' });
          expect(listedRejected.records.find((record) => record.profileId === code.profileId)).toEqual({
            deviceId: code.id,
            uuid: expect.any(String),
            mchId: pbo.mchId,
            groupId: pbo.groupId,
            deviceType: null,
            deviceStatus: 0,
            deviceUpdate: 0,
            profileId: code.profileId,
            profileSync: rejected,
          });
          const refusedActivation = await activate(code.activationCode);
          expect(refusedActivation.response.status).toBe(409);
          expect(refusedActivation.error).toMatchObject({ code: 10000, msg: expect.stringContaining('refused by the payment gateway') });

          await storeExtParam(pbo, code, field, field === 'acqMid' ? 'MID000000000043' : 'T0000043');
          envelopeData(await replay(pbo, code.id));
          expect(await settles(pbo, code.id, 'APPLIED')).toMatchObject({ version: 3, reason: null });
          expect(await gatewayVersion(code.profileId)).toBe(3);
          expect((await listed(pbo)).records.map((record) => record.profileId)).not.toContain(code.profileId);
          expect(envelopeData(await activate(code.activationCode))).toMatchObject({ profileId: code.profileId });
        },
      ),
      { numRuns: 6 },
    );
  });

  it("should show REJECTED a profile the gateway holds for another group, without naming that group, and APPLIED once the cause is gone", async () => {
    const pbo = await newPbo();
    const code = await newCode(pbo);
    await settles(pbo, code.id, 'APPLIED');
    const holder = `grp_${unique('holder').replace(/[^A-Za-z0-9]/g, '')}`;
    await queryDatabase(app.database.url, 'UPDATE payment_gateway.profile SET group_id = $2 WHERE id = $1', [code.profileId, holder]);

    envelopeData(await replay(pbo, code.id));
    const rejected = await settles(pbo, code.id, 'REJECTED');

    expect(rejected.reason).toBe(`profile ${code.profileId} belongs to another group`);
    expect(JSON.stringify(await listed(pbo))).not.toContain(holder);
    await queryDatabase(app.database.url, 'UPDATE payment_gateway.profile SET group_id = $2 WHERE id = $1', [code.profileId, pbo.groupId]);
    envelopeData(await replay(pbo, code.id));
    expect(await settles(pbo, code.id, 'APPLIED')).toMatchObject({ version: 3 });
  });

  it('should replay every REJECTED device of the PBO at once, and only those the filter names', async () => {
    const pbo = await newPbo();
    const codes = [await newCode(pbo), await newCode(pbo), await newCode(pbo)];
    for (const code of codes) await settles(pbo, code.id, 'APPLIED');
    for (const code of codes.slice(0, 2)) {
      await storeExtParam(pbo, code, 'acqTid', 'T'.repeat(40));
      envelopeData(await replay(pbo, code.id));
      await settles(pbo, code.id, 'REJECTED');
    }
    expect((await listed(pbo, { state: 'REJECTED' })).total).toBe(2);
    expect((await listed(pbo, { mchId: 'NOSUCHMERCHANT' })).total).toBe(0);

    for (const code of codes.slice(0, 2)) await storeExtParam(pbo, code, 'acqTid', 'T0000044');
    expect(envelopeData(await pbo.mm.POST('/api/openapi/v1/profileSync/replay', { body: { state: 'REJECTED' } }))).toEqual({ replayed: 2 });

    for (const code of codes.slice(0, 2)) expect(await settles(pbo, code.id, 'APPLIED')).toMatchObject({ version: 3 });
    // The APPLIED one was not pushed again.
    expect(await syncOf(pbo, codes[2].id)).toMatchObject({ state: 'APPLIED', version: 1 });
    expect(await listed(pbo)).toMatchObject({ total: 0, records: [] });
  });

  it("should neither list nor replay another PBO's device: its ids answer as unknown ones", async () => {
    const owner = await newPbo();
    const other = await newPbo();
    const code = await newCode(owner);
    await settles(owner, code.id, 'APPLIED');
    await storeExtParam(owner, code, 'acqMid', 'M'.repeat(33));
    envelopeData(await replay(owner, code.id));
    await settles(owner, code.id, 'REJECTED');
    const phone = envelopeData(await activate((await newCode(owner)).activationCode));

    expect((await listed(other)).records).toEqual([]);
    const unknown = await replay(other, 'CD-000000000000');
    expect(unknown.response.status).toBe(404);
    for (const id of [code.id, code.activationCode, phone.deviceId]) {
      const answer = await replay(other, id);
      expect({ status: answer.response.status, code: (answer.error as { code: number }).code }).toEqual({ status: 404, code: 14000 });
      expect((answer.error as { msg: string }).msg).toBe(`device ${id} does not exist`);
    }
    expect(envelopeData(await other.mm.POST('/api/openapi/v1/profileSync/replay', { body: {} }))).toEqual({ replayed: 0 });
    // Nothing was pushed for the owner's device.
    expect(await syncOf(owner, code.id)).toMatchObject({ state: 'REJECTED', version: 2 });
  });

  it('should refuse a list or replay filter it does not know with 400 naming the field', async () => {
    const pbo = await newPbo();
    const badState = await pbo.api.get('/api/openapi/v1/profileSync?state=APPLIED');
    expect(badState.status).toBe(400);
    expect(badState.body).toMatchObject({ code: 10000, msg: expect.stringContaining('state') });
    const unknownField = await pbo.api.post('/api/openapi/v1/profileSync/replay', { everything: true });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body).toMatchObject({ code: 10000, msg: expect.stringContaining('everything') });
    // No body at all: a body is an object, as on every other POST ({} replays everything).
    const noBody = await pbo.api.request('POST', '/api/openapi/v1/profileSync/replay');
    expect({ status: noBody.status, body: noBody.body }).toEqual({ status: 400, body: { code: 10000, msg: 'request body must be a JSON object' } });
  });

  it('should answer 409 to the replay of a device that has no gateway profile', async () => {
    const pbo = await newPbo();
    // MASTERCARD only: no acquirer of the merchant matches, so nothing is pushed.
    const created = envelopeData(await pbo.mm.POST('/api/openapi/v1/device', { body: { mchId: pbo.mchId, methodList: '02' } as never }));
    expect(created.profileId).toBeNull();
    expect(await syncOf(pbo, created.id)).toBeNull();

    const answer = await replay(pbo, created.id);
    expect(answer.response.status).toBe(409);
    expect(answer.error).toMatchObject({ code: 10000 });
  });

  it("should keep the outcome of the latest version, whatever order the gateway's outcomes arrive in, and ignore one naming another group", async () => {
    const pbo = await newPbo();
    const transport = app.app.get(InProcessTransport);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 6 }),
        fc.array(fc.record({ version: fc.integer({ min: 1, max: 8 }), outcome: fc.constantFrom<'APPLIED' | 'REJECTED'>('APPLIED', 'REJECTED'), foreign: fc.boolean() }), {
          minLength: 1,
          maxLength: 10,
        }),
        async (pushed, arriving) => {
          const code = await newCode(pbo);
          await settles(pbo, code.id, 'APPLIED');
          // As if the device had been pushed `pushed` times in all (the gateway's own outcomes of those never come).
          await queryDatabase(app.database.url, 'UPDATE merchant_management.device SET profile_version = $2 WHERE profile_id = $1', [code.profileId, pushed]);
          for (const { version, outcome, foreign } of arriving) {
            const payload: GatewayProfileOutcomeV1 = {
              profileId: code.profileId,
              version,
              groupId: foreign ? `grp_${randomUUID().slice(0, 8)}` : pbo.groupId,
              outcome,
              reason: outcome === 'REJECTED' ? `refused v${version}` : null,
              decidedAt: new Date().toISOString(),
            };
            await transport.publish(GATEWAY_PROFILE_OUTCOME_V1, payload, { msgId: randomUUID() });
          }
          await transport.idle();

          // Only forward, never past the latest push, and only the PBO's own: the highest such version wins.
          const own = arriving.filter((each) => !each.foreign && each.version <= pushed);
          const highest = Math.max(1, ...own.map((each) => each.version));
          const latest = own.filter((each) => each.version === highest).at(0);
          const expected =
            highest < pushed
              ? { state: 'PENDING', version: pushed, reason: null }
              : { state: latest!.outcome, version: pushed, reason: latest!.outcome === 'REJECTED' ? `refused v${highest}` : null };
          expect(await syncOf(pbo, code.id)).toMatchObject(expected);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('should show PENDING a device whose push has no outcome yet, and list it', async () => {
    const pbo = await newPbo();
    const code = await newCode(pbo);
    await settles(pbo, code.id, 'APPLIED');
    // As a device would look after the gateway missed its latest push.
    await queryDatabase(app.database.url, 'UPDATE merchant_management.device SET profile_version = profile_version + 1 WHERE profile_id = $1', [code.profileId]);

    expect(await syncOf(pbo, code.id)).toEqual({ state: 'PENDING', version: 2, reason: null, decidedAt: null });
    expect((await listed(pbo, { state: 'PENDING' })).records.map((record) => record.profileId)).toEqual([code.profileId]);
    expect((await listed(pbo, { state: 'REJECTED' })).total).toBe(0);
    envelopeData(await replay(pbo, code.id));
    expect(await settles(pbo, code.id, 'APPLIED')).toMatchObject({ version: 3 });
  });
});
