import { HostAddress, HostTargetV1 } from '@app/contracts';
import fc from 'fast-check';
import { TerminalOwners } from './terminal-owners';
import { TerminalAtAddress, TerminalClaimRepository } from './persistence/terminal-claim.repository';

/** A claim store in memory with the repository's rule (first PBO keeps it), counting the calls that reach it. */
class CountingClaims {
  readonly owners = new Map<string, string>();
  calls = 0;
  async claim(groupId: string, terminals: readonly TerminalAtAddress[]): Promise<boolean> {
    this.calls += 1;
    const keys = terminals.map((t) => `${t.format}|${t.address}|${t.mid}|${t.tid}`);
    if (keys.some((key) => (this.owners.get(key) ?? groupId) !== groupId)) return false;
    for (const key of keys) this.owners.set(key, groupId);
    return true;
  }
}

const address: HostAddress = { format: 'ISO8583', transport: 'tcp', url: 'tcp://127.0.0.1:9', hostname: '127.0.0.1', port: 9, endpoint: '127.0.0.1:9' };
const target = (groupId: string, mid: string, tid: string) => ({ groupId, mid, tid, connUrl: null }) as unknown as HostTargetV1;

describe('TerminalOwners: what a process remembers', () => {
  it('should ask the store once per terminal its PBO holds, and still refuse every request of another PBO', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ group: fc.constantFrom('grp_a', 'grp_b'), terminal: fc.constantFrom(['M1', 'T1'], ['M1', 'T2'], ['M2 ', 'T1']) }), { minLength: 1, maxLength: 30 }),
        async (requests) => {
          const claims = new CountingClaims();
          const owners = new TerminalOwners(claims as unknown as TerminalClaimRepository);
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
          }
          expect(claims.calls).toBe(expectedCalls);
        },
      ),
    );
  });
});
