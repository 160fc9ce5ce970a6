import fc from 'fast-check';
import { DomainError } from '../errors';
import { ErrorCode } from '../errors/error-code';
import { GroupDirectory, isUsableGroupId, KnownGroups, KnownGroupsSettings, printable } from './known-groups';

/** A directory whose groups come and go and which can stop answering; counts its lookups. */
class ScriptedDirectory implements GroupDirectory {
  readonly groups = new Set<string>();
  down = false;
  lookups = 0;

  exists(groupId: string): Promise<boolean> {
    this.lookups += 1;
    if (this.down) return Promise.reject(new Error('NO_RESPONDERS'));
    return Promise.resolve(this.groups.has(groupId));
  }
}

const refused = () => DomainError.unauthenticated('bearer token is invalid');

/** What `require` did: taken, refused with the token's own 401, or failed because the directory is unreachable. */
async function outcomeOf(known: KnownGroups, groupId: string): Promise<'taken' | 'refused' | 'unreachable'> {
  try {
    await known.require(groupId, refused);
    return 'taken';
  } catch (error) {
    if (error instanceof DomainError && error.code === ErrorCode.Unauthenticated) return 'refused';
    if (error instanceof DomainError && error.code === ErrorCode.Upstream) return 'unreachable';
    throw error;
  }
}

describe('KnownGroups', () => {
  let now: number;
  let directory: ScriptedDirectory;
  const settings = (): KnownGroupsSettings => ({ ttlMs: 30_000, staleIfErrorMs: 300_000, maxEntries: 3, now: () => now });

  beforeEach(() => {
    now = 1_000_000;
    directory = new ScriptedDirectory();
  });

  it('should answer as the directory did no longer than the cache time ago, whatever the groups do meanwhile', async () => {
    type Step = { kind: 'wait'; ms: number } | { kind: 'create' | 'delete' | 'ask'; group: number };
    const step = fc.oneof(
      // Short waits, and waits about the cache time, where a stale answer would show.
      fc.record({ kind: fc.constant('wait' as const), ms: fc.oneof(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 25_000, max: 45_000 })) }),
      fc.record({ kind: fc.constantFrom('create' as const, 'delete' as const, 'ask' as const), group: fc.integer({ min: 0, max: 2 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps: Step[]) => {
        now = 1_000_000;
        directory = new ScriptedDirectory();
        const known = new KnownGroups(directory, settings());
        // When each group last existed or not: the answer must be what was true at some instant of the last ttlMs.
        const history = new Map<string, Array<{ at: number; exists: boolean }>>();
        const truthWithin = (group: string, from: number): Set<boolean> => {
          const changes = history.get(group) ?? [];
          const values = new Set<boolean>();
          let current = false;
          for (const change of changes) {
            if (change.at <= from) current = change.exists;
            else values.add(change.exists);
          }
          values.add(current);
          return values;
        };
        for (const next of steps) {
          if (next.kind === 'wait') {
            now += next.ms;
            continue;
          }
          const group = `grp_${next.group}`;
          if (next.kind === 'ask') {
            const outcome = await outcomeOf(known, group);
            expect(outcome).not.toBe('unreachable');
            expect(truthWithin(group, now - 30_000)).toContain(outcome === 'taken');
          } else {
            if (next.kind === 'create') directory.groups.add(group);
            else directory.groups.delete(group);
            history.set(group, [...(history.get(group) ?? []), { at: now, exists: next.kind === 'create' }]);
          }
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('should refuse a group that does not exist with the refusal the caller gives (the token\'s own 401)', async () => {
    await expect(new KnownGroups(directory, settings()).require('grp_none', refused)).rejects.toThrow('bearer token is invalid');
  });

  it('should ask the directory once for many concurrent checks of one group', async () => {
    directory.groups.add('grp_a');
    const known = new KnownGroups(directory, settings());

    const outcomes = await Promise.all(Array.from({ length: 20 }, () => outcomeOf(known, 'grp_a')));

    expect(new Set(outcomes)).toEqual(new Set(['taken']));
    expect(directory.lookups).toBe(1);
  });

  it('should take a group known to exist while the directory is down, up to the stale bound, and then answer 502', async () => {
    directory.groups.add('grp_a');
    const known = new KnownGroups(directory, settings());
    expect(await outcomeOf(known, 'grp_a')).toBe('taken');
    directory.down = true;

    now += 31_000;
    expect(await outcomeOf(known, 'grp_a')).toBe('taken');
    const asked = directory.lookups;
    // While it is down the directory is asked again once per cache time, not on every request.
    now += 29_000;
    expect(await outcomeOf(known, 'grp_a')).toBe('taken');
    expect(directory.lookups).toBe(asked);
    now += 238_000;
    expect(await outcomeOf(known, 'grp_a')).toBe('taken');
    now += 31_000;
    expect(await outcomeOf(known, 'grp_a')).toBe('unreachable');
    // A group never learnt is not taken on trust.
    expect(await outcomeOf(known, 'grp_b')).toBe('unreachable');
  });

  it('should not take a group known not to exist while the directory is down', async () => {
    const known = new KnownGroups(directory, settings());
    expect(await outcomeOf(known, 'grp_gone')).toBe('refused');
    directory.down = true;
    now += 31_000;

    expect(await outcomeOf(known, 'grp_gone')).toBe('unreachable');
  });

  it('should remember at most maxEntries groups, forgetting the oldest answer first', async () => {
    for (const group of ['a', 'b', 'c', 'd']) directory.groups.add(group);
    const known = new KnownGroups(directory, settings());
    for (const group of ['a', 'b', 'c', 'd']) await outcomeOf(known, group);
    const before = directory.lookups;

    await outcomeOf(known, 'd');
    await outcomeOf(known, 'a');

    expect(directory.lookups - before).toBe(1);
  });
});

describe('group ids from tokens', () => {
  const control = fc.oneof(fc.integer({ min: 0x00, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f })).map((code) => String.fromCharCode(code));

  it('should refuse a group id holding a control character without asking the directory, even a group it knows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 20 }), control, async (text, char) => {
        const directory = new ScriptedDirectory();
        const groupId = `${text}${char}`;
        directory.groups.add(groupId);
        expect(await outcomeOf(new KnownGroups(directory), groupId)).toBe('refused');
        expect(directory.lookups).toBe(0);
      }),
    );
  });

  it('should print any text without a control character or lone surrogate, and leave printable text as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        expect(printable(text)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
        expect(printable(text)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
        expect(isUsableGroupId(text)).toBe(text.length > 0 && text.length <= 64 && printable(text) === text);
      }),
    );
    expect(printable('grp_ä 1')).toBe('grp_ä 1');
    expect(printable('a\u0000b\n')).toBe('a\\u0000b\\u000a');
  });
});
