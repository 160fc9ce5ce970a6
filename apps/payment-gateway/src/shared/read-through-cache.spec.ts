import fc from 'fast-check';
import { ReadThroughCache } from './read-through-cache';

/** A load the test finishes when it wants: what a read of PostgreSQL is to the cache. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('ReadThroughCache', () => {
  it('should answer what the store holds as of the last invalidation, for any interleaving of writes, reads and the passing of time', async () => {
    // The store's value changes only with a write, and each write is followed by invalidate(): every get must answer the current value,
    // whatever the clock does, since a value is kept at most ttlMs and dropped at each write.
    type Step = { kind: 'write' } | { kind: 'read'; key: number } | { kind: 'tick'; ms: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.constant({ kind: 'write' as const }),
      fc.record({ kind: fc.constant('read' as const), key: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 150 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), fc.integer({ min: 0, max: 200 }), async (steps, ttlMs) => {
        let now = 0;
        let revision = 0;
        let loads = 0;
        const cache = new ReadThroughCache<{ key: number; revision: number }>({ ttlMs, maxEntries: 2, now: () => now });
        for (const next of steps) {
          if (next.kind === 'write') {
            revision += 1;
            cache.invalidate();
          } else if (next.kind === 'tick') {
            now += next.ms;
          } else {
            const value = await cache.get(String(next.key), async () => {
              loads += 1;
              return { key: next.key, revision };
            });
            expect(value).toEqual({ key: next.key, revision });
          }
        }
        expect(loads).toBeLessThanOrEqual(steps.filter((each) => each.kind === 'read').length);
      }),
    );
  });

  it('should keep a value for its TTL only, and not at all with a TTL of 0', async () => {
    let now = 0;
    let loads = 0;
    const load = async () => ++loads;
    const cache = new ReadThroughCache<number>({ ttlMs: 100, maxEntries: 10, now: () => now });

    expect([await cache.get('a', load), await cache.get('a', load)]).toEqual([1, 1]);
    now = 99;
    expect(await cache.get('a', load)).toBe(1);
    now = 100;
    expect(await cache.get('a', load)).toBe(2);

    const uncached = new ReadThroughCache<number>({ ttlMs: 0, maxEntries: 10, now: () => now });
    expect([await uncached.get('a', load), await uncached.get('a', load)]).toEqual([3, 4]);
    expect(uncached.size).toBe(0);
  });

  it('should neither keep nor share a load that was under way when invalidated: it may have read the state before the write', async () => {
    const cache = new ReadThroughCache<string>({ ttlMs: 60_000, maxEntries: 10 });
    const before = deferred<string>();
    const early = cache.get('p', () => before.promise);
    // A second get while the first load runs shares it.
    const joined = cache.get('p', () => Promise.resolve('second load'));

    cache.invalidate();
    const after = cache.get('p', () => Promise.resolve('after the write'));
    before.resolve('before the write');

    expect(await Promise.all([early, joined, after])).toEqual(['before the write', 'before the write', 'after the write']);
    expect(await cache.get('p', () => Promise.resolve('not loaded'))).toBe('after the write');
  });

  it('should keep nothing that `keep` refuses, forget a failed load, and drop the oldest entry when full', async () => {
    const cache = new ReadThroughCache<string | null>({ ttlMs: 60_000, maxEntries: 2 });

    expect(await cache.get('absent', async () => null, (value) => value !== null)).toBeNull();
    expect(await cache.get('absent', async () => 'created since')).toBe('created since');
    await expect(cache.get('failing', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.get('failing', async () => 'back')).toBe('back');

    await cache.get('third', async () => 'third');
    expect(cache.size).toBe(2);
    expect(await cache.get('absent', async () => 'reloaded')).toBe('reloaded');
  });

  it('should hand out values no caller can change', async () => {
    const cache = new ReadThroughCache<{ profile: { status: string }; acceptances: string[] }>({ ttlMs: 60_000, maxEntries: 10 });
    const value = await cache.get('p', async () => ({ profile: { status: 'ACTIVE' }, acceptances: ['acpt_1'] }));

    expect(() => (value.profile.status = 'DISABLED')).toThrow(TypeError);
    expect(() => value.acceptances.push('acpt_2')).toThrow(TypeError);
    expect(await cache.get('p', async () => ({ profile: { status: 'other' }, acceptances: [] }))).toEqual({ profile: { status: 'ACTIVE' }, acceptances: ['acpt_1'] });
  });
});
