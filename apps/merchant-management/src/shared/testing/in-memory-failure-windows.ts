/**
 * A failure-window table in memory (what `FailureWindowTable` keeps in PostgreSQL): counts per key
 * and window, for the unit tests of the throttles. Keys are compared by their JSON.
 */
export class InMemoryFailureWindows<K> {
  readonly counts = new Map<string, number>();

  private slot(key: K, windowStart: Date): string {
    return `${JSON.stringify(key)}@${windowStart.toISOString()}`;
  }

  async reserve(key: K, windowStart: Date): Promise<number> {
    const slot = this.slot(key, windowStart);
    this.counts.set(slot, (this.counts.get(slot) ?? 0) + 1);
    return this.counts.get(slot)!;
  }

  async release(key: K, windowStart: Date): Promise<void> {
    const slot = this.slot(key, windowStart);
    const left = (this.counts.get(slot) ?? 1) - 1;
    if (left <= 0) this.counts.delete(slot);
    else this.counts.set(slot, left);
  }
}
