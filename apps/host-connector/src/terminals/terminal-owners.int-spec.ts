import { AllowList } from '@app/common';
import { GatewayTerminalReleasedV1, HostTargetV1, parseHostUrl } from '@app/contracts';
import { openContextDataSource } from '@app/database';
import { createTestDatabase, TestDatabase } from '@app/testing';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { hostConnectorDatabase } from '../database';
import { TerminalClaimRepository } from './persistence/terminal-claim.repository';
import { socketAddressesOfHost, TerminalOwners } from './terminal-owners';

/** The connector's hosts in these tests: a default ISO 8583 host, and loopback names and addresses of one more port. */
const HOSTS = {
  defaultUrls: { ISO8583: 'tcp://127.0.0.1:41000' },
  allowList: AllowList.parse('127.0.0.1:41000,127.0.0.1:41001,localhost:41001,[::1]:41001', { allowLoopback: true, variable: 'HOST_ALLOWLIST' }),
};

/** Who may use a terminal at the host connector (docs/decisions.md, "One owner per terminal, whatever the spelling"), against two replicas' connections. */
describe('TerminalOwners', () => {
  let database: TestDatabase;
  let replicaA: DataSource;
  let replicaB: DataSource;
  let ownersA: TerminalOwners;
  let ownersB: TerminalOwners;
  let sequence = 0;

  beforeAll(async () => {
    database = await createTestDatabase('terminal_claim');
    replicaA = await openContextDataSource(database.url, hostConnectorDatabase);
    replicaB = await openContextDataSource(database.url, hostConnectorDatabase);
    ownersA = new TerminalOwners(new TerminalClaimRepository(replicaA), HOSTS);
    ownersB = new TerminalOwners(new TerminalClaimRepository(replicaB), HOSTS);
  });

  afterAll(async () => {
    await replicaA.destroy();
    await replicaB.destroy();
    await database.drop();
  });

  const claimsOf = (mid: string, tid: string) =>
    replicaA.query(`SELECT group_id AS "groupId", confirmed_at IS NOT NULL AS confirmed FROM terminal_claim WHERE mid = $1 AND tid = $2`, [mid, tid]);
  const terminal = () => ({ mid: `MID${String((sequence += 1)).padStart(6, '0')}`, tid: `T${String(sequence).padStart(7, '0')}` });
  const target = (groupId: string | undefined, connUrl: string | null, mid: string, tid: string): HostTargetV1 => ({
    hostMessageFormat: 'ISO8583',
    connUrl,
    acptId: 'acpt_1',
    mid,
    tid,
    ...(groupId === undefined ? {} : { groupId }),
  });
  const at = (url: string) => parseHostUrl('ISO8583', url);

  it("should refuse B every spelling of A's terminal (address name, IP, padded MID/TID) and keep taking A's", async () => {
    const spelling = fc.record({
      host: fc.constantFrom('127.0.0.1', 'localhost', 'LOCALHOST'),
      slash: fc.constantFrom('', '/'),
      midPad: fc.nat({ max: 6 }),
      tidPad: fc.nat({ max: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(spelling, spelling, async (first, second) => {
        const { mid, tid } = terminal();
        const urlOf = (s: typeof first) => `tcp://${s.host}:40513${s.slash}`;
        const spell = (s: typeof first) => [`${mid}${' '.repeat(s.midPad)}`, `${tid}${' '.repeat(s.tidPad)}`] as const;
        expect(await ownersA.mayUse(target('grp_a', urlOf(first), ...spell(first)), at(urlOf(first)))).toMatchObject({ ok: true });

        const refused = await ownersB.mayUse(target('grp_b', urlOf(second), ...spell(second)), at(urlOf(second)));

        expect(refused).toEqual({ ok: false, result: 'REJECTED', message: expect.stringMatching(new RegExp(`^MID ${mid} / TID ${tid} at ISO8583 host tcp://\\S+ is another PBO's terminal; nothing was sent$`)) });
        expect(JSON.stringify(refused)).not.toContain('grp_a');
        expect(await ownersA.mayUse(target('grp_a', urlOf(second), ...spell(second)), at(urlOf(second)))).toMatchObject({ ok: true });
      }),
      { numRuns: 15 },
    );
  });

  it('should name the host "the default" when the acceptance names none, and leave another MID, TID, port or format free', async () => {
    const { mid, tid } = terminal();
    await ownersA.mayUse(target('grp_a', null, mid, tid), at('tcp://127.0.0.1:40600'));
    expect(await ownersB.mayUse(target('grp_b', null, mid, tid), at('tcp://127.0.0.1:40600'))).toEqual(
      expect.objectContaining({ ok: false, message: `MID ${mid} / TID ${tid} at the default ISO8583 host is another PBO's terminal; nothing was sent` }),
    );
    expect(await ownersB.mayUse(target('grp_b', null, `${mid}X`, tid), at('tcp://127.0.0.1:40600'))).toMatchObject({ ok: true });
    expect(await ownersB.mayUse(target('grp_b', null, mid, `${tid.slice(0, 7)}X`), at('tcp://127.0.0.1:40600'))).toMatchObject({ ok: true });
    expect(await ownersB.mayUse(target('grp_b', null, mid, tid), at('tcp://127.0.0.1:40601'))).toMatchObject({ ok: true });
    expect(await ownersB.mayUse(target('grp_b', null, mid, tid), parseHostUrl('S2M_8583', 'tcp://127.0.0.1:40600'))).toMatchObject({ ok: true });
  });

  it('should let exactly one of two PBOs asking at once through, on two replicas', async () => {
    for (let round = 0; round < 10; round += 1) {
      const { mid, tid } = terminal();
      const answers = await Promise.all([
        ownersA.mayUse(target('grp_a', 'tcp://localhost:40700', mid, tid), at('tcp://localhost:40700')),
        ownersB.mayUse(target('grp_b', 'tcp://127.0.0.1:40700', mid, tid), at('tcp://127.0.0.1:40700')),
      ]);
      expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
      const rows = await replicaA.query(`SELECT DISTINCT group_id FROM terminal_claim WHERE mid = $1 AND tid = $2`, [mid, tid]);
      expect(rows).toHaveLength(1);
    }
  });

  it('should not judge requests that name no PBO (older callers)', async () => {
    const { mid, tid } = terminal();
    await ownersA.mayUse(target('grp_a', null, mid, tid), at('tcp://127.0.0.1:40800'));
    expect(await ownersB.mayUse(target(undefined, null, mid, tid), at('tcp://127.0.0.1:40800'))).toMatchObject({ ok: true });
  });

  describe('a claim the host never accepted', () => {

    it('should hold the terminal while the first request is pending, free it when the request failed, and keep it once the host accepted', async () => {
      const { mid, tid } = terminal();
      const url = 'tcp://127.0.0.1:40900';
      const first = await ownersA.mayUse(target('grp_a', url, mid, tid), at(url));
      expect(first).toMatchObject({ ok: true, pending: { groupId: 'grp_a' } });
      // Pending: another PBO is refused meanwhile (race-safe as before).
      expect(await ownersB.mayUse(target('grp_b', url, mid, tid), at(url))).toMatchObject({ ok: false, result: 'REJECTED' });

      await ownersA.settle(first, false);
      expect(await claimsOf(mid, tid)).toEqual([]);

      const second = await ownersB.mayUse(target('grp_b', url, mid, tid), at(url));
      expect(second.ok).toBe(true);
      await ownersB.settle(second, true);
      expect(await claimsOf(mid, tid)).toEqual([{ groupId: 'grp_b', confirmed: true }]);
      // Confirmed: a later failure of the owner keeps it, and A is refused.
      const third = await ownersB.mayUse(target('grp_b', url, mid, tid), at(url));
      await ownersB.settle(third, false);
      expect(await ownersA.mayUse(target('grp_a', url, mid, tid), at(url))).toMatchObject({ ok: false, result: 'REJECTED' });
      expect(await claimsOf(mid, tid)).toEqual([{ groupId: 'grp_b', confirmed: true }]);
    });

    it("should let another PBO take a pending claim left by a process that stopped, once stale", async () => {
      const { mid, tid } = terminal();
      const url = 'tcp://127.0.0.1:40901';
      expect((await ownersA.mayUse(target('grp_a', url, mid, tid), at(url))).ok).toBe(true);
      await replicaA.query(`UPDATE terminal_claim SET claimed_at = now() - interval '11 minutes' WHERE mid = $1 AND tid = $2`, [mid, tid]);

      const taken = await ownersB.mayUse(target('grp_b', url, mid, tid), at(url));

      expect(taken).toMatchObject({ ok: true, pending: { groupId: 'grp_b' } });
      expect(await claimsOf(mid, tid)).toEqual([{ groupId: 'grp_b', confirmed: false }]);
    });

    // Reviews r14p, r14q: a repeat (answered from the log, or waiting for its first transmission) sent nothing; a concurrent
    // request of the PBO that failed found the claim pending. Neither releases the first request's claim.
    it("should leave the first request's pending claim to it when another request of the PBO ends unaccepted, and release one a request made", async () => {
      const { mid, tid } = terminal();
      const url = 'tcp://127.0.0.1:40903';
      const first = await ownersA.mayUse(target('grp_a', url, mid, tid), at(url));
      const repeat = await ownersB.mayUse(target('grp_a', url, mid, tid), at(url));
      expect([first, repeat]).toMatchObject([{ pending: { made: true } }, { pending: { made: false } }]);

      await ownersB.settle(repeat, false);

      expect(await claimsOf(mid, tid)).toEqual([{ groupId: 'grp_a', confirmed: false }]);
      expect(await ownersB.mayUse(target('grp_b', url, mid, tid), at(url))).toMatchObject({ ok: false, result: 'REJECTED' });
      await ownersA.settle(first, true);
      expect(await claimsOf(mid, tid)).toEqual([{ groupId: 'grp_a', confirmed: true }]);

      const other = terminal();
      const alone = await ownersA.mayUse(target('grp_a', url, other.mid, other.tid), at(url));
      await ownersA.settle(alone, false);
      expect(await claimsOf(other.mid, other.tid)).toEqual([]);
    });

    it("should claim again on the host's acceptance a terminal a failed request of the same PBO released meanwhile", async () => {
      const { mid, tid } = terminal();
      const url = 'tcp://127.0.0.1:40902';
      const [slow, failing] = [await ownersA.mayUse(target('grp_a', url, mid, tid), at(url)), await ownersB.mayUse(target('grp_a', url, mid, tid), at(url))];
      await ownersB.settle(failing, false);
      await ownersA.settle(slow, true);
      expect(await claimsOf(mid, tid)).toEqual([{ groupId: 'grp_a', confirmed: true }]);
    });

    it("should list and release claims by the operator's filters", async () => {
      const repository = new TerminalClaimRepository(replicaA);
      const { mid, tid } = terminal();
      const url = 'tcp://127.0.0.1:40903';
      await ownersA.settle(await ownersA.mayUse(target('grp_list', url, mid, tid), at(url)), true);
      const other = terminal();
      await ownersA.mayUse(target('grp_list', url, other.mid, other.tid), at(url));

      expect((await repository.list({ groupId: 'grp_list' })).map((row) => [row.tid, row.confirmedAt !== null])).toEqual(
        [[tid, true], [other.tid, false]].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      );
      expect(await repository.list({ groupId: 'grp_list', pending: true })).toEqual([
        expect.objectContaining({ format: 'ISO8583', address: '127.0.0.1:40903', mid: other.mid, tid: other.tid, groupId: 'grp_list', confirmedAt: null }),
      ]);
      await expect(repository.releaseMatching({})).rejects.toThrow('at least one filter');
      expect(await repository.releaseMatching({ groupId: 'grp_list', tid })).toEqual([expect.objectContaining({ tid, groupId: 'grp_list' })]);
      expect((await repository.list({ groupId: 'grp_list' })).map((row) => row.tid)).toEqual([other.tid]);
    });
  });
  describe('a terminal the gateway released (gateway.terminal.released.v1)', () => {
    const GROUPS = ['grp_rel_a', 'grp_rel_b', 'grp_rel_c'];
    const FORMATS = ['ISO8583', 'S2M_8583'] as const;
    const ADDRESSES = ['127.0.0.1:41000', '127.0.0.1:41001', '[::1]:41001', '10.9.9.9:41001'];
    type Row = { format: string; address: string; mid: string; tid: string; groupId: string; confirmed: boolean };
    const rowsOf = async (mid: string): Promise<Row[]> =>
      replicaA.query(
        `SELECT format, address, mid, tid, group_id AS "groupId", confirmed_at IS NOT NULL AS confirmed FROM terminal_claim WHERE mid LIKE $1 ORDER BY format, address, mid, tid`,
        [`${mid}%`],
      );
    const released = (groupId: string, mid: string, tid: string, hostAddress?: string, hostMessageFormat: 'ISO8583' | 'S2M_8583' = 'ISO8583'): GatewayTerminalReleasedV1 => ({
      groupId,
      hostMessageFormat,
      ...(hostAddress === undefined ? {} : { hostAddress }),
      mid,
      tid,
      releasedAt: new Date().toISOString(),
    });

    // Hosts an event may name: the default, an address, a name, one not on the allow-list, one that does not resolve, none at all.
    const HOSTS_NAMED = ['', 'tcp://127.0.0.1:41001', 'tcp://localhost:41001', 'tcp://10.9.9.9:41001', 'tcp://no-such-host.invalid:41001', undefined] as const;
    /** The addresses whose claims of the PBO go: the host as a claim resolves it, or every address when it cannot be resolved for the PBO. */
    async function addressesReleased(hostAddress: string | undefined): Promise<string[] | null> {
      if (hostAddress === undefined || hostAddress.includes('10.9.9.9') || hostAddress.includes('.invalid')) return null;
      return socketAddressesOfHost(parseHostUrl('ISO8583', hostAddress === '' ? HOSTS.defaultUrls.ISO8583 : hostAddress));
    }

    // Review r14o: a first request (a sale, or a refund after an address edit) still out when the gateway releases the terminal.

    it.each([
      ['at its address', 'tcp://127.0.0.1:41001'],
      ['at every address (the host could not be told)', undefined],
    ])("should not confirm a claim the gateway released %s while its request was out, nor remember it, and let another PBO take the terminal", async (_, hostAddress) => {
      const { mid, tid } = terminal();
      const url = 'tcp://127.0.0.1:41001';
      const inFlight = await ownersA.mayUse(target('grp_a', url, mid, tid), at(url));
      expect(inFlight).toMatchObject({ ok: true, pending: { groupId: 'grp_a' } });
      await ownersB.released({ groupId: 'grp_a', hostMessageFormat: 'ISO8583', ...(hostAddress === undefined ? {} : { hostAddress }), mid, tid, releasedAt: new Date().toISOString() });

      await ownersA.settle(inFlight, true);

      expect(await claimsOf(mid, tid)).toEqual([]);
      const taken = await ownersB.mayUse(target('grp_b', url, mid, tid), at(url));
      expect(taken).toMatchObject({ ok: true, pending: { groupId: 'grp_b' } });
      await ownersB.settle(taken, true);
      expect(await ownersA.mayUse(target('grp_a', url, mid, tid), at(url))).toMatchObject({ ok: false, result: 'REJECTED' });
      expect(await claimsOf(mid, tid)).toEqual([{ groupId: 'grp_b', confirmed: true }]);
    });

    it('should let a request the PBO begins after a release claim the terminal again', async () => {
      const { mid, tid } = terminal();
      const url = 'tcp://127.0.0.1:41001';
      await ownersA.settle(await ownersA.mayUse(target('grp_a', url, mid, tid), at(url)), true);
      await ownersA.released({ groupId: 'grp_a', hostMessageFormat: 'ISO8583', hostAddress: url, mid, tid, releasedAt: new Date().toISOString() });

      const again = await ownersA.mayUse(target('grp_a', url, mid, tid), at(url));
      await ownersA.settle(again, true);

      expect(await claimsOf(mid, tid)).toEqual([{ groupId: 'grp_a', confirmed: true }]);
    });

    it("should delete exactly the released PBO's claims of that format, MID and TID at the host's addresses, pending or confirmed, and nobody else's", async () => {
      const row = fc.record({
        format: fc.constantFrom(...FORMATS),
        address: fc.constantFrom(...ADDRESSES),
        mid: fc.constantFrom('M1', 'M2'),
        tid: fc.constantFrom('T1', 'T2'),
        groupId: fc.constantFrom(...GROUPS),
        confirmed: fc.boolean(),
      });
      const rows = fc.uniqueArray(row, { maxLength: 16, selector: (r) => `${r.format}|${r.address}|${r.mid}|${r.tid}` });
      const event = fc.record({
        groupId: fc.constantFrom(...GROUPS),
        format: fc.constantFrom(...FORMATS),
        host: fc.constantFrom(...HOSTS_NAMED),
        mid: fc.constantFrom('M1', 'M2'),
        tid: fc.constantFrom('T1', 'T2'),
        // A redelivery: the same event again.
        times: fc.integer({ min: 1, max: 2 }),
      });
      let round = 0;
      await fc.assert(
        fc.asyncProperty(rows, event, async (claims, released_) => {
          const prefix = `R${(round += 1)}X`;
          const stored = claims.map((claim) => ({ ...claim, mid: `${prefix}${claim.mid}` }));
          for (const claim of stored) {
            await replicaA.query(
              `INSERT INTO terminal_claim (format, address, mid, tid, group_id, confirmed_at) VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 THEN now() END)`,
              [claim.format, claim.address, claim.mid, claim.tid, claim.groupId, claim.confirmed],
            );
          }
          const mid = `${prefix}${released_.mid}`;
          // The S2M_8583 default is not configured: its '' names no address either.
          const addresses = released_.format === 'S2M_8583' && released_.host === '' ? null : await addressesReleased(released_.host);
          const gone = (claim: Row) =>
            claim.groupId === released_.groupId &&
            claim.format === released_.format &&
            claim.mid === mid &&
            claim.tid === released_.tid &&
            (addresses === null || addresses.includes(claim.address));

          for (let time = 0; time < released_.times; time += 1) await ownersB.released(released(released_.groupId, mid, released_.tid, released_.host, released_.format));

          const sorted = (list: Row[]) => [...list].sort((a, b) => `${a.format}|${a.address}|${a.mid}|${a.tid}`.localeCompare(`${b.format}|${b.address}|${b.mid}|${b.tid}`));
          expect(sorted(await rowsOf(prefix))).toEqual(sorted(stored.filter((claim) => !gone(claim))));
        }),
        { numRuns: 60 },
      );
    });

    it("should send the released PBO's next request back to the claim (nothing remembered), and let the other PBO take the terminal", async () => {
      const { mid, tid } = terminal();
      const url = HOSTS.defaultUrls.ISO8583;
      await ownersA.settle(await ownersA.mayUse(target('grp_rel_a', null, mid, tid), at(url)), true);
      // Remembered: A's next request reads nothing.
      expect(await ownersA.mayUse(target('grp_rel_a', null, mid, tid), at(url))).toEqual({ ok: true });
      expect(await ownersB.mayUse(target('grp_rel_b', null, mid, tid), at(url))).toMatchObject({ ok: false, result: 'REJECTED' });

      expect(await ownersA.released(released('grp_rel_a', mid, tid, ''))).toEqual(['127.0.0.1:41000']);

      const again = await ownersA.mayUse(target('grp_rel_a', null, mid, tid), at(url));
      expect(again).toMatchObject({ ok: true, pending: { groupId: 'grp_rel_a' } });
      await ownersA.settle(again, false);
      const b = await ownersB.mayUse(target('grp_rel_b', null, mid, tid), at(url));
      expect(b).toMatchObject({ ok: true, pending: { groupId: 'grp_rel_b' } });
      await ownersB.settle(b, true);

      // A's release arriving again (a redelivery, or late after B signed on) never touches B's claim.
      expect(await ownersA.released(released('grp_rel_a', mid, tid, ''))).toEqual([]);
      expect(await ownersB.released(released('grp_rel_a', mid, tid))).toEqual([]);
      expect(await replicaA.query(`SELECT group_id AS "groupId", confirmed_at IS NOT NULL AS confirmed FROM terminal_claim WHERE mid = $1 AND tid = $2`, [mid, tid])).toEqual([
        { groupId: 'grp_rel_b', confirmed: true },
      ]);
      expect(await ownersA.mayUse(target('grp_rel_a', null, mid, tid), at(url))).toMatchObject({ ok: false, result: 'REJECTED' });
    });
  });
});
