import { DEAD_LETTER_HEADERS } from '@app/messaging/consumer';
import { InProcessMessage, InProcessTransport } from '@app/messaging';
import { queryDatabase } from '@app/testing';
import { GATEWAY_PROFILE_UPSERT_V1 } from '@app/contracts';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { PROFILE_UPSERT_DEAD_LETTER_SUBJECT, profileUpsertConsumer } from '../src/profile-sync/profile-upsert.consumer';
import { ProfileWithAcptView, upsertPayload } from './factories';
import { bodyOf, GatewayClient, GatewayTestApp, startGateway } from './support';
import { ProfileSyncService, UpsertOutcome } from '../src/profile-sync/profile-sync.service';

/**
 * The upsert consumer on the in-process transport of `standalone`: merchant-management's pushes
 * (docs/architecture.md, flows 2 and 3) applied idempotently, as the group's PBO then sees them
 * over HTTP.
 */
describe('profile upserts over the in-process transport', () => {
  let app: GatewayTestApp;
  let transport: InProcessTransport;
  const deadLetters: InProcessMessage[] = [];

  beforeAll(async () => {
    // No duplicate window, so the transport hands a repeated id to the consumer as a redelivery would.
    app = await startGateway({ messaging: { transport: 'in-process', inProcess: { duplicateWindowMs: 0, redeliveryDelayMs: () => 10 } } });
    transport = app.app.get(InProcessTransport);
    transport.subscribe(PROFILE_UPSERT_DEAD_LETTER_SUBJECT, (message) => {
      deadLetters.push(message);
    });
  });

  afterAll(() => app.close());

  /** Publishes upserts as the outbox relay would (one id each unless given) and waits until they are handled. */
  async function publish(...messages: Array<{ payload: Record<string, unknown>; msgId?: string }>): Promise<string[]> {
    const ids: string[] = [];
    for (const message of messages) {
      const msgId = message.msgId ?? randomUUID();
      ids.push(msgId);
      await transport.publish(GATEWAY_PROFILE_UPSERT_V1, message.payload, { msgId });
    }
    await transport.idle();
    return ids;
  }

  async function pboOf(groupId: string): Promise<GatewayClient> {
    return app.clientOf(groupId);
  }

  async function inboxCount(messageIds: string[]): Promise<number> {
    const rows = await queryDatabase<{ n: number }>(app.database.url, 'SELECT count(*)::int AS n FROM payment_gateway.inbox WHERE consumer = $1 AND message_id = ANY($2)', [
      profileUpsertConsumer.name,
      messageIds,
    ]);
    return rows[0].n;
  }

  function newGroup(): string {
    return `grp_${randomUUID().slice(0, 8)}`;
  }

  it('should create the profile with its acceptances for the group of the upsert', async () => {
    const groupId = newGroup();
    const payload = upsertPayload({
      groupId,
      timeZone: 'Asia/Kuala_Lumpur',
      acceptances: [
        { acptName: 'Acquirer A', hostMessageFormat: 'ISO8583', supportedPayments: ['VISA'], primaryMid: 'MID-A', primaryTid: 'TID-A', extraParams: { connUrl: 'tcp://host:5000' } },
        { acptName: 'Acquirer B', hostMessageFormat: 'MOCK', supportedPayments: ['MASTERCARD', 'VISA'], primaryMid: null, primaryTid: null, extraParams: {} },
      ],
    });
    await publish({ payload });

    const profile = bodyOf<ProfileWithAcptView>(await (await pboOf(groupId)).get(`/profiles/${String(payload.profileId)}`));
    expect(profile).toMatchObject({ profileId: payload.profileId, profileName: payload.profileName, merchantName: payload.merchantName, timeZone: 'Asia/Kuala_Lumpur', entityStatus: 'ACTIVE', updatedAt: null });
    expect(profile.acceptances.map((a) => [a.acptName, a.hostMessageFormat, a.supportedPayments, a.primaryMid, a.primaryTid, a.extraParams])).toEqual([
      // An older producer's extraParams.connUrl is the host address, kept out of the extraParams shown.
      ['Acquirer A', 'ISO8583', ['VISA'], 'MID-A', 'TID-A', {}],
      ['Acquirer B', 'MOCK', ['MASTERCARD', 'VISA'], null, null, {}],
    ]);
    expect(Object.values(profile.acptSelection)).toEqual([['VISA'], ['MASTERCARD']]);
  });

  it('should keep the device and merchant the upsert is for (the only device that may pay through the profile)', async () => {
    const groupId = newGroup();
    const payload = upsertPayload({ groupId, deviceId: 'device-one', merchantId: 'M-ONE' });
    await publish({ payload });

    const rows = await queryDatabase(app.database.url, 'SELECT device_id, merchant_id FROM payment_gateway.profile WHERE id = $1', [payload.profileId]);
    expect(rows).toEqual([{ device_id: 'device-one', merchant_id: 'M-ONE' }]);
  });

  it("should show a profile DISABLED exactly while its device's last lifecycle says so or its PBO disabled it, neither undoing the other", async () => {
    // A step: pushes arriving together (one batch) with a lifecycle each (absent: an older producer), or the PBO's own status.
    const lifecycle = fc.constantFrom<'ACTIVE' | 'DISABLED' | undefined>('ACTIVE', 'DISABLED', undefined);
    const step = fc.oneof(
      fc.record({ pushes: fc.array(lifecycle, { minLength: 1, maxLength: 3 }) }),
      fc.record({ pbo: fc.constantFrom<'ACTIVE' | 'DISABLED'>('ACTIVE', 'DISABLED') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        const groupId = newGroup();
        const pbo = await pboOf(groupId);
        const profileId = String(upsertPayload().profileId);
        let version = 0;
        let retired = false;
        let pboStatus: 'ACTIVE' | 'DISABLED' = 'ACTIVE';
        for (const next of steps) {
          if ('pushes' in next) {
            await publish(
              ...next.pushes.map((entityStatus) => {
                const payload = upsertPayload({ groupId, profileId, version: ++version });
                if (entityStatus === undefined) delete payload.entityStatus;
                else payload.entityStatus = entityStatus;
                return { payload };
              }),
            );
            const last = next.pushes.filter((status) => status !== undefined).pop();
            if (last !== undefined) retired = last === 'DISABLED';
          } else if (version > 0) {
            // A retired profile refuses ACTIVE (409) and keeps the PBO's status as it was.
            const refused = retired && next.pbo === 'ACTIVE';
            expect((await pbo.patch(`/profiles/${profileId}/status`, { status: next.pbo })).status).toBe(refused ? 409 : 200);
            if (!refused) pboStatus = next.pbo;
          }
          if (version === 0) continue;
          const shown = bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/${profileId}`)).entityStatus;
          expect(shown).toBe(retired || pboStatus === 'DISABLED' ? 'DISABLED' : 'ACTIVE');
        }
      }),
      { numRuns: 25 },
    );
  });

  it('should keep the device id of the newest upsert that names an activation, alone or in a batch, an upsert without one keeping it', async () => {
    // Batches of pushes, each naming an activation's device id or none (an older producer, a device never activated).
    const push = fc.option(fc.constantFrom('SDKAAAA', 'SDKBBBB', 'SDKCCCC'), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(push, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }), async (batches) => {
        const groupId = newGroup();
        const profileId = String(upsertPayload().profileId);
        let version = 0;
        let expected: string | null = null;
        for (const batch of batches) {
          await publish(
            ...batch.map((activeSdkId) => {
              const payload = upsertPayload({ groupId, profileId, version: ++version });
              if (activeSdkId === undefined) delete payload.activeSdkId;
              else payload.activeSdkId = activeSdkId;
              return { payload };
            }),
          );
          expected = batch.filter((id) => id !== undefined).pop() ?? expected;
          const rows = await queryDatabase(app.database.url, 'SELECT active_sdk_id FROM payment_gateway.profile WHERE id = $1', [profileId]);
          expect(rows).toEqual([{ active_sdk_id: expected }]);
        }
      }),
      { numRuns: 20 },
    );
  });

  it('should apply an upsert without timeZone (an older producer) and store no time zone', async () => {
    const groupId = newGroup();
    const payload = upsertPayload({ groupId });
    delete payload.timeZone;
    await publish({ payload });

    expect(bodyOf<ProfileWithAcptView>(await (await pboOf(groupId)).get(`/profiles/${String(payload.profileId)}`)).timeZone).toBeNull();
  });

  it('should replace the profile with a higher version and ignore a stale one that arrives later', async () => {
    const groupId = newGroup();
    const profileId = String(upsertPayload().profileId);
    await publish({ payload: upsertPayload({ groupId, profileId, version: 1, profileName: 'v1' }) }, { payload: upsertPayload({ groupId, profileId, version: 3, profileName: 'v3' }) });
    await publish({ payload: upsertPayload({ groupId, profileId, version: 2, profileName: 'v2' }) });

    const profile = bodyOf<ProfileWithAcptView>(await (await pboOf(groupId)).get(`/profiles/${profileId}`));
    expect(profile.profileName).toBe('v3');
    expect(profile.updatedAt).not.toBeNull();
  });

  it('should apply a redelivered message once, recording its id once', async () => {
    const groupId = newGroup();
    const payload = upsertPayload({ groupId });
    const msgId = randomUUID();
    await publish({ payload, msgId }, { payload, msgId });

    const profile = bodyOf<ProfileWithAcptView>(await (await pboOf(groupId)).get(`/profiles/${String(payload.profileId)}`));
    expect(profile.updatedAt).toBeNull();
    expect(await inboxCount([msgId])).toBe(1);
  });

  it('should dead-letter a payload that breaks the contract, naming the field, and apply nothing', async () => {
    const groupId = newGroup();
    const payload = upsertPayload({ groupId, currency: 'XYZ' });
    const [msgId] = await publish({ payload });

    const dead = deadLetters.find((message) => message.headers[DEAD_LETTER_HEADERS.messageId] === msgId);
    expect(dead?.headers[DEAD_LETTER_HEADERS.reason]).toMatch(/currency must be an ISO 4217 currency code/);
    expect(dead?.payload).toEqual(payload);
    expect((await (await pboOf(groupId)).get(`/profiles/${String(payload.profileId)}`)).status).toBe(404);
    expect(await inboxCount([msgId])).toBe(0);
  });

  it('should dead-letter a broken payload on its first delivery, without retrying it', async () => {
    const [msgId] = await publish({ payload: { profileId: 42 } });

    const dead = deadLetters.filter((message) => message.headers[DEAD_LETTER_HEADERS.messageId] === msgId);
    expect(dead).toHaveLength(1);
    expect(dead[0].headers[DEAD_LETTER_HEADERS.deliveries]).toBe('1');
  });

  it('should unbind every acceptance on an upsert with an empty list', async () => {
    const groupId = newGroup();
    const profileId = String(upsertPayload().profileId);
    await publish({ payload: upsertPayload({ groupId, profileId, version: 1 }) }, { payload: upsertPayload({ groupId, profileId, version: 2, acceptances: [] }) });

    const profile = bodyOf<ProfileWithAcptView>(await (await pboOf(groupId)).get(`/profiles/${profileId}`));
    expect(profile.acceptances).toEqual([]);
    expect(profile.acptSelection).toEqual({});
  });

  it('should keep the id of an acceptance pushed again under the same name, with its changed MID', async () => {
    const groupId = newGroup();
    const profileId = String(upsertPayload().profileId);
    const acceptance = { acptName: 'Acquirer A', hostMessageFormat: 'ISO8583', supportedPayments: ['VISA'], primaryMid: 'MID-1', primaryTid: 'TID-1', extraParams: {} };
    await publish({ payload: upsertPayload({ groupId, profileId, version: 1, acceptances: [acceptance] }) });
    const before = bodyOf<ProfileWithAcptView>(await (await pboOf(groupId)).get(`/profiles/${profileId}`));
    await publish({
      payload: upsertPayload({
        groupId,
        profileId,
        version: 2,
        acceptances: [{ ...acceptance, acptName: 'Acquirer B', primaryMid: 'MID-B' }, { ...acceptance, primaryMid: 'MID-2' }],
      }),
    });

    const after = bodyOf<ProfileWithAcptView>(await (await pboOf(groupId)).get(`/profiles/${profileId}`));
    expect(after.acceptances.map((a) => a.acptName)).toEqual(['Acquirer B', 'Acquirer A']);
    expect(after.acceptances[1]).toMatchObject({ acptId: before.acceptances[0].acptId, primaryMid: 'MID-2' });
    expect(after.acceptances[1].updatedAt).not.toBeNull();
    expect(after.acptSelection).toEqual({ [after.acceptances[0].acptId]: ['VISA'], [after.acceptances[1].acptId]: [] });
  });

  it('should dead-letter an upsert that moves a profile to another group, leaving the profile as it was', async () => {
    const groupId = newGroup();
    const payload = upsertPayload({ groupId, version: 1 });
    await publish({ payload });
    const [msgId] = await publish({ payload: { ...payload, version: 2, groupId: newGroup(), profileName: 'stolen' } });

    expect(deadLetters.some((message) => message.headers[DEAD_LETTER_HEADERS.messageId] === msgId)).toBe(true);
    const profile = bodyOf<ProfileWithAcptView>(await (await pboOf(groupId)).get(`/profiles/${String(payload.profileId)}`));
    expect(profile.profileName).toBe(payload.profileName);
  });

  it('should store a profile without its providerReference when another profile of the group holds it', async () => {
    const groupId = newGroup();
    const first = upsertPayload({ groupId, providerReference: 'merchant-42' });
    const second = upsertPayload({ groupId, providerReference: 'merchant-42' });
    await publish({ payload: first }, { payload: second });

    const pbo = await pboOf(groupId);
    expect(bodyOf<ProfileWithAcptView>(await pbo.get('/profiles/providerReference/merchant-42')).profileId).toBe(first.profileId);
    expect(bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/${String(second.profileId)}`)).providerReference).toBeNull();
  });

  describe('a burst of upserts', () => {
    let batches: UpsertOutcome[][];
    let spy: jest.SpyInstance;

    beforeEach(() => {
      batches = [];
      const sync = app.app.get(ProfileSyncService);
      const original = sync.applyBatch.bind(sync);
      spy = jest.spyOn(sync, 'applyBatch').mockImplementation(async (items) => {
        const outcomes = await original(items);
        batches.push(outcomes);
        return outcomes;
      });
    });

    afterEach(() => spy.mockRestore());

    it('should be applied as one batch, each message decided as it would be alone', async () => {
      const groupId = newGroup();
      const existing = upsertPayload({ groupId, version: 5, profileName: 'existing v5' });
      await publish({ payload: existing });
      const fresh = upsertPayload({ groupId, version: 1, profileName: 'fresh v1' });
      const redeliveredId = randomUUID();
      const ids = await publish(
        { payload: fresh },
        { payload: { ...fresh, version: 2, profileName: 'fresh v2', acceptances: [] } },
        { payload: { ...existing, version: 4, profileName: 'existing v4' } },
        { payload: { ...existing, version: 6, profileName: 'existing v6' }, msgId: redeliveredId },
        { payload: { ...existing, version: 7, profileName: 'existing v7 (a copy of an id already seen)' }, msgId: redeliveredId },
      );

      // The first publish was a single message (handled alone); the burst is one batch.
      expect(batches).toEqual([['stale', 'applied', 'stale', 'applied', 'duplicate']]);
      const pbo = await pboOf(groupId);
      const freshView = bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/${String(fresh.profileId)}`));
      expect(freshView).toMatchObject({ profileName: 'fresh v2', acceptances: [] });
      expect(freshView.updatedAt).not.toBeNull();
      const existingView = bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/${String(existing.profileId)}`));
      expect(existingView.profileName).toBe('existing v6');
      expect(existingView.acceptances.map((a) => a.acptName)).toEqual((existing.acceptances as Array<{ acptName: string }>).map((a) => a.acptName));
      expect(await inboxCount(ids)).toBe(4);
    });

    it('should keep the device and merchant each upsert is for, in a batch as alone, a newer version moving them', async () => {
      const groupId = newGroup();
      const alone = upsertPayload({ groupId, deviceId: 'device-alone', merchantId: 'M-ALONE' });
      await publish({ payload: alone });
      const created = upsertPayload({ groupId, deviceId: 'device-created', merchantId: 'M-CREATED' });
      await publish({ payload: created }, { payload: { ...alone, version: 2, deviceId: 'device-moved', merchantId: 'M-MOVED' } });

      expect(batches).toHaveLength(1);
      const rows = await queryDatabase(app.database.url, 'SELECT id, device_id, merchant_id FROM payment_gateway.profile WHERE group_id = $1 ORDER BY device_id', [groupId]);
      expect(rows).toEqual([
        { id: created.profileId, device_id: 'device-created', merchant_id: 'M-CREATED' },
        { id: alone.profileId, device_id: 'device-moved', merchant_id: 'M-MOVED' },
      ]);
    });

    it('should fall back to one by one when a message of the batch breaks its contract: the others applied, that one dead-lettered', async () => {
      const groupId = newGroup();
      const good = [upsertPayload({ groupId }), upsertPayload({ groupId })];
      const [firstId, brokenId, secondId] = await publish({ payload: good[0] }, { payload: { ...good[1], mcc: 'not-a-code' } }, { payload: good[1] });

      expect(batches).toEqual([]);
      expect(deadLetters.filter((message) => message.headers[DEAD_LETTER_HEADERS.messageId] === brokenId)).toHaveLength(1);
      const pbo = await pboOf(groupId);
      for (const payload of good) expect((await pbo.get(`/profiles/${String(payload.profileId)}`)).status).toBe(200);
      expect(await inboxCount([firstId, brokenId, secondId])).toBe(2);
    });

    it('should write nothing of a batch that moves one profile to another group, then apply the others alone', async () => {
      const groupId = newGroup();
      const victim = upsertPayload({ groupId, version: 1, profileName: 'mine' });
      await publish({ payload: victim });
      const bystander = upsertPayload({ groupId });
      const [stealId, bystanderId] = await publish({ payload: { ...victim, version: 2, groupId: newGroup(), profileName: 'stolen' } }, { payload: bystander });

      // The batch was tried once and refused as a whole; each message was then decided alone.
      expect(spy).toHaveBeenCalledTimes(1);
      expect(batches).toEqual([]);
      expect(deadLetters.some((message) => message.headers[DEAD_LETTER_HEADERS.messageId] === stealId)).toBe(true);
      const pbo = await pboOf(groupId);
      expect(bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/${String(victim.profileId)}`)).profileName).toBe('mine');
      expect((await pbo.get(`/profiles/${String(bystander.profileId)}`)).status).toBe(200);
      expect(await inboxCount([stealId, bystanderId])).toBe(1);
    });
  });
});
