import { GATEWAY_PROFILE_OUTCOME_V1, GATEWAY_PROFILE_UPSERT_V1, GatewayProfileOutcomeV1 } from '@app/contracts';
import { InProcessMessage, InProcessTransport } from '@app/messaging';
import { DEAD_LETTER_HEADERS } from '@app/messaging/consumer';
import { queryDatabase, waitFor } from '@app/testing';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { PROFILE_UPSERT_DEAD_LETTER_SUBJECT, profileUpsertConsumer } from '../src/profile-sync/profile-upsert.consumer';
import { ProfileSyncService } from '../src/profile-sync/profile-sync.service';
import { upsertPayload } from './factories';
import { GatewayTestApp, startGateway } from './support';

type Payload = Record<string, unknown>;

/** One way an upsert breaks its contract, and the field path the refusal must name. */
interface Violation {
  path: string;
  breakIt(payload: Payload): Payload;
}

const text = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 '), minLength, maxLength });

function withAcceptance(payload: Payload, field: string, value: unknown): Payload {
  const [first] = payload.acceptances as Payload[];
  return { ...payload, acceptances: [{ ...first, [field]: value }] };
}

/** Contract violations of every kind a field can have: too long, empty, not in the vocabulary, wrong type, an unknown field. */
const violations: fc.Arbitrary<Violation> = fc.oneof(
  text(129, 300).map((value) => ({ path: 'profileName', breakIt: (p: Payload) => ({ ...p, profileName: value }) })),
  fc.constant({ path: 'merchantName', breakIt: (p: Payload) => ({ ...p, merchantName: '' }) }),
  text(513, 700).map((value) => ({ path: 'merchantAddr', breakIt: (p: Payload) => ({ ...p, merchantAddr: value }) })),
  fc.string({ maxLength: 8 }).filter((value) => !/^\d{4}$/.test(value)).map((value) => ({ path: 'mcc', breakIt: (p: Payload) => ({ ...p, mcc: value }) })),
  fc.constantFrom('XXX', 'myr', 'RM', 42).map((value) => ({ path: 'currency', breakIt: (p: Payload) => ({ ...p, currency: value }) })),
  fc.constantFrom('GONE', 'active', 1).map((value) => ({ path: 'entityStatus', breakIt: (p: Payload) => ({ ...p, entityStatus: value }) })),
  text(33, 64).map((value) => ({ path: 'acceptances[0].primaryMid', breakIt: (p: Payload) => withAcceptance(p, 'primaryMid', value) })),
  text(33, 64).map((value) => ({ path: 'acceptances[0].primaryTid', breakIt: (p: Payload) => withAcceptance(p, 'primaryTid', value) })),
  fc.constant({ path: 'acceptances[0].acptName', breakIt: (p: Payload) => withAcceptance(p, 'acptName', '') }),
  fc.constantFrom('NOPE', 'iso8583', '').map((value) => ({ path: 'acceptances[0].hostMessageFormat', breakIt: (p: Payload) => withAcceptance(p, 'hostMessageFormat', value) })),
  fc.constantFrom([], ['VISA', 'VISA'], ['CASH']).map((value) => ({ path: 'acceptances[0].supportedPayments', breakIt: (p: Payload) => withAcceptance(p, 'supportedPayments', value) })),
  fc.constantFrom('extra', 'profileStatus').map((field) => ({ path: field, breakIt: (p: Payload) => ({ ...p, [field]: true }) })),
);

/**
 * What the gateway tells merchant-management of each upsert (gateway.profile.outcome.v1, through
 * its outbox), on the in-process transport of standalone: APPLIED once per applied version,
 * REJECTED with a reason naming the field or rule for whatever it dead-letters.
 */
describe('profile upsert outcomes', () => {
  let app: GatewayTestApp;
  let transport: InProcessTransport;
  const outcomes: GatewayProfileOutcomeV1[] = [];
  const deadLetters: InProcessMessage[] = [];

  beforeAll(async () => {
    app = await startGateway({ messaging: { transport: 'in-process', inProcess: { duplicateWindowMs: 0, redeliveryDelayMs: () => 10 } } });
    transport = app.app.get(InProcessTransport);
    transport.subscribe(GATEWAY_PROFILE_OUTCOME_V1, (message) => {
      outcomes.push(message.payload as GatewayProfileOutcomeV1);
    });
    transport.subscribe(PROFILE_UPSERT_DEAD_LETTER_SUBJECT, (message) => {
      deadLetters.push(message);
    });
  });

  afterAll(() => app?.close());

  async function publish(payload: Payload, msgId: string = randomUUID()): Promise<string> {
    await transport.publish(GATEWAY_PROFILE_UPSERT_V1, payload, { msgId });
    await transport.idle();
    return msgId;
  }

  /** Waits for the outcomes of `profileId` the outbox relay publishes, and answers them. */
  async function outcomesOf(profileId: string, count: number): Promise<GatewayProfileOutcomeV1[]> {
    await waitFor(`${count} outcome(s) of ${profileId}`, () => outcomes.filter((o) => o.profileId === profileId).length >= count);
    return outcomes.filter((o) => o.profileId === profileId);
  }

  async function outboxedOutcomes(): Promise<number> {
    const rows = await queryDatabase<{ n: number }>(app.database.url, 'SELECT count(*)::int AS n FROM payment_gateway.outbox WHERE subject = $1', [GATEWAY_PROFILE_OUTCOME_V1]);
    return rows[0].n;
  }

  const group = () => `grp_${randomUUID().slice(0, 8)}`;

  it('should answer each applied version with APPLIED, and a repeated or stale upsert with nothing more', async () => {
    const payload = upsertPayload({ groupId: group(), version: 2 });
    const msgId = await publish(payload);
    await publish(payload, msgId);
    await publish({ ...payload, version: 1 });
    await publish({ ...payload, version: 3 });

    const seen = await outcomesOf(String(payload.profileId), 2);
    expect(seen.map(({ version, outcome, reason, groupId, deviceId }) => ({ version, outcome, reason, groupId, deviceId }))).toEqual([
      { version: 2, outcome: 'APPLIED', reason: null, groupId: payload.groupId, deviceId: payload.deviceId },
      { version: 3, outcome: 'APPLIED', reason: null, groupId: payload.groupId, deviceId: payload.deviceId },
    ]);
    expect(seen[0].decidedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('should answer every upsert that breaks its contract with REJECTED naming the field, and dead-letter it', async () => {
    await fc.assert(
      fc.asyncProperty(violations, async (violation) => {
        const payload = violation.breakIt(upsertPayload({ groupId: group(), version: 4 }));
        const msgId = await publish(payload);

        const [outcome] = await outcomesOf(String(payload.profileId), 1);
        expect(outcome).toMatchObject({ version: 4, outcome: 'REJECTED', groupId: payload.groupId, deviceId: payload.deviceId });
        expect(outcome.reason).toContain(`GatewayProfileUpsertV1: ${violation.path}`);
        expect(deadLetters.some((message) => message.headers[DEAD_LETTER_HEADERS.messageId] === msgId)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("should answer an upsert of another group's profile with REJECTED that does not name the holder", async () => {
    const holder = group();
    const payload = upsertPayload({ groupId: holder, version: 1 });
    await publish(payload);
    const claimant = group();
    await publish({ ...payload, groupId: claimant, version: 2 });

    const seen = await outcomesOf(String(payload.profileId), 2);
    expect(seen[1]).toMatchObject({ version: 2, outcome: 'REJECTED', groupId: claimant, reason: `profile ${String(payload.profileId)} belongs to another group` });
    expect(JSON.stringify(seen[1])).not.toContain(holder);
  });

  it('should answer an upsert that failed every delivery with REJECTED giving the last error', async () => {
    const sync = app.app.get(ProfileSyncService);
    const failure = new Error('the database is unreachable');
    const spies = [jest.spyOn(sync, 'apply').mockRejectedValue(failure), jest.spyOn(sync, 'applyBatch').mockRejectedValue(failure)];
    try {
      const payload = upsertPayload({ groupId: group(), version: 7 });
      const msgId = await publish(payload);

      const [outcome] = await outcomesOf(String(payload.profileId), 1);
      expect(outcome).toMatchObject({ version: 7, outcome: 'REJECTED', reason: `gave up after ${profileUpsertConsumer.maxDeliveries} deliveries: the database is unreachable` });
      expect(deadLetters.some((message) => message.headers[DEAD_LETTER_HEADERS.messageId] === msgId)).toBe(true);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('should tell nobody of an upsert that names no profile: only the dead letter remains', async () => {
    const before = await outboxedOutcomes();
    const unnamed = [{ ...upsertPayload(), profileId: 'not-a-profile' }, { ...upsertPayload(), version: 0 }, { ...upsertPayload(), groupId: '' }, 'not an object'];
    for (const payload of unnamed) {
      const msgId = await publish(payload as never);
      expect(deadLetters.some((message) => message.headers[DEAD_LETTER_HEADERS.messageId] === msgId)).toBe(true);
    }
    // The refusal is written before the dead letter: had one been, it would be in the outbox by now.
    expect(await outboxedOutcomes()).toBe(before);
  });
});
