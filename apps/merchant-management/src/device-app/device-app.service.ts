import { Clock, DeviceClaims, DomainError, IdGenerator } from '@app/common';
import { UnitOfWork } from '@app/database';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { profileSyncOf } from '../device/device';
import { DeviceService, newDeviceId } from '../device/device.service';
import { DeviceRepository } from '../device/persistence/device.repository';
import { ACTIVATABLE_STATUSES, DeviceStatus } from '../shared/device-status';
import { GATEWAY_NAMESPACE } from '../shared/gateway-namespace';
import { CODE_ATTEMPT_LIMIT, CODE_ATTEMPT_WINDOW_MS, CodeThrottleRepository } from '../shared/persistence/code-throttle.repository';
import { secondsLeftInWindow } from '../shared/fixed-window';
import { throttleKeyOfAddress } from '../shared/sliding-window';

export { GATEWAY_NAMESPACE };

/** Failed activations allowed per client (address, IPv6 by /64) in any sliding window before 429. */
export const ACTIVATION_FAILURE_LIMIT = CODE_ATTEMPT_LIMIT;
export const ACTIVATION_WINDOW_MS = CODE_ATTEMPT_WINDOW_MS;

export interface ActivationResult {
  deviceId: string;
  namespace: string;
  profileId: string | null;
  emvParams: Record<string, string>;
  emvAID: { aid: string; paymentMethod: string }[];
  deviceToken: string;
  /** The merchant's time zone: the terminal's local date (9A) is read in it, as the host's 12/13 are. */
  timeZone: string;
}

export interface DeviceConfig {
  deviceId: string;
  profileId: string | null;
  emvParams: Record<string, string>;
  emvAID: { aid: string; paymentMethod: string }[];
  /** A renewed device token. */
  deviceToken: string;
  timeZone: string;
}

/** What the phone sees when the gateway refused its device's profile (the reason is the operator's to read, not the phone's). */
export const PROFILE_REJECTED_MESSAGE =
  "this device's payment profile was refused by the payment gateway; ask your provider to correct it and push it again, then activate again";

/** What the phone app does: activate with a code (docs/architecture.md, flow 4) and pull its configuration. */
@Injectable()
export class DeviceAppService {
  private readonly logger = new Logger('DeviceApp');

  constructor(
    private readonly devices: DeviceService,
    private readonly repository: DeviceRepository,
    private readonly throttle: CodeThrottleRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(GATEWAY_NAMESPACE) private readonly namespace: string,
  ) {}

  /** Logs a failed attempt (its count was taken when it was reserved) and answers the error the phone sees. */
  private fail(clientKey: string, attempts: number, error: DomainError): DomainError {
    this.logger.warn(`activation refused for client ${clientKey} (${attempts} failure(s) this window): ${error.message}`);
    return error;
  }

  /** `clientAddress`: the caller's IP address; IPv6 addresses are counted by their /64. */
  async activate(activationCode: string, deviceInfo: Record<string, unknown> | null | undefined, clientAddress: string): Promise<ActivationResult> {
    const clientKey = `ip:${throttleKeyOfAddress(clientAddress)}`;
    const window = this.clock.now();
    const attempts = await this.throttle.reserve(clientKey, window);
    if (attempts > ACTIVATION_FAILURE_LIMIT) {
      // A throttled attempt is refused unchecked: only real failures stay counted.
      await this.throttle.release(clientKey, window);
      this.logger.warn(`activation throttled for client ${clientKey}`);
      // Retry-After: when the current window ends; its failures then only count in part.
      throw DomainError.rateLimited('too many failed activation attempts; try again later', secondsLeftInWindow(window, CODE_ATTEMPT_WINDOW_MS));
    }
    if (!/^\d{12}$/.test(activationCode)) throw this.fail(clientKey, attempts, DomainError.validation('activationCode must be 12 digits'));
    let refusal: DomainError | undefined;
    let validCode = false;
    const activated = await this.uow.run(async () => {
      const device = await this.repository.find(this.devices.keyOfCode(activationCode), true);
      if (!device) {
        refusal = DomainError.notFound('activation code is not valid');
        return undefined;
      }
      if (!ACTIVATABLE_STATUSES.includes(device.deviceStatus)) {
        refusal = DomainError.conflict(device.deviceStatus === DeviceStatus.Decommissioned ? 'this device was decommissioned' : 'activation code was already used');
        return undefined;
      }
      const now = this.clock.now();
      if (device.expiresAt.getTime() < now.getTime()) {
        refusal = DomainError.conflict('activation code has expired');
        return undefined;
      }
      // The gateway refused this device's profile: a token for it could not pay (docs/decisions.md, "Profile sync state").
      if (profileSyncOf(device)?.state === 'REJECTED') {
        refusal = DomainError.conflict(PROFILE_REJECTED_MESSAGE);
        validCode = true;
        return undefined;
      }
      const appVersion = typeof deviceInfo?.appVersion === 'string' ? deviceInfo.appVersion.slice(0, 32) : device.appVersion;
      const deviceId = newDeviceId(this.ids);
      const values = {
        deviceId,
        deviceStatus: DeviceStatus.Active,
        deviceUpdate: 0,
        activesAt: now,
        deviceInfo: deviceInfo ?? null,
        appVersion,
        // An idled device's profile was DISABLED: it takes payments again, through this activation's token only.
        ...(await this.devices.pushLifecycle(device, DeviceStatus.Active, deviceId)),
      };
      await this.repository.update(device.groupId, device.uuid, values);
      return { ...device, ...values };
    });
    if (!activated) {
      // A valid code whose profile the gateway refused is not a guess: not counted against the client.
      if (validCode) await this.throttle.release(clientKey, window);
      throw this.fail(clientKey, attempts, refusal!);
    }
    await this.throttle.release(clientKey, window);
    const context = await this.devices.context(activated);
    const emv = this.devices.resolvedEmv(context);
    this.logger.log(`device ${activated.deviceId} activated for merchant ${context.source.merchant.mchId}`);
    return {
      deviceId: activated.deviceId,
      namespace: this.namespace,
      profileId: activated.profileId,
      emvParams: emv.emvParams,
      emvAID: emv.emvAID,
      deviceToken: await this.devices.deviceToken(activated),
      timeZone: context.source.merchant.timeZone,
    };
  }

  /** The device's current configuration; clears deviceUpdate. Only an active device may pull. */
  async config(claims: DeviceClaims): Promise<DeviceConfig> {
    const device = await this.repository.find({ deviceId: claims.deviceId });
    if (!device || device.groupId !== claims.groupId || device.deviceStatus !== DeviceStatus.Active) {
      throw DomainError.unauthenticated('this device is not active; activate it again');
    }
    const context = await this.devices.context(device);
    if (device.deviceUpdate !== 0) await this.repository.update(device.groupId, device.uuid, { deviceUpdate: 0 });
    const emv = this.devices.resolvedEmv(context);
    return {
      deviceId: claims.deviceId,
      profileId: device.profileId,
      emvParams: emv.emvParams,
      emvAID: emv.emvAID,
      deviceToken: await this.devices.deviceToken(device),
      timeZone: context.source.merchant.timeZone,
    };
  }
}
