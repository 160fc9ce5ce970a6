import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';

/** A device of a PBO, as the admin password throttle counts it. */
export interface AdminThrottleKey {
  groupId: string;
  deviceId: string;
}

/**
 * What {@link DeviceAdminThrottleRepository.begin} answers: STARTED, the check holds a slot and
 * must {@link DeviceAdminThrottleRepository.end} it; THROTTLED, the window's refusals reached the
 * limit; BUSY, refusals and checks under way (elsewhere) fill the limit.
 */
export type AdminCheckStart = 'STARTED' | 'THROTTLED' | 'BUSY';

const TABLE = 'device_admin_throttle';

/**
 * Admin password checks per (groupId, deviceId) per window (`device_admin_throttle`): `failures`
 * counts refused passwords, `in_flight` the checks under way. A check starts only while the two
 * together are under the limit, in one statement, so that parallel guesses on any replica cannot
 * run more checks than refusals are left; a verified password gives its slot back uncounted.
 */
@Injectable()
export class DeviceAdminThrottleRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  /** Takes a slot for a check when refusals and checks under way leave one under `limit`. Windows older than a day are pruned on the way. */
  async begin(key: AdminThrottleKey, windowStart: Date, limit: number): Promise<AdminCheckStart> {
    const parameters = [key.groupId, key.deviceId, windowStart];
    const started: unknown[] = await this.uow.manager.query(
      `INSERT INTO ${TABLE} (group_id, device_id, window_start, failures, in_flight) VALUES ($1, $2, $3, 0, 1)
       ON CONFLICT (group_id, device_id, window_start) DO UPDATE SET in_flight = ${TABLE}.in_flight + 1
       WHERE ${TABLE}.failures + ${TABLE}.in_flight < $4
       RETURNING 1`,
      [...parameters, limit],
    );
    await this.uow.manager.query(`DELETE FROM ${TABLE} WHERE window_start < now() - interval '1 day'`);
    if (started.length > 0) return 'STARTED';
    const rows: { failures: number }[] = await this.uow.manager.query(
      `SELECT failures FROM ${TABLE} WHERE group_id = $1 AND device_id = $2 AND window_start = $3`,
      parameters,
    );
    return (rows[0]?.failures ?? 0) >= limit ? 'THROTTLED' : 'BUSY';
  }

  /**
   * Gives back a check's slot, counted as a refusal when `refused`, and answers the window's
   * refusals; a window left with nothing counted disappears.
   */
  async end(key: AdminThrottleKey, windowStart: Date, refused: boolean): Promise<number> {
    const parameters = [key.groupId, key.deviceId, windowStart];
    const [rows]: [{ failures: number }[], number] = await this.uow.manager.query(
      `UPDATE ${TABLE} SET in_flight = GREATEST(in_flight - 1, 0), failures = failures + $4
       WHERE group_id = $1 AND device_id = $2 AND window_start = $3 RETURNING failures`,
      [...parameters, refused ? 1 : 0],
    );
    await this.uow.manager.query(
      `DELETE FROM ${TABLE} WHERE group_id = $1 AND device_id = $2 AND window_start = $3 AND failures = 0 AND in_flight = 0`,
      parameters,
    );
    return rows[0]?.failures ?? 0;
  }
}
