/** How a {@link ReadThroughCache} keeps its values. */
export interface ReadThroughCacheOptions {
  /** How long a loaded value is answered without reading it again; 0 keeps nothing (every get loads). */
  ttlMs: number;
  /** Entries kept at most; the oldest goes first when full. */
  maxEntries: number;
  /** Milliseconds of a monotonic clock (tests pass their own). */
  now?: () => number;
}

/** Makes a loaded value read-only, so that no caller can change what the next caller is answered. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Values loaded on demand and answered again for `ttlMs`: for reads far more frequent than the
 * writes that change them (a sale reads its profile; profiles change a few times a day).
 * {@link invalidate}, called after a write commits, drops every entry, and a load that was under
 * way when it was called is neither kept nor joined (it may have read the state before the write):
 * a read that starts after the call always sees the write. Concurrent gets of one key share one
 * load. Values are frozen: callers read them, never change them.
 */
export class ReadThroughCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly loading = new Map<string, { generation: number; value: Promise<V> }>();
  private generation = 0;
  private readonly now: () => number;

  constructor(private readonly options: ReadThroughCacheOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** The value of `key`: kept, or loaded by `load` (and kept when `keep` says so: an absent row is not worth keeping). */
  get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const startedAt = this.now();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > startedAt) return Promise.resolve(entry.value);
    if (entry) this.entries.delete(key);
    const generation = this.generation;
    const under = this.loading.get(key);
    if (under && under.generation === generation) return under.value;
    const value = load().then(
      (loaded) => {
        if (this.loading.get(key)?.value === value) this.loading.delete(key);
        if (generation === this.generation && this.options.ttlMs > 0 && keep(loaded)) this.keep(key, deepFreeze(loaded), startedAt + this.options.ttlMs);
        return loaded;
      },
      (error: unknown) => {
        if (this.loading.get(key)?.value === value) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, { generation, value });
    return value;
  }

  /** Forgets every value, and every load under way: call it once a write that may change them has committed. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
  }

  /** Entries kept now (tests). */
  get size(): number {
    return this.entries.size;
  }

  private keep(key: string, value: V, expiresAt: number): void {
    this.entries.delete(key);
    while (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt });
  }
}
