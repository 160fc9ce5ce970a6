// class-transformer's @Type reads design-time metadata: the contract must load without Nest having loaded this first.
import 'reflect-metadata';
import { IsIn, IsInt, IsNotEmpty, IsString, MaxLength, Min, ValidateIf } from 'class-validator';

/**
 * `mms.device.verify-admin.v1`: does this admin password open this device? Asked by transactions
 * before a void or refund (spec 2: `adminPwd`). merchant-management checks it against the
 * device's salted hash (`deviceAdmin`) and counts failures per device like activation attempts:
 * after too many, it answers THROTTLED until the window passes, whatever the password. The
 * password travels only on this core NATS request (never stored, never in an event or a log).
 */
export class DeviceVerifyAdminRequestV1 {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  groupId: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  deviceId: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  adminPwd: string;
}

/**
 * VERIFIED: the password is the device's; REFUSED: it is not, or the device has none set;
 * UNKNOWN_DEVICE: no such device for this PBO (another PBO's device answers the same);
 * THROTTLED: too many refusals, try after `retryAfterSeconds`.
 */
export const DEVICE_VERIFY_ADMIN_RESULTS = ['VERIFIED', 'REFUSED', 'UNKNOWN_DEVICE', 'THROTTLED'] as const;
export type DeviceVerifyAdminResult = (typeof DEVICE_VERIFY_ADMIN_RESULTS)[number];

export class DeviceVerifyAdminReplyV1 {
  @IsIn(DEVICE_VERIFY_ADMIN_RESULTS)
  result: DeviceVerifyAdminResult;

  /** Seconds until another try is counted; null unless THROTTLED. */
  @ValidateIf((_object: object, value: unknown) => value !== null)
  @IsInt()
  @Min(1)
  retryAfterSeconds: number | null;
}
