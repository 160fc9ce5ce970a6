import { AllowList } from '@app/common';
import { HOST_RESULTS, HostAddress, HostResponseV1, HostResultV1, HostTargetV1 } from '@app/contracts';
import fc from 'fast-check';
import { hostAccepted } from '../requests/host-request.service';
import { socketAddressOf, TerminalOwners } from './terminal-owners';
import { Claimed, TerminalAtAddress, TerminalClaimRepository } from './persistence/terminal-claim.repository';

const keyOf = (t: TerminalAtAddress) => `${t.format}|${t.address}|${t.mid}|${t.tid}`;

/** A claim store in memory with the repository's rule (first PBO keeps it; pending until confirmed, gone when released), counting the claims that reach it. */
class CountingClaims {
  readonly owners = new Map<string, { groupId: string; confirmed: boolean }>();
  calls = 0;
  async claim(groupId: string, terminals: readonly TerminalAtAddress[]): Promise<Claimed> {
    this.calls += 1;
    const keys = terminals.map(keyOf);
    if (keys.some((key) => (this.owners.get(key)?.groupId ?? groupId) !== groupId)) return { state: 'taken' };
    if (keys.every((key) => this.owners.get(key)?.confirmed === true)) return { state: 'confirmed' };
    for (const key of keys) this.owners.set(key, { groupId, confirmed: this.owners.get(key)?.confirmed ?? false });
    return { state: 'pending', since: new Date().toISOString(), made: true };
  }
  async confirm(groupId: string, terminals: readonly TerminalAtAddress[]): Promise<boolean> {
    for (const key of terminals.map(keyOf)) if ((this.owners.get(key)?.groupId ?? groupId) === groupId) this.owners.set(key, { groupId, confirmed: true });
    return true;
  }
  async release(groupId: string, terminals: readonly TerminalAtAddress[]): Promise<void> {
    for (const key of terminals.map(keyOf)) if (this.owners.get(key)?.groupId === groupId && !this.owners.get(key)!.confirmed) this.owners.delete(key);
  }
}

/** No default host, nothing allowed: these tests never release a terminal. */
const NO_HOSTS = { defaultUrls: {}, allowList: AllowList.parse('', { allowLoopback: false, variable: 'HOST_ALLOWLIST' }) };
const address: HostAddress = { format: 'ISO8583', transport: 'tcp', url: 'tcp://127.0.0.1:9', hostname: '127.0.0.1', port: 9, endpoint: '127.0.0.1:9' };
const target = (groupId: string, mid: string, tid: string) => ({ groupId, mid, tid, connUrl: null }) as unknown as HostTargetV1;

describe('TerminalOwners: what a process remembers', () => {
  it('should ask the store once per terminal its PBO holds, and still refuse every request of another PBO', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ group: fc.constantFrom('grp_a', 'grp_b'), terminal: fc.constantFrom(['M1', 'T1'], ['M1', 'T2'], ['M2 ', 'T1']) }), { minLength: 1, maxLength: 30 }),
        async (requests) => {
          const claims = new CountingClaims();
          const owners = new TerminalOwners(claims as unknown as TerminalClaimRepository, NO_HOSTS);
          const firstOwner = new Map<string, string>();
          const asked = new Set<string>();
          let expectedCalls = 0;
          for (const { group, terminal } of requests) {
            const key = terminal.join('|').trim();
            if (!firstOwner.has(key)) firstOwner.set(key, group);
            const mine = firstOwner.get(key) === group;
            // The store is asked unless this PBO was already seen holding the terminal.
            if (!(mine && asked.has(`${group}|${key}`))) expectedCalls += 1;
            if (mine) asked.add(`${group}|${key}`);
            const use = await owners.mayUse(target(group, terminal[0], terminal[1]), address);
            expect(use.ok).toBe(mine);
            await owners.settle(use, true);
          }
          expect(claims.calls).toBe(expectedCalls);
        },
      ),
    );
  });
});

describe('TerminalOwners: a claim stands only when the host accepted the terminal', () => {
  it('should leave the terminal free after any run of failed first requests, and give it to the first PBO the host accepted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ group: fc.constantFrom('grp_a', 'grp_b', 'grp_c'), accepted: fc.boolean() }), { minLength: 1, maxLength: 20 }),
        async (requests) => {
          const claims = new CountingClaims();
          const owners = new TerminalOwners(claims as unknown as TerminalClaimRepository, NO_HOSTS);
          let owner: string | undefined;
          for (const { group, accepted } of requests) {
            const use = await owners.mayUse(target(group, 'M1', 'T1'), address);
            // Sequential requests: a terminal is refused only to another PBO than the first one the host accepted.
            expect(use.ok).toBe(owner === undefined || owner === group);
            await owners.settle(use, accepted);
            if (use.ok && accepted && owner === undefined) owner = group;
          }
          expect([...claims.owners.values()]).toEqual(owner === undefined ? [] : [{ groupId: owner, confirmed: true }]);
        },
      ),
    );
  });
});

describe('TerminalOwners with hostAccepted: only an approval confirms a first claim', () => {
  const response = (result: HostResultV1, hostRespCode: string | null) => ({ requestId: 'r1', result, hostRespCode, hostRespMessage: '' }) as unknown as HostResponseV1;

  it("should leave a guessed terminal to its owner whatever the guesser's sign-ons were answered, unless one was approved", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ result: fc.constantFrom(...HOST_RESULTS), code: fc.option(fc.constantFrom('00', '05', '14', '58', '91'), { nil: null }) }), { minLength: 1, maxLength: 6 }),
        async (answers) => {
          const claims = new CountingClaims();
          const owners = new TerminalOwners(claims as unknown as TerminalClaimRepository, NO_HOSTS);
          // The guesser signs on first, with MID/TIDs read off a receipt; the host answers each time.
          for (const { result, code } of answers) {
            const use = await owners.mayUse(target('grp_guess', 'M1', 'T1'), address);
            if (!use.ok) break;
            await owners.settle(use, hostAccepted(response(result, code)));
          }
          const approvedFirst = answers.some(({ result }) => result === 'APPROVED');
          const owner = await owners.mayUse(target('grp_owner', 'M1', 'T1'), address);
          expect(owner.ok).toBe(!approvedFirst);
          if (!approvedFirst) expect([...claims.owners.values()]).toEqual([{ groupId: 'grp_owner', confirmed: false }]);
        },
      ),
    );
  });

  it('should tell a declined sign-on (answered, 05) from an approved one', () => {
    expect(hostAccepted(response('DECLINED', '05'))).toBe(false);
    expect(hostAccepted(response('APPROVED', '00'))).toBe(true);
  });
});

describe('TerminalOwners: an IPv4 host spelt as an IPv4-mapped IPv6 address is the same terminal', () => {
  /** Spellings of the IPv6 address that maps `ipv4`: dotted, hexadecimal, expanded, upper case. */
  const mappedSpellings = (ipv4: number[]) => {
    const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
    const [a, b, c, d] = ipv4;
    return fc.constantFrom(
      `::ffff:${a}.${b}.${c}.${d}`,
      `::ffff:${hex(a, b)}:${hex(c, d)}`,
      `0:0:0:0:0:ffff:${hex(a, b)}:${hex(c, d)}`,
      `0000:0000:0000:0000:0000:FFFF:${hex(a, b).toUpperCase()}:${hex(c, d).toUpperCase()}`,
    );
  };
  const ipv4 = fc.tuple(fc.integer({ min: 1, max: 223 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 }));
  const at = (hostname: string, port: number): HostAddress => ({ format: 'ISO8583', transport: 'tcp', url: `tcp://${hostname}:${port}`, hostname, port, endpoint: `${hostname}:${port}` });

  it('should name a mapped address as its IPv4 address, and refuse the other PBO whichever spelling came first', async () => {
    await fc.assert(
      fc.asyncProperty(
        ipv4.chain((parts) => fc.tuple(fc.constant(parts), mappedSpellings(parts))),
        fc.integer({ min: 1, max: 65535 }),
        fc.boolean(),
        async ([parts, mapped], port, mappedFirst) => {
          const dotted = parts.join('.');
          expect(socketAddressOf(mapped, port)).toBe(`${dotted}:${port}`);
          const owners = new TerminalOwners(new CountingClaims() as unknown as TerminalClaimRepository, NO_HOSTS);
          const [first, second] = mappedFirst ? [mapped, dotted] : [dotted, mapped];
          const owner = await owners.mayUse(target('grp_a', 'M1', 'T1'), at(first, port));
          await owners.settle(owner, true);

          expect(owner.ok).toBe(true);
          expect((await owners.mayUse(target('grp_b', 'M1', 'T1'), at(second, port))).ok).toBe(false);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('should keep other IPv6 addresses apart from IPv4 ones, in one lower-case spelling', () => {
    expect(socketAddressOf('::1', 9)).toBe('[::1]:9');
    expect(socketAddressOf('2001:DB8::1', 9)).toBe('[2001:db8::1]:9');
    expect(socketAddressOf('127.0.0.1', 9)).toBe('127.0.0.1:9');
  });
});
