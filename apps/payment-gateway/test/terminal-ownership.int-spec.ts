import { AllowList, DomainError } from '@app/common';
import {
  GATEWAY_PROFILE_OUTCOME_V1,
  GATEWAY_PROFILE_UPSERT_V1,
  GATEWAY_TERMINAL_RELEASED_V1,
  GatewayProfileOutcomeV1,
  GatewayProfileUpsertV1,
  GatewayTerminalReleasedV1,
} from '@app/contracts';
import { uniqueTid } from '@app/host-protocol/testing/factories';
import { TypeOrmUnitOfWork } from '@app/database';
import { HostAddressPolicy, InProcessTransport } from '@app/messaging';
import { bodyOf, queryDatabase, unique, waitFor } from '@app/testing';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { hostAddressCheckReply, socketAddressesOfHost } from '../../host-connector/src';
import { TerminalIdentityRepository } from '../src/profile/persistence/terminal-identity.repository';
import { ProfileSyncService } from '../src/profile-sync/profile-sync.service';
import { acceptanceBody, ProblemView, profileBody, upsertPayload } from './factories';
import { GatewayTestApp, startGateway } from './support';

type Payload = Record<string, unknown>;

/** An acceptance as merchant-management pushes it: the acquirer's address in `hostUrl`. */
function acceptance(format: string, hostUrl: string | null, mid: string, tid: string): Payload {
  return { acptName: 'Acquirer', hostMessageFormat: format, supportedPayments: ['VISA'], primaryMid: mid, primaryTid: tid, extraParams: {}, hostUrl };
}

/** {@link acceptance} of merchant-management's acquirer profile `acquirerRef`, named `acptName`. */
const ofAcquirer = (acquirerRef: string, acptName: string, format: string, hostUrl: string | null, mid: string, tid: string): Payload => ({
  ...acceptance(format, hostUrl, mid, tid),
  acptName,
  acquirerRef,
});

const newMid = () => `M${unique()}`.toUpperCase().slice(0, 15);

/** Spellings of one TCP host that the connector dials alike (host name case, a trailing slash). */
const spellingsOf = (host: string, port: number) => [`tcp://${host}:${port}`, `tcp://${host.toUpperCase()}:${port}`, `tcp://${host}:${port}/`];

/**
 * One owner per terminal identity (docs/decisions.md, "One owner per terminal identity"): a MID/TID
 * at a host (format and address) belongs to the first PBO whose live profile binds it; another
 * PBO's upsert with it is REJECTED through gateway.profile.outcome.v1, its profile API call 409.
 */
describe('terminal identities have one owner PBO', () => {
  let app: GatewayTestApp;
  let transport: InProcessTransport;
  const outcomes: GatewayProfileOutcomeV1[] = [];
  const releases: GatewayTerminalReleasedV1[] = [];

  beforeAll(async () => {
    app = await startGateway({ messaging: { transport: 'in-process', inProcess: { duplicateWindowMs: 0, redeliveryDelayMs: () => 10 } } });
    transport = app.app.get(InProcessTransport);
    transport.subscribe(GATEWAY_PROFILE_OUTCOME_V1, (message) => {
      outcomes.push(message.payload as GatewayProfileOutcomeV1);
    });
    transport.subscribe(GATEWAY_TERMINAL_RELEASED_V1, (message) => {
      releases.push(message.payload as GatewayTerminalReleasedV1);
    });
  });

  afterAll(() => app?.close());

  /** Publishes the upserts together (the consumer may take them as one batch) and waits until they are handled. */
  async function publish(...payloads: Payload[]): Promise<void> {
    for (const payload of payloads) await transport.publish(GATEWAY_PROFILE_UPSERT_V1, payload, { msgId: randomUUID() });
    await transport.idle();
  }

  async function outcomeOf(payload: Payload): Promise<GatewayProfileOutcomeV1> {
    const find = () => outcomes.find((o) => o.profileId === payload.profileId && o.version === payload.version);
    await waitFor(`the outcome of ${String(payload.profileId)} v${String(payload.version)}`, () => find() !== undefined);
    return find()!;
  }

  async function owners(mid: string, tid: string): Promise<string[]> {
    const rows = await queryDatabase<{ group_id: string }>(app.database.url, 'SELECT group_id FROM payment_gateway.terminal_identity WHERE mid = $1 AND tid = $2', [mid, tid]);
    return rows.map((row) => row.group_id);
  }

  // Reviews r14k, r14l, r14n: a refund or capture needs the PBO to hold the terminal at the host the sale's acceptance names now.
  it("should tell whether a PBO holds a terminal: its format, MID and TID at that host however spelt, never another host's or PBO's", async () => {
    const [mid, tid] = [newMid(), `T${unique()}`.slice(-8)];
    await queryDatabase(
      app.database.url,
      `INSERT INTO payment_gateway.terminal_identity (host_message_format, host_address, mid, tid, group_id) VALUES ('ISO8583', 'tcp://10.8.0.5:7000', $1, $2, 'grp_holds_a')`,
      [mid, tid],
    );
    const identities = app.app.get(TerminalIdentityRepository);
    const holds = (groupId: string, hostUrl: string | null, m = mid, t = tid, format = 'ISO8583') =>
      identities.holds(app.app.get(TypeOrmUnitOfWork).manager, groupId, format, hostUrl, m, t);

    expect(await holds('grp_holds_a', 'tcp://10.8.0.5:7000')).toBe(true);
    expect(await holds('grp_holds_a', 'TCP://10.8.0.5:7000/', `${mid} `)).toBe(true);
    expect(await holds('grp_holds_a', 'tcp://10.8.0.9:7000')).toBe(false);
    expect(await holds('grp_holds_a', null)).toBe(false);
    expect(await holds('grp_holds_b', 'tcp://10.8.0.5:7000')).toBe(false);
    expect(await holds('grp_holds_a', 'tcp://10.8.0.5:7000', mid, 'TOTHER01')).toBe(false);
    expect(await holds('grp_holds_a', 'tcp://10.8.0.5:7000', mid, tid, 'MPGS_AP')).toBe(false);
    expect(await holds('grp_holds_a', null, mid, tid, 'MOCK')).toBe(true);
  });

  /** The id of the acceptance a published profile binds (its only one). */
  async function acceptanceIdOf(profileId: unknown): Promise<string> {
    const [{ id }] = await queryDatabase<{ id: string }>(app.database.url, 'SELECT acceptance_id AS id FROM payment_gateway.profile_acceptance WHERE profile_id = $1', [profileId]);
    return id;
  }

  /** Where `targetNow` sends a follow-up of a sale made through `profileId`'s acceptance `acptId` at tcp://10.9.0.1:7000. */
  async function followUpAddress(acptId: string, profileId: unknown, groupId: string, mid: string, tid: string): Promise<string | null> {
    const kept = { hostMessageFormat: 'ISO8583' as const, connUrl: 'tcp://10.9.0.1:7000', acptId, mid, tid };
    const now = await app.app.get(TerminalIdentityRepository).targetNow(app.app.get(TypeOrmUnitOfWork).manager, kept, groupId, String(profileId));
    expect(now).toEqual({ ...kept, connUrl: now.connUrl, groupId });
    return now.connUrl;
  }

  // Review r14p: merchant-management names the acquirer profile (acquirerRef); a rename keeps it, a new acquirer with a deleted one's
  // name is another. The sale was made through acquirer 7, named 'Acquirer', at tcp://10.9.0.1:7000.
  it.each([
    ['renamed, then moved in another edit', [['7', 'Renamed', 'tcp://10.9.0.1:7000'], ['7', 'Renamed', 'tcp://10.9.0.2:7100']], 'tcp://10.9.0.2:7100', true],
    ['renamed and moved in one edit', [['7', 'Renamed', 'tcp://10.9.0.3:7200']], 'tcp://10.9.0.3:7200', true],
    ['deleted, and another acquirer created with its name elsewhere', [['8', 'Acquirer', 'tcp://10.9.0.6:7500']], 'tcp://10.9.0.1:7000', false],
    ['another acquirer naming the terminal, under another name', [['9', 'Other acquirer', 'tcp://10.9.0.6:7500']], 'tcp://10.9.0.1:7000', false],
  ] as const)("should send a follow-up of a sale made before its acquirer was %s to that acquirer's host", async (_, edits, expected, sameAcceptance) => {
    const [mid, tid, owner] = [newMid(), uniqueTid(), group()];
    const made = upsertPayload({ groupId: owner, acceptances: [ofAcquirer('7', 'Acquirer', 'ISO8583', 'tcp://10.9.0.1:7000', mid, tid)] });
    await publish(made);
    const acptId = await acceptanceIdOf(made.profileId);
    let version = Number(made.version);
    for (const [ref, name, url] of edits) {
      const edited = { ...made, version: (version += 1), acceptances: [ofAcquirer(ref, name, 'ISO8583', url, mid, tid)] };
      await publish(edited);
      expect((await outcomeOf(edited)).outcome).toBe('APPLIED');
    }

    // The same acquirer keeps the acceptance (its id, which transactions name); another gets its own.
    expect((await acceptanceIdOf(made.profileId)) === acptId).toBe(sameAcceptance);
    expect(await followUpAddress(acptId, made.profileId, owner, mid, tid)).toBe(expected);
  });

  // Reviews r14n, r14o: an acquirer address edit moves its terminals; a follow-up or settle of an earlier sale goes where the PBO's
  // acceptances of that acquirer point now, never to another acquirer's host (here acceptances of an older producer: by their name).
  it.each([
    ["the sale's acceptance at a new address", 'tcp://10.9.0.2:7100', (mid: string, tid: string) => [acceptance('ISO8583', 'tcp://10.9.0.2:7100', mid, tid)], 'owner'],
    ['the default host now (the MID written with the ISO pad)', null, (mid: string, tid: string) => [acceptance('ISO8583', null, `${mid} `, tid)], 'owner'],
    [
      "the sale's address: another acquirer's acceptance names the terminal now",
      'tcp://10.9.0.1:7000',
      (mid: string, tid: string) => [{ ...acceptance('ISO8583', 'tcp://10.9.0.6:7500', mid, tid), acptName: 'Other acquirer' }],
      'owner',
    ],
    [
      "the sale's address: the acquirer was renamed (another name is another acquirer)",
      'tcp://10.9.0.1:7000',
      (mid: string, tid: string) => [{ ...acceptance('ISO8583', 'tcp://10.9.0.3:7200', mid, tid), acptName: 'Renamed' }],
      'owner',
    ],
    ["the sale's address: its acceptance names another TID now", 'tcp://10.9.0.1:7000', (mid: string) => [acceptance('ISO8583', 'tcp://10.9.0.4:7300', mid, uniqueTid())], 'owner'],
    ["the sale's address: its acceptance names another format now", 'tcp://10.9.0.1:7000', (mid: string, tid: string) => [acceptance('S2M_8583', 'tcp://10.9.0.5:7400', mid, tid)], 'owner'],
    ["the sale's address, for another PBO asking", 'tcp://10.9.0.1:7000', (mid: string, tid: string) => [acceptance('ISO8583', 'tcp://10.9.0.2:7100', mid, tid)], 'other'],
  ] as const)('should send a follow-up of a sale made before an edit to %s', async (_, expected, edit, asker) => {
    const [mid, tid, owner] = [newMid(), uniqueTid(), group()];
    const made = upsertPayload({ groupId: owner, acceptances: [acceptance('ISO8583', 'tcp://10.9.0.1:7000', mid, tid)] });
    await publish(made);
    expect((await outcomeOf(made)).outcome).toBe('APPLIED');
    const acptId = await acceptanceIdOf(made.profileId);
    const edited = { ...made, version: 2, acceptances: edit(mid, tid) };
    await publish(edited);
    expect((await outcomeOf(edited)).outcome).toBe('APPLIED');

    expect(await followUpAddress(acptId, made.profileId, asker === 'owner' ? owner : group(), mid, tid)).toBe(expected);
  });

  // Review r14o: the device that made the sale was replaced by another on the same terminal (its profile retired, not re-pushed),
  // then the acquirer's address edited: the replacement's acceptance of the same acquirer gives the address; another acquirer's never.
  it.each([
    ['the same acquirer', '7', 'Renamed', 'tcp://10.9.0.2:7100'],
    ['another acquirer of the same name', '8', 'Acquirer', 'tcp://10.9.0.1:7000'],
  ])("should send a follow-up of a replaced device's sale where the replacement's acceptance of %s points", async (_, ref, acptName, expected) => {
    const [mid, tid, owner] = [newMid(), uniqueTid(), group()];
    const first = upsertPayload({ groupId: owner, acceptances: [ofAcquirer('7', 'Acquirer', 'ISO8583', 'tcp://10.9.0.1:7000', mid, tid)] });
    await publish(first);
    const acptId = await acceptanceIdOf(first.profileId);
    const replacement = upsertPayload({ groupId: owner, acceptances: [ofAcquirer(ref, acptName, 'ISO8583', 'tcp://10.9.0.1:7000', mid, tid)] });
    await publish(replacement, { ...first, version: 2, entityStatus: 'DISABLED' });
    const moved = { ...replacement, version: 2, acceptances: [ofAcquirer(ref, acptName, 'ISO8583', 'tcp://10.9.0.2:7100', mid, tid)] };
    await publish(moved);
    for (const payload of [first, replacement, moved]) expect((await outcomeOf(payload)).outcome).toBe('APPLIED');

    expect(await followUpAddress(acptId, first.profileId, owner, mid, tid)).toBe(expected);
  });

  it("should tell a terminal another PBO holds at a host from the PBO's own, a free one and one at another host", async () => {
    const [mid, tid, owner, other] = [newMid(), uniqueTid(), group(), group()];
    await publish(upsertPayload({ groupId: owner, acceptances: [acceptance('ISO8583', 'tcp://10.9.1.1:7000', mid, tid)] }));
    const heldByAnother = (groupId: string, hostUrl: string | null, m = mid) =>
      app.app.get(TerminalIdentityRepository).heldByAnother(app.app.get(TypeOrmUnitOfWork).manager, groupId, 'ISO8583', hostUrl, m, tid);

    expect(await heldByAnother(other, 'TCP://10.9.1.1:7000/', `${mid} `)).toBe(true);
    expect(await heldByAnother(owner, 'tcp://10.9.1.1:7000')).toBe(false);
    expect(await heldByAnother(other, 'tcp://10.9.1.2:7000')).toBe(false);
    expect(await heldByAnother(other, 'tcp://10.9.1.1:7000', newMid())).toBe(false);
  });

  async function profileExists(profileId: unknown): Promise<boolean> {
    return (await queryDatabase(app.database.url, 'SELECT 1 FROM payment_gateway.profile WHERE id = $1', [profileId])).length === 1;
  }

  const group = () => unique('grp_');

  it("should refuse a second PBO's profile with the same MID/TID at the same host, however the address is spelt, naming the MID/TID and not the owner", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('acq.example', 'host-a.test', '10.1.2.3'), fc.integer({ min: 1, max: 65535 }), fc.nat(2), fc.nat(2), async (host, port, first, second) => {
        const [mid, tid] = [newMid(), uniqueTid()];
        const spellings = spellingsOf(host, port);
        const a = upsertPayload({ groupId: group(), acceptances: [acceptance('ISO8583', spellings[first], mid, tid)] });
        const b = upsertPayload({ groupId: group(), acceptances: [acceptance('ISO8583', spellings[second], mid, tid)] });
        await publish(a);
        await publish(b);

        expect((await outcomeOf(a)).outcome).toBe('APPLIED');
        const refused = await outcomeOf(b);
        expect(refused).toMatchObject({ outcome: 'REJECTED', groupId: b.groupId, reason: `MID ${mid} / TID ${tid} at ISO8583 host tcp://${host}:${port} is another PBO's terminal` });
        expect(JSON.stringify(refused)).not.toContain(String(a.groupId));
        expect(await profileExists(b.profileId)).toBe(false);
        expect(await owners(mid, tid)).toEqual([a.groupId]);
      }),
      { numRuns: 12 },
    );
  });

  it('should let another PBO use another TID, MID, host or format, and the owner use its terminal in any number of profiles', async () => {
    const [mid, tid, host] = [newMid(), uniqueTid(), 'tcp://acq.example:5000'];
    const owner = group();
    const a = upsertPayload({ groupId: owner, acceptances: [acceptance('ISO8583', host, mid, tid)] });
    await publish(a);
    const others = [
      acceptance('ISO8583', host, mid, uniqueTid()),
      acceptance('ISO8583', host, newMid(), tid),
      acceptance('ISO8583', 'tcp://acq.example:5001', mid, tid),
      acceptance('ISO8583', null, mid, tid),
      acceptance('S2M_8583', host, mid, tid),
    ].map((other) => upsertPayload({ groupId: group(), acceptances: [other] }));
    const sameOwner = upsertPayload({ groupId: owner, acceptances: [acceptance('ISO8583', host, mid, tid)] });
    await publish(...others, sameOwner);

    for (const payload of [a, ...others, sameOwner]) expect([payload.profileId, (await outcomeOf(payload)).outcome]).toEqual([payload.profileId, 'APPLIED']);
  });

  it("should release the claim when the owner's last live profile with it is retired or unbinds it, and not give it back", async () => {
    const [mid, tid, host] = [newMid(), uniqueTid(), 'tcp://acq.example:6000'];
    const owner = group();
    const first = upsertPayload({ groupId: owner, acceptances: [acceptance('ISO8583', host, mid, tid)] });
    const second = upsertPayload({ groupId: owner, acceptances: [acceptance('ISO8583', host, mid, tid)] });
    await publish(first);
    await publish(second);
    const claimant = upsertPayload({ groupId: group(), acceptances: [acceptance('ISO8583', host, mid, tid)] });

    const releasesOf = async () => {
      await transport.idle();
      return releases.filter((release) => release.mid === mid && release.tid === tid);
    };

    // The first device is decommissioned: the second still binds the terminal.
    await publish({ ...first, version: 2, entityStatus: 'DISABLED' });
    await publish(claimant);
    expect((await outcomeOf(claimant)).outcome).toBe('REJECTED');
    expect(await releasesOf()).toEqual([]);
    // The second one's acceptance moves to another TID: nobody of the owner binds it any more.
    await publish({ ...second, version: 2, acceptances: [acceptance('ISO8583', host, mid, uniqueTid())] });
    expect(await owners(mid, tid)).toEqual([]);
    // ...and the host connector is told, through the outbox, so the owner's claims there go too.
    await waitFor('the release of the terminal', async () => (await releasesOf()).length > 0);
    expect(await releasesOf()).toEqual([{ groupId: owner, hostMessageFormat: 'ISO8583', hostAddress: host, mid, tid, releasedAt: expect.any(String) }]);

    const retry = { ...claimant, version: 2 };
    await publish(retry);
    expect((await outcomeOf(retry)).outcome).toBe('APPLIED');
    expect(await owners(mid, tid)).toEqual([claimant.groupId]);
    // The old owner's device is activated again: the terminal is the other PBO's now.
    const back = { ...first, version: 3, entityStatus: 'ACTIVE' };
    await publish(back);
    expect((await outcomeOf(back)).outcome).toBe('REJECTED');
    // Nothing more was released: a refused change rolls its release back with it.
    expect(await releasesOf()).toHaveLength(1);
  });

  it('should let exactly one of two PBOs win a race for one terminal, and the other be refused', async () => {
    const sync = app.app.get(ProfileSyncService);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 4 }), async (contenders) => {
        const [mid, tid] = [newMid(), uniqueTid()];
        const payloads = Array.from({ length: contenders }, () => upsertPayload({ groupId: group(), acceptances: [acceptance('ISO8583', 'tcp://race.example:7000', mid, tid)] }));
        const settled = await Promise.allSettled(
          payloads.map((payload) => sync.apply(payload as unknown as GatewayProfileUpsertV1, { consumer: 'test', messageId: randomUUID(), subject: GATEWAY_PROFILE_UPSERT_V1 })),
        );

        const winners = payloads.filter((_payload, index) => settled[index].status === 'fulfilled');
        expect(winners).toHaveLength(1);
        for (const result of settled.filter((entry) => entry.status === 'rejected')) {
          expect((result as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
          expect(((result as PromiseRejectedResult).reason as DomainError).message).toContain(`MID ${mid} / TID ${tid}`);
        }
        expect(await owners(mid, tid)).toEqual([winners[0].groupId]);
        for (const payload of payloads) expect(await profileExists(payload.profileId)).toBe(payload === winners[0]);
      }),
      { numRuns: 6 },
    );
  });

  it('should decide two PBOs of one batch alike: the first applied, the second refused', async () => {
    const [mid, tid] = [newMid(), uniqueTid()];
    const a = upsertPayload({ groupId: group(), acceptances: [acceptance('ISO8583', null, mid, tid)] });
    const b = upsertPayload({ groupId: group(), acceptances: [acceptance('ISO8583', null, mid, tid)] });
    await publish(a, b);

    expect([(await outcomeOf(a)).outcome, (await outcomeOf(b)).outcome]).toEqual(['APPLIED', 'REJECTED']);
  });

  it("should answer the profile API 409 naming the MID/TID when the PBO binds another PBO's terminal, and take it once released", async () => {
    const [mid, tid] = [newMid(), uniqueTid()];
    const owner = await app.clientOf(group());
    const other = await app.clientOf(group());
    const created = bodyOf<{ profileId: string; acceptances: Array<{ acptId: string }> }>(
      await owner.post('/profiles', profileBody({ acceptances: [acceptanceBody({ primaryMid: mid, primaryTid: tid })] })),
      201,
    );

    const refused = await other.post('/profiles', profileBody({ acceptances: [acceptanceBody({ primaryMid: mid, primaryTid: tid })] }));
    expect(refused.status).toBe(409);
    expect(bodyOf<ProblemView>(refused, 409).detail).toBe(`MID ${mid} / TID ${tid} at the default ISO8583 host is another PBO's terminal`);
    // Changing an existing acceptance to the terminal is refused alike.
    const own = bodyOf<{ profileId: string; acceptances: Array<{ acptId: string }> }>(await other.post('/profiles', profileBody()), 201);
    const moved = await other.put(`/profiles/${own.profileId}`, profileBody({ acceptances: [acceptanceBody({ acptId: own.acceptances[0].acptId, primaryMid: mid, primaryTid: tid })] }));
    expect(moved.status).toBe(409);

    // The owner moves its acceptance to another TID: the terminal is free.
    bodyOf(await owner.put(`/profiles/${created.profileId}`, profileBody({ acceptances: [acceptanceBody({ acptId: created.acceptances[0].acptId, primaryMid: mid, primaryTid: uniqueTid() })] })));
    bodyOf(await other.put(`/profiles/${own.profileId}`, profileBody({ acceptances: [acceptanceBody({ acptId: own.acceptances[0].acptId, primaryMid: mid, primaryTid: tid })] })));
    expect(await owners(mid, tid)).toEqual([other.groupId]);
  });

  it("should take a MID padded with spaces (as ISO 8583 sends it) for the owner's, through the upsert and the profile API", async () => {
    const spaces = fc.nat({ max: 4 }).map((n) => ' '.repeat(n));
    await fc.assert(
      fc.asyncProperty(spaces, spaces, spaces, spaces, async (ownLead, ownTrail, lead, trail) => {
        // 7 characters: with up to 4 spaces either side the MID stays within field 42's 15.
        const [mid, tid] = [newMid().slice(0, 7), uniqueTid()];
        const owner = upsertPayload({ groupId: group(), acceptances: [acceptance('ISO8583', null, `${ownLead}${mid}${ownTrail}`, tid)] });
        const b = upsertPayload({ groupId: group(), acceptances: [acceptance('ISO8583', null, `${lead}${mid}${trail}`, tid)] });
        await publish(owner);
        await publish(b);

        expect((await outcomeOf(owner)).outcome).toBe('APPLIED');
        expect(await outcomeOf(b)).toMatchObject({ outcome: 'REJECTED', reason: `MID ${mid} / TID ${tid} at the default ISO8583 host is another PBO's terminal` });
        expect(await owners(mid, tid)).toEqual([owner.groupId]);
        const other = await app.clientOf(group());
        const refused = await other.post('/profiles', profileBody({ acceptances: [acceptanceBody({ primaryMid: `${lead}${mid}${trail}`, primaryTid: tid })] }));
        expect(bodyOf<ProblemView>(refused, 409).detail).toBe(`MID ${mid} / TID ${tid} at the default ISO8583 host is another PBO's terminal`);
      }),
      { numRuns: 6 },
    );
  });
});

/**
 * A terminal at a host written two ways that reach one address (review r14g, HIGH): the default
 * ISO8583 host `tcp://127.0.0.1:18583` and `tcp://localhost:18583`. merchant-management's check
 * never sees the gateway's own profile API, so the gateway compares the addresses too, as the
 * connector's claim keys them (`host.address.check.v1` `hostAddresses`, here the connector's own
 * answer with the machine's resolver).
 */
describe('terminal identities: one owner whatever name the host is written by', () => {
  const connector = {
    defaultUrls: { ISO8583: 'tcp://127.0.0.1:18583' },
    allowList: AllowList.parse('acq.example', { allowLoopback: true, variable: 'HOST_ALLOWLIST' }),
  };
  const policy: HostAddressPolicy = { check: (request) => hostAddressCheckReply(request, connector, (address) => socketAddressesOfHost(address)) };
  let app: GatewayTestApp;
  let transport: InProcessTransport;
  const outcomes: GatewayProfileOutcomeV1[] = [];

  beforeAll(async () => {
    app = await startGateway({ hostAddresses: policy, messaging: { transport: 'in-process', inProcess: { duplicateWindowMs: 0, redeliveryDelayMs: () => 10 } } });
    transport = app.app.get(InProcessTransport);
    transport.subscribe(GATEWAY_PROFILE_OUTCOME_V1, (message) => {
      outcomes.push(message.payload as GatewayProfileOutcomeV1);
    });
  });
  afterAll(() => app?.close());

  async function applied(payload: Payload): Promise<void> {
    await transport.publish(GATEWAY_PROFILE_UPSERT_V1, payload, { msgId: randomUUID() });
    await transport.idle();
    await waitFor('the upsert applied', () => outcomes.some((o) => o.profileId === payload.profileId && o.outcome === 'APPLIED'));
  }

  it("should refuse (409) another PBO's profile API write naming the MID/TID at the host by another name, either way round", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<string | null>(null, 'tcp://localhost:18583', 'tcp://LOCALHOST:18583', 'tcp://127.0.0.1:18583'), async (ownerHost) => {
        const [mid, tid] = [newMid(), uniqueTid()];
        // The owner's device, pushed by merchant-management (its acquirer's address as written).
        await applied(upsertPayload({ groupId: unique('grp_'), acceptances: [acceptance('ISO8583', ownerHost, mid, tid)] }));
        // Another PBO through the profile API (no address: the default host): a new profile, or its pushed acceptance moved.
        const other = await app.clientOf(unique('grp_'));
        const created = await other.post('/profiles', profileBody({ acceptances: [acceptanceBody({ primaryMid: mid, primaryTid: tid })] }));
        expect({ ownerHost, status: created.status }).toEqual({ ownerHost, status: 409 });
        expect(bodyOf<ProblemView>(created, 409).detail).toBe(`MID ${mid} / TID ${tid} at the default ISO8583 host is another PBO's terminal`);
        const pushed = upsertPayload({ groupId: other.groupId, acceptances: [acceptance('ISO8583', 'tcp://localhost:18583', newMid(), uniqueTid())] });
        await applied(pushed);
        const synced = bodyOf<{ acceptances: Array<Record<string, unknown>> }>(await other.get(`/profiles/${String(pushed.profileId)}`), 200);
        const moved = await other.put(`/profiles/${String(pushed.profileId)}`, profileBody({ acceptances: [{ ...acceptanceBody(), acptId: synced.acceptances[0].acptId, primaryMid: mid, primaryTid: tid }] }));
        expect({ ownerHost, status: moved.status }).toEqual({ ownerHost, status: 409 });
      }),
      { numRuns: 4 },
    );
  });

  it("should keep an idled or logged-out device's terminals its PBO's, and free them once it is decommissioned or its code deleted (r14h)", async () => {
    const [mid, tid] = [newMid(), uniqueTid()];
    const owner = unique('grp_');
    const profileId = `prof_${unique()}${unique()}`;
    const push = (version: number, lifecycle: Record<string, unknown>) =>
      applied(upsertPayload({ groupId: owner, profileId, version, acceptances: [acceptance('ISO8583', 'tcp://localhost:18583', mid, tid)], ...lifecycle }));
    const other = await app.clientOf(unique('grp_'));
    const take = () => other.post('/profiles', profileBody({ acceptances: [acceptanceBody({ primaryMid: mid, primaryTid: tid })] }));
    await push(1, { entityStatus: 'ACTIVE' });
    // Idled (or logged out): DISABLED, and the device may come back with its terminal.
    await push(2, { entityStatus: 'DISABLED', keepsTerminals: true });
    expect((await take()).status).toBe(409);
    // Back again: still the owner's.
    await push(3, { entityStatus: 'ACTIVE' });
    expect((await take()).status).toBe(409);
    // Decommissioned (or its code deleted): the terminal is free.
    await push(4, { entityStatus: 'DISABLED' });
    expect((await take()).status).toBe(201);
  });

  it('should take the same MID/TID at another port of the machine (another host)', async () => {
    const [mid, tid] = [newMid(), uniqueTid()];
    await applied(upsertPayload({ groupId: unique('grp_'), acceptances: [acceptance('ISO8583', 'tcp://localhost:18584', mid, tid)] }));
    const other = await app.clientOf(unique('grp_'));
    bodyOf(await other.post('/profiles', profileBody({ acceptances: [acceptanceBody({ primaryMid: mid, primaryTid: tid })] })), 201);
  });
});
