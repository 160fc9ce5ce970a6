import { Clock, hashSecret, needsRehash, SecretCheckBusyError, verifySecret } from '@app/common';
import { DeviceVerifyAdminReplyV1, DeviceVerifyAdminRequestV1 } from '@app/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { secondsLeftInWindow, windowStartOf } from '../shared/fixed-window';
import { AdminCheckStart, AdminThrottleKey, DeviceAdminThrottleRepository } from './persistence/device-admin-throttle.repository';
import { Device } from './device';
import { DeviceRepository } from './persistence/device.repository';

/** Refused admin passwords allowed per device per window; then THROTTLED until the window ends. */
export const ADMIN_FAILURE_LIMIT = 5;
export const ADMIN_WINDOW_MS = 15 * 60 * 1000;
/** What a caller is told to wait when the check could not run now (scrypt saturated, the device's slots held by checks under way elsewhere). */
export const ADMIN_BUSY_RETRY_SECONDS = 1;

/**
 * The admin password checks of this process per device that ask for a slot or hold one, and the
 * checks waiting for one of them to end. A check told BUSY while others of its device are under
 * way here waits for one to end and asks again, instead of answering THROTTLED: parallel right
 * passwords all get their turn, and no more than the slots left run at once.
 */
class ChecksHere {
  private readonly devices = new Map<string, { active: number; waiters: Array<() => void> }>();

  enter(key: string): void {
    const device = this.devices.get(key) ?? { active: 0, waiters: [] };
    device.active++;
    this.devices.set(key, device);
  }

  /** How many checks of the device other than the caller (which entered) ask for a slot or hold one. */
  others(key: string): number {
    return (this.devices.get(key)?.active ?? 1) - 1;
  }

  /**
   * The caller's check stops asking or holding. When it gives a slot back (`freed`), or is the last
   * here, every check waiting on the device asks again; a check that only asked and was told BUSY
   * wakes nobody otherwise (waking would have the waiters wake one another without end).
   */
  leave(key: string, freed: boolean): void {
    const device = this.devices.get(key);
    if (!device) return;
    device.active--;
    if (!freed && device.active > 0) return;
    const waiters = device.waiters.splice(0);
    if (device.active === 0) this.devices.delete(key);
    for (const wake of waiters) wake();
  }

  /** Resolves when a check of the device leaves. */
  next(key: string): Promise<void> {
    return new Promise((resolve) => {
      const device = this.devices.get(key);
      if (device) device.waiters.push(resolve);
      else resolve();
    });
  }
}

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

  private readonly here = new ChecksHere();

  async verifyAdmin(request: DeviceVerifyAdminRequestV1): Promise<DeviceVerifyAdminReplyV1> {
    const { groupId, deviceId, adminPwd } = request;
    try {
      return await this.check(groupId, deviceId, adminPwd);
    } catch (error) {
      if (!(error instanceof SecretCheckBusyError)) throw error;
      // Refused unrun, uncounted: as many checks as this process takes already wait for scrypt.
      this.logger.warn(`admin password check for device ${JSON.stringify(deviceId)} of group ${groupId} not run: ${error.message}`);
      return { result: 'THROTTLED', retryAfterSeconds: ADMIN_BUSY_RETRY_SECONDS };
    }
  }

  private async check(groupId: string, deviceId: string, adminPwd: string): Promise<DeviceVerifyAdminReplyV1> {
    // Found by group and id in one query: another PBO's device is no device here, whatever it holds.
    const device = await this.devices.findByDeviceId(groupId, deviceId);
    if (!device) {
      await verifySecret(adminPwd, await placeholder());
      this.logger.warn(`admin password check for unknown device ${JSON.stringify(deviceId)} of group ${groupId}`);
      return { result: 'UNKNOWN_DEVICE', retryAfterSeconds: null };
    }
    const key: AdminThrottleKey = { groupId, deviceId };
    const now = this.clock.now();
    const window = windowStartOf(now, ADMIN_WINDOW_MS);
    const slot = JSON.stringify([groupId, deviceId]);
    // Refused unchecked, whatever the password, when the refusals reached the limit: no scrypt runs.
    const start = await this.slotFor(key, window, slot);
    if (start !== 'STARTED') {
      const retryAfterSeconds = start === 'THROTTLED' ? secondsLeftInWindow(now, ADMIN_WINDOW_MS) : ADMIN_BUSY_RETRY_SECONDS;
      this.logger.warn(
        `admin password check for device ${deviceId} of group ${groupId} throttled for ${retryAfterSeconds} s${start === 'BUSY' ? ' (its other checks are under way)' : ''}`,
      );
      return { result: 'THROTTLED', retryAfterSeconds };
    }
    try {
      return await this.checkInSlot(key, window, device, adminPwd);
    } finally {
      this.here.leave(slot, true);
    }
  }

  /**
   * A slot of the device's limit for a check (STARTED: this process's count of the device's checks
   * then includes it until it leaves), or why not. BUSY while other checks of the device are under
   * way here waits for one of them to end and asks again; BUSY with none here (the slots are held on
   * another replica) is answered.
   */
  private async slotFor(key: AdminThrottleKey, window: Date, slot: string): Promise<AdminCheckStart> {
    for (;;) {
      this.here.enter(slot);
      let start: AdminCheckStart;
      try {
        start = await this.throttle.begin(key, window, ADMIN_FAILURE_LIMIT);
      } catch (error) {
        this.here.leave(slot, false);
        throw error;
      }
      if (start === 'STARTED') return start;
      const othersHere = this.here.others(slot) > 0;
      this.here.leave(slot, false);
      if (start === 'THROTTLED' || !othersHere) return start;
      await this.here.next(slot);
    }
  }

  private async checkInSlot(key: AdminThrottleKey, window: Date, device: Device, adminPwd: string): Promise<DeviceVerifyAdminReplyV1> {
    const { groupId, deviceId } = key;
    const stored = device.deviceAdminHash;
    let matches: boolean;
    try {
      matches = await verifySecret(adminPwd, stored ?? (await placeholder()));
    } catch (error) {
      // Not run (scrypt saturated) or failed: no refusal, the slot is given back.
      await this.throttle.end(key, window, false);
      throw error;
    }
    if (stored !== null && matches) {
      // Only a refusal stays counted: a verified password gives its slot back.
      await this.throttle.end(key, window, false);
      // A hash of an older, lower cost is replaced now that the password is known to be right.
      if (needsRehash(stored)) await this.devices.update(groupId, device.uuid, { deviceAdminHash: await hashSecret(adminPwd) });
      this.logger.log(`admin password verified for device ${deviceId} of group ${groupId}`);
      return { result: 'VERIFIED', retryAfterSeconds: null };
    }
    const refusals = await this.throttle.end(key, window, true);
    this.logger.warn(
      `admin password refused for device ${deviceId} of group ${groupId}${stored === null ? ' (none set)' : ''}: ${refusals} of ${ADMIN_FAILURE_LIMIT} refusal(s) this window`,
    );
    return { result: 'REFUSED', retryAfterSeconds: null };
  }
}
