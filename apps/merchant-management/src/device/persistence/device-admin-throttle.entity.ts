import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Refused device admin passwords per device per window (`mms.device.verify-admin.v1`), in the
 * database so that every replica sees the same count and a restart forgets none.
 */
@Entity({ name: 'device_admin_throttle' })
export class DeviceAdminThrottleEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  groupId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  deviceId: string;

  @PrimaryColumn({ type: 'timestamptz' })
  windowStart: Date;

  /** Refused passwords this window. */
  @Column({ type: 'integer', default: 0 })
  failures: number;

  /** Checks under way this window, each holding a slot of the limit until it is answered. */
  @Column({ type: 'integer', default: 0 })
  inFlight: number;
}
