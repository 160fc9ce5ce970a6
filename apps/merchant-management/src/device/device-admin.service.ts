import { Clock, hashSecret, needsRehash, verifySecret } from '@app/common';
import { DeviceVerifyAdminReplyV1, DeviceVerifyAdminRequestV1 } from '@app/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { secondsLeftInWindow, windowStartOf } from '../shared/fixed-window';
import { DeviceAdminThrottleRepository } from './persistence/device-admin-throttle.repository';
import { DeviceRepository } from './persistence/device.repository';

/** Refused admin passwords allowed per device per window; then THROTTLED until the window ends. */
export const ADMIN_FAILURE_LIMIT = 5;
export const ADMIN_WINDOW_MS = 15 * 60 * 1000;

/**
 * A hash of a password nobody knows, checked when there is nothing to check against (no such
 * device, no password set), so that every answer that runs a check costs one scrypt.
 */
let placeholderHash: Promise<string> | undefined;
function placeholder(): Promise<string> {
  placeholderHash ??= hashSecret(randomBytes(16).toString('hex'));
  return placeholderHash;
}

/**
 * `mms.device.verify-admin.v1` (docs/decisions.md, "`mms.device.verify-admin.v1`"): does this
 * password open this device of this PBO? Refusals are counted per device in the database; the
 * password is checked in constant time and never logged.
 */
@Injectable()
export class DeviceAdminService {
  private readonly logger = new Logger('DeviceAdmin');

  constructor(
    private readonly devices: DeviceRepository,
    private readonly throttle: DeviceAdminThrottleRepository,
    private readonly clock: Clock,
  ) {}

  async verifyAdmin(request: DeviceVerifyAdminRequestV1): Promise<DeviceVerifyAdminReplyV1> {
    const { groupId, deviceId, adminPwd } = request;
    // Found by group and id in one query: another PBO's device is no device here, whatever it holds.
    const device = await this.devices.findByDeviceId(groupId, deviceId);
    if (!device) {
      await verifySecret(adminPwd, await placeholder());
      this.logger.warn(`admin password check for unknown device ${JSON.stringify(deviceId)} of group ${groupId}`);
      return { result: 'UNKNOWN_DEVICE', retryAfterSeconds: null };
    }
    const key = { groupId, deviceId };
    const now = this.clock.now();
    const window = windowStartOf(now, ADMIN_WINDOW_MS);
    const attempts = await this.throttle.reserve(key, window);
    if (attempts > ADMIN_FAILURE_LIMIT) {
      // Refused unchecked, whatever the password: only real refusals stay counted.
      await this.throttle.release(key, window);
      const retryAfterSeconds = secondsLeftInWindow(now, ADMIN_WINDOW_MS);
      this.logger.warn(`admin password check for device ${deviceId} of group ${groupId} throttled for ${retryAfterSeconds} s`);
      return { result: 'THROTTLED', retryAfterSeconds };
    }
    const stored = device.deviceAdminHash;
    const matches = await verifySecret(adminPwd, stored ?? (await placeholder()));
    if (stored !== null && matches) {
      await this.throttle.release(key, window);
      // A hash of an older, lower cost is replaced now that the password is known to be right.
      if (needsRehash(stored)) await this.devices.update(groupId, device.uuid, { deviceAdminHash: await hashSecret(adminPwd) });
      this.logger.log(`admin password verified for device ${deviceId} of group ${groupId}`);
      return { result: 'VERIFIED', retryAfterSeconds: null };
    }
    this.logger.warn(
      `admin password refused for device ${deviceId} of group ${groupId}${stored === null ? ' (none set)' : ''}: ${attempts} of ${ADMIN_FAILURE_LIMIT} refusal(s) this window`,
    );
    return { result: 'REFUSED', retryAfterSeconds: null };
  }
}
