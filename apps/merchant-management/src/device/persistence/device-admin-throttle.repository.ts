import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { FailureWindowTable } from '../../shared/persistence/failure-window.table';

/** A device of a PBO, as the admin password throttle counts it. */
export interface AdminThrottleKey {
  groupId: string;
  deviceId: string;
}

/** Refused device admin passwords per (groupId, deviceId) per window (`device_admin_throttle`). */
@Injectable()
export class DeviceAdminThrottleRepository {
  private readonly windows: FailureWindowTable;

  constructor(uow: TypeOrmUnitOfWork) {
    this.windows = new FailureWindowTable(uow, 'device_admin_throttle', ['group_id', 'device_id']);
  }

  /** Counts a check before it is made and answers the window's total ({@link FailureWindowTable.reserve}). */
  reserve(key: AdminThrottleKey, windowStart: Date): Promise<number> {
    return this.windows.reserve([key.groupId, key.deviceId], windowStart);
  }

  /** Gives back a check that was no refusal (a verified password, or a check refused unmade). */
  release(key: AdminThrottleKey, windowStart: Date): Promise<void> {
    return this.windows.release([key.groupId, key.deviceId], windowStart);
  }
}
