import {
  AUTH_CONFIG,
  AuthConfig,
  canonicalJson,
  Clock,
  DomainError,
  FIELD_CIPHER,
  FieldCipher,
  formatTimestamp,
  hashSecret,
  IdGenerator,
  Page,
  PageRequest,
  signDeviceToken,
  toPage,
} from '@app/common';
import { isUniqueViolation, UnitOfWork } from '@app/database';
import { deliverMail, MAILER, Mailer } from '@app/mail';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ProfileSource } from '../activation-profile/acceptance';
import { requireTerminalCountry } from '../activation-profile/activation-profile.builder';
import { ActivationProfileService, ResolvedEmv } from '../activation-profile/activation-profile.service';
import { Merchant } from '../merchant/merchant';
import { MerchantRepository } from '../merchant/persistence/merchant.repository';
import { PboService } from '../pbo/pbo.service';
import { ACTIVATABLE_STATUSES, ACTIVATION_CODE_TTL_MS, activationCodeOf, DeviceStatus } from '../shared/device-status';
import { secondsLeftInWindow } from '../shared/fixed-window';
import { CODE_ATTEMPT_LIMIT, CODE_ATTEMPT_WINDOW_MS, CodeThrottleRepository } from '../shared/persistence/code-throttle.repository';
import { requireOwned } from '../shared/ownership';
import { checkEmvParams, checkExtParams, decodedObject, keptForEveryAcquirer, parseMethodCodes } from './device-input';
import { Device } from './device';
import { CreateDeviceCommand, CreatedCodeView, DeviceView, UpdateDeviceCommand } from './device.view';
import { DeviceKey, DeviceRepository, DeviceValues } from './persistence/device.repository';

/** Device tokens last a week and are renewed by every configuration pull. */
export const DEVICE_TOKEN_TTL_SECONDS = 7 * 24 * 3600;

/** 12 random digits: never sequential, not derivable from another code. */
export function newActivationCode(ids: IdGenerator): string {
  return `${String(ids.int(0, 1_000_000)).padStart(6, '0')}${String(ids.int(0, 1_000_000)).padStart(6, '0')}`;
}

/** The SDK id a phone gets when it activates. */
export function newDeviceId(ids: IdGenerator): string {
  return `SDK${ids.bytes(10).toString('hex').toUpperCase()}`;
}

/** Everything the device API and the device app need about one device, resolved. */
export interface DeviceContext {
  device: Device;
  source: ProfileSource;
}

@Injectable()
export class DeviceService {
  private readonly logger = new Logger('Devices');

  constructor(
    private readonly repository: DeviceRepository,
    private readonly merchants: MerchantRepository,
    private readonly pbos: PboService,
    private readonly profiles: ActivationProfileService,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(FIELD_CIPHER) private readonly cipher: FieldCipher,
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(AUTH_CONFIG) private readonly auth: AuthConfig,
    private readonly codeThrottle: CodeThrottleRepository,
  ) {}

  /** How a path id names a device: `CD-` + code, the bare 12-digit code, or the device id. */
  keyOf(id: string): DeviceKey | undefined {
    const code = activationCodeOf(id);
    if (code) return { codeLookup: this.cipher.lookup(code) };
    return /^[A-Za-z0-9_-]{1,32}$/.test(id) ? { deviceId: id } : undefined;
  }

  codeOf(device: Device): string {
    return this.cipher.open(device.codeSealed);
  }

  /** Lookup by the activation code itself (the device app). */
  keyOfCode(code: string): DeviceKey {
    return { codeLookup: this.cipher.lookup(code) };
  }

  private async requireMerchant(groupId: string, mchId: string): Promise<Merchant> {
    return requireOwned(await this.merchants.findByMchId(mchId), groupId, `merchant ${mchId}`);
  }

  /**
   * The device a path id names, as the tenancy rule sees it: an activation code is a secret,
   * bare or as a `CD-` id (which is the code itself), so it is looked up among the PBO's own
   * devices only and another PBO's answers as no device at all (the same single query, so not
   * even the time differs); a device id is looked up whatever the owner, for {@link requireOwned}
   * to tell 13000 from 14000.
   */
  private async lookup(groupId: string, id: string, lock = false): Promise<Device | null> {
    const key = this.keyOf(id);
    if (!key) return null;
    if (activationCodeOf(id) !== undefined) return this.repository.findOwned(groupId, key, lock);
    return this.repository.find(key, lock);
  }

  /**
   * Lookups by activation code (a bare code or a `CD-` id) are throttled per PBO like activation
   * attempts: a lookup that finds no device of the caller's counts as a failure, and past
   * {@link CODE_ATTEMPT_LIMIT} in the sliding window every lookup of a code that is not one of the
   * caller's own devices is 429 (its own stay reachable: a few mistyped codes must not lock a PBO
   * out of its devices, and finding its own code tells it nothing). Runs before (outside) the
   * caller's transaction, so a refusal that rolls it back still counts.
   */
  async throttleCodeLookup(groupId: string, id: string | undefined): Promise<void> {
    if (id === undefined || activationCodeOf(id) === undefined) return;
    const key = `pbo:${groupId}`;
    const now = this.clock.now();
    const failures = await this.codeThrottle.reserve(key, now);
    const device = await this.repository.findOwned(groupId, this.keyOf(id)!);
    if (device) return void (await this.codeThrottle.release(key, now));
    if (failures > CODE_ATTEMPT_LIMIT) {
      await this.codeThrottle.release(key, now);
      throw DomainError.rateLimited('too many lookups of unknown activation codes; try again later', secondsLeftInWindow(now, CODE_ATTEMPT_WINDOW_MS));
    }
  }

  /** The PBO's device by any of its ids; 14000 when missing, 13000 when another PBO's (a bare code of another PBO's: 14000). */
  async requireDevice(groupId: string, id: string, lock = false): Promise<Device> {
    return requireOwned(await this.lookup(groupId, id, lock), groupId, `device ${id}`);
  }

  async context(device: Device): Promise<DeviceContext> {
    return { device, source: await this.profiles.source(device.groupId, device.merchantUuid) };
  }

  /** A device as the APIs show it: with its merchant's mchId and its code opened. */
  view(device: Device, mchId: string): DeviceView {
    return { device, mchId, activationCode: this.codeOf(device) };
  }

  async list(groupId: string, mchId: string, filter: { deviceId?: string; deviceType?: string }, page: PageRequest): Promise<Page<DeviceView>> {
    const merchant = await this.requireMerchant(groupId, mchId);
    await this.throttleCodeLookup(groupId, filter.deviceId);
    const key = filter.deviceId === undefined ? undefined : this.keyOf(filter.deviceId);
    if (filter.deviceId !== undefined && !key) return toPage(page, [], 0);
    const [devices, total] = await this.repository.list(groupId, merchant.uuid, { key, deviceType: filter.deviceType }, page);
    return toPage(
      page,
      devices.map((device) => this.view(device, merchant.mchId)),
      total,
    );
  }

  /** GET device/{id}: null when no such device (spec rule 2) or a bare code of another PBO's, 13000 when another PBO's. */
  async get(groupId: string, id: string): Promise<DeviceView | null> {
    await this.throttleCodeLookup(groupId, id);
    const device = await this.lookup(groupId, id);
    if (!device) return null;
    requireOwned(device, groupId, `device ${id}`);
    const merchant = await this.merchants.findByUuid(groupId, device.merchantUuid);
    return this.view(device, merchant!.mchId);
  }

  /**
   * Generates an activation code, computes its activation profile and queues the gateway push, in
   * one transaction. `everyAcquirer` (legacy "MID/TID for all") is kept for every acquirer the
   * merchant is bound to, now or later (`extParams.allAcquirers`).
   */
  async create(groupId: string, command: CreateDeviceCommand, everyAcquirer?: Record<string, string>): Promise<CreatedCodeView> {
    const merchant = await this.requireMerchant(groupId, command.mchId);
    const methodList = command.methodList == null ? null : parseMethodCodes(command.methodList);
    const emvParams = command.emvParams == null ? null : checkEmvParams(command.emvParams);
    const deviceAdminHash = command.deviceAdmin ? await hashSecret(command.deviceAdmin) : null;
    for (let attempt = 1; ; attempt++) {
      const code = newActivationCode(this.ids);
      try {
        const values = await this.uow.run(async () => {
          // The merchant's bindings are read under its row lock: a concurrent payment-config change
          // either sees this device (and re-pushes it) or is seen by it, never neither.
          const source = await this.profiles.source(groupId, merchant.uuid, 'share');
          requireTerminalCountry(source.merchant, emvParams);
          const boundIds = source.bindings.map((b) => b.acquirerProfileId);
          const extParams = keptForEveryAcquirer(command.extParams == null ? null : checkExtParams(command.extParams, boundIds), everyAcquirer);
          const built: DeviceValues = {
            uuid: this.ids.uuid(),
            groupId,
            merchantUuid: merchant.uuid,
            codeLookup: this.cipher.lookup(code),
            codeSealed: this.cipher.seal(code),
            deviceId: null,
            deviceStatus: DeviceStatus.Pending,
            deviceUpdate: 0,
            deviceType: command.deviceType ?? null,
            deviceAlias: command.deviceAlias ?? null,
            deviceName: command.deviceName ?? null,
            deviceAdminHash,
            appVersion: null,
            methodList,
            emvParams,
            extParams,
            operatingMode: command.operatingMode ?? 'STANDARD',
            ...this.profiles.initialProfile(source, { methodList, extParams }),
            activesAt: null,
            expiresAt: new Date(this.clock.now().getTime() + ACTIVATION_CODE_TTL_MS),
            deviceInfo: null,
          };
          await this.repository.insert(built);
          await this.profiles.publishCreated(built, source);
          return built;
        });
        return { uuid: values.uuid, activationCode: code, profileId: values.profileId };
      } catch (error) {
        // Codes are random: a collision with an existing code is retried with a new one.
        if (isUniqueViolation(error, 'uq_device_code_lookup') && attempt < 5) continue;
        throw error;
      }
    }
  }

  /** PUT device: omitted fields stay, null clears; the activation profile follows. `everyAcquirer` as in {@link create}. */
  async update(groupId: string, id: string, command: UpdateDeviceCommand, everyAcquirer?: Record<string, string>): Promise<void> {
    await this.throttleCodeLookup(groupId, id);
    await this.uow.run(async () => {
      const device = await this.requireDevice(groupId, id, true);
      if (device.deviceStatus === DeviceStatus.Decommissioned) throw DomainError.conflict(`device ${id} is decommissioned`);
      const { source } = await this.context(device);
      const boundIds = source.bindings.map((b) => b.acquirerProfileId);
      const changes: Partial<DeviceValues> = {};
      if (command.deviceAlias !== undefined) changes.deviceAlias = command.deviceAlias;
      if (command.deviceName !== undefined) changes.deviceName = command.deviceName;
      if (command.deviceType !== undefined) changes.deviceType = command.deviceType;
      if (command.operatingMode !== undefined) changes.operatingMode = command.operatingMode ?? 'STANDARD';
      if (command.methodList !== undefined) changes.methodList = command.methodList === null ? null : parseMethodCodes(command.methodList);
      if (command.deviceAdmin !== undefined) changes.deviceAdminHash = command.deviceAdmin === null ? null : await hashSecret(command.deviceAdmin);
      if (command.extParams !== undefined) {
        changes.extParams = command.extParams === null ? null : checkExtParams(decodedObject(command.extParams, 'extParams'), boundIds);
      }
      if (everyAcquirer) {
        const base = changes.extParams !== undefined ? changes.extParams : device.extParams;
        changes.extParams = keptForEveryAcquirer(base, everyAcquirer);
      }
      if (command.emvParams !== undefined) changes.emvParams = command.emvParams === null ? null : checkEmvParams(decodedObject(command.emvParams, 'emvParams'));
      requireTerminalCountry(source.merchant, changes.emvParams !== undefined ? changes.emvParams : device.emvParams);
      const emvChanged = command.emvParams !== undefined && canonicalJson(changes.emvParams) !== canonicalJson(device.emvParams);
      // The gateway profile's name comes from the alias (else the name): a rename is pushed too.
      const renamed =
        (changes.deviceAlias !== undefined && changes.deviceAlias !== device.deviceAlias) || (changes.deviceName !== undefined && changes.deviceName !== device.deviceName);
      const profile = await this.profiles.refreshDevice(source, device, changes, { forceUpdateFlag: emvChanged, strict: true, forcePush: renamed });
      await this.repository.update(groupId, device.uuid, { ...changes, ...profile });
    });
  }

  /**
   * DELETE device: a code id (`CD-` or the bare code) of a code never activated unbinds and
   * deletes it, whatever `deviceStatus` says (spec scenario 1: a pending code has no session to
   * log out, and deleting it retires it for good); a device id with deviceStatus 2 logs the
   * device out, 3 decommissions it (a code id of an activated code names its device likewise).
   */
  async delete(groupId: string, id: string, deviceStatus: '2' | '3' | undefined): Promise<void> {
    await this.throttleCodeLookup(groupId, id);
    await this.uow.run(async () => {
      const device = await this.requireDevice(groupId, id, true);
      const byCode = activationCodeOf(id) !== undefined;
      if (byCode && device.deviceId === null) {
        await this.pushLifecycle(device, 'deleted');
        await this.repository.delete(groupId, device.uuid);
        return;
      }
      if (byCode && deviceStatus === undefined) {
        throw DomainError.conflict(`activation code ${id} was activated as device ${device.deviceId}; log it out or decommission it by its device id`);
      }
      if (deviceStatus === undefined) throw DomainError.validation('deviceStatus is required for an activated device: 2 (log out) or 3 (decommission)');
      if (device.deviceStatus === DeviceStatus.Decommissioned) throw DomainError.conflict(`device ${id} is already decommissioned`);
      const next = deviceStatus === '2' ? DeviceStatus.LoggedOut : DeviceStatus.Decommissioned;
      await this.repository.update(groupId, device.uuid, { deviceStatus: next, ...(await this.pushLifecycle(device, next)) });
    });
  }

  /**
   * Tells the gateway what a lifecycle transition of `device` means for its profile (DISABLED
   * after a deletion, log-out, decommissioning or idling; ACTIVE again on activation), in the
   * caller's unit of work; answers the profile version to store. `activatedAs`: the new device id
   * of an activation, which the gateway is told whatever the status was.
   */
  async pushLifecycle(device: Device, next: DeviceStatus | 'deleted', activatedAs?: string): Promise<{ profileVersion?: number }> {
    if (!device.profileId) return {};
    const { source } = await this.context(device);
    return this.profiles.pushLifecycle(source, device, next, activatedAs);
  }

  /** DELETE device/{code}/idle: the code is kept and freed for (re-)activation for another 30 days. */
  async idle(groupId: string, id: string): Promise<void> {
    await this.throttleCodeLookup(groupId, id);
    await this.uow.run(async () => {
      const device = await this.requireDevice(groupId, id, true);
      if (device.deviceStatus === DeviceStatus.Decommissioned) throw DomainError.conflict(`device ${id} is decommissioned; its code cannot be reused`);
      await this.repository.update(groupId, device.uuid, {
        deviceStatus: DeviceStatus.Idle,
        expiresAt: new Date(this.clock.now().getTime() + ACTIVATION_CODE_TTL_MS),
        ...(await this.pushLifecycle(device, DeviceStatus.Idle)),
      });
    });
  }

  /** POST device/code: e-mails the code of a device that can still be activated. */
  async emailCode(groupId: string, id: string, email: string): Promise<void> {
    await this.throttleCodeLookup(groupId, id);
    const device = await this.requireDevice(groupId, id);
    if (!ACTIVATABLE_STATUSES.includes(device.deviceStatus)) {
      throw DomainError.conflict(`the activation code of device ${id} was already used; idle the device to free it first`);
    }
    const [{ source }, pbo] = await Promise.all([this.context(device), this.pbos.require(groupId)]);
    const { merchant } = source;
    const code = this.codeOf(device);
    const sender = pbo.emailSender?.address ? { name: pbo.emailSender.name ?? pbo.groupName, address: pbo.emailSender.address } : undefined;
    await this.send({
      from: sender,
      to: [email],
      subject: `Your activation code for ${merchant.mchName}`,
      text: [
        `Hello,`,
        ``,
        `Here is the activation code for a payment terminal of ${merchant.mchName} (merchant ${merchant.mchId}):`,
        ``,
        `    ${code.slice(0, 4)} ${code.slice(4, 8)} ${code.slice(8)}`,
        ``,
        `Open the payment app on the phone and enter this code to activate it. The code can be used once and expires on ${formatTimestamp(device.expiresAt)} (UTC).`,
        `If you did not expect this message, ignore it.`,
        ``,
        `${pbo.groupName}`,
      ].join('\n'),
    });
    this.logger.log(`activation code of device ${device.uuid} e-mailed for merchant ${merchant.mchId}`);
  }

  private async send(message: Parameters<Mailer['send']>[0]): Promise<void> {
    await deliverMail(this.mailer, message);
  }

  /** The EMV parameters and AIDs a device gets (what activation and the config pull return). */
  resolvedEmv(context: DeviceContext): ResolvedEmv {
    return this.profiles.resolvedEmv(context.source, context.device);
  }

  async emv(groupId: string, id: string): Promise<ResolvedEmv> {
    await this.throttleCodeLookup(groupId, id);
    return this.resolvedEmv(await this.context(await this.requireDevice(groupId, id)));
  }

  /** Signs the token a device presents to the gateway and the device API. */
  deviceToken(device: Device): Promise<string> {
    return signDeviceToken(this.auth, { deviceId: device.deviceId!, groupId: device.groupId, profileId: device.profileId }, DEVICE_TOKEN_TTL_SECONDS);
  }
}
