import { AdminCheckStart, AdminThrottleKey } from '../persistence/device-admin-throttle.repository';

/** `device_admin_throttle` in memory (what `DeviceAdminThrottleRepository` keeps in PostgreSQL), for the unit tests. */
export class InMemoryAdminThrottle {
  /** Per device and window (by their JSON): refusals and checks under way. */
  readonly rows = new Map<string, { failures: number; inFlight: number }>();

  private slot(key: AdminThrottleKey, windowStart: Date): string {
    return `${JSON.stringify(key)}@${windowStart.toISOString()}`;
  }

  /** The refusals of each window counted. */
  refusals(): number[] {
    return [...this.rows.values()].map((row) => row.failures);
  }

  async begin(key: AdminThrottleKey, windowStart: Date, limit: number): Promise<AdminCheckStart> {
    const row = this.rows.get(this.slot(key, windowStart)) ?? { failures: 0, inFlight: 0 };
    if (row.failures + row.inFlight >= limit) return row.failures >= limit ? 'THROTTLED' : 'BUSY';
    this.rows.set(this.slot(key, windowStart), { ...row, inFlight: row.inFlight + 1 });
    return 'STARTED';
  }

  async end(key: AdminThrottleKey, windowStart: Date, refused: boolean): Promise<number> {
    const slot = this.slot(key, windowStart);
    const row = this.rows.get(slot) ?? { failures: 0, inFlight: 1 };
    const next = { failures: row.failures + (refused ? 1 : 0), inFlight: Math.max(row.inFlight - 1, 0) };
    if (next.failures === 0 && next.inFlight === 0) this.rows.delete(slot);
    else this.rows.set(slot, next);
    return next.failures;
  }
}
