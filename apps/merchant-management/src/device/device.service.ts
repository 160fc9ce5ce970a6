import {
  AUTH_CONFIG,
  AuthConfig,
  canonicalJson,
  DomainError,
  ErrorCode,
  FIELD_CIPHER,
  FieldCipher,
  formatTimestamp,
  hashSecret,
  maskedSecret,
  Page,
  PageRequest,
  signDeviceToken,
  toPage,
} from '@app/common';
import { GATEWAY_PROFILE_UPSERT_V1, GatewayProfileUpsertV1 } from '@app/contracts';
import { isUniqueViolation } from '@app/database';
import { MAILER, MailDeliveryError, Mailer } from '@app/mail';
import { OutboxWriter } from '@app/messaging';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { MerchantEntity } from '../merchant/persistence/merchant.entity';
import { MerchantRepository } from '../merchant/persistence/merchant.repository';
import { BindingRecord, PaymentConfigRepository } from '../payment-config/persistence/payment-config.repository';
import { PboEntity } from '../pbo/persistence/pbo.entity';
import { PboService } from '../pbo/pbo.service';
import { requireOwned } from '../shared/ownership';
import { buildAcceptances, defaultEmvParams, emvAidsOf } from './activation-profile.builder';
import { ACTIVATABLE_STATUSES, ACTIVATION_CODE_TTL_MS, DeviceStatus } from './device-status';
import { checkEmvParams, checkExtParams, decodeObjectString, parseMethodCodes, spreadOverAcquirers } from './device-input';
import { CreatedCodeDto, DeviceCreateDto, DeviceDto, DeviceEmvDto, DeviceUpdateDto } from './dto/device.dto';
import { AcceptanceSnapshot, DeviceEntity } from './persistence/device.entity';
import { DeviceKey, DeviceRepository, DeviceValues } from './persistence/device.repository';

/** Device tokens last a week and are renewed by every configuration pull. */
export const DEVICE_TOKEN_TTL_SECONDS = 7 * 24 * 3600;

const CODE_PATTERN = /^\d{12}$/;
const CODE_ID_PATTERN = /^CD-(\d{12})$/;

/** 12 random digits: never sequential, not derivable from another code. */
function newActivationCode(): string {
  return `${String(randomInt(0, 1_000_000)).padStart(6, '0')}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

function newProfileId(): string {
  return `prof_${randomBytes(12).toString('base64url')}`;
}

/** The SDK id a phone gets when it activates. */
export function newDeviceId(): string {
  return `SDK${randomBytes(10).toString('hex').toUpperCase()}`;
}

function sameAcceptances(a: AcceptanceSnapshot[], b: AcceptanceSnapshot[]): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** Everything the device API and the device app need about one device, resolved. */
export interface DeviceContext {
  device: DeviceEntity;
  merchant: MerchantEntity;
  pbo: PboEntity;
  bindings: BindingRecord[];
}

@Injectable()
export class DeviceService {
  private readonly logger = new Logger('Devices');

  constructor(
    private readonly repository: DeviceRepository,
    private readonly merchants: MerchantRepository,
    private readonly pbos: PboService,
    private readonly paymentConfigs: PaymentConfigRepository,
    private readonly outbox: OutboxWriter,
    @Inject(FIELD_CIPHER) private readonly cipher: FieldCipher,
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(AUTH_CONFIG) private readonly auth: AuthConfig,
  ) {}

  /** How a path id names a device: `CD-` + code, the bare 12-digit code, or the device id. */
  keyOf(id: string): DeviceKey | undefined {
    const code = CODE_ID_PATTERN.exec(id)?.[1] ?? (CODE_PATTERN.test(id) ? id : undefined);
    if (code) return { codeLookup: this.cipher.lookup(code) };
    return /^[A-Za-z0-9_-]{1,32}$/.test(id) ? { deviceId: id } : undefined;
  }

  codeOf(device: DeviceEntity): string {
    return this.cipher.open(device.codeSealed);
  }

  /** Lookup by the activation code itself (the device app). */
  keyOfCode(code: string): DeviceKey {
    return { codeLookup: this.cipher.lookup(code) };
  }

  private async requireMerchant(groupId: string, mchId: string): Promise<MerchantEntity> {
    return requireOwned(await this.merchants.findByMchId(mchId), groupId, `merchant ${mchId}`);
  }

  /** The PBO's device by any of its ids; 14000 when missing, 13000 when another PBO's. */
  async requireDevice(groupId: string, id: string, manager?: EntityManager, lock = false): Promise<DeviceEntity> {
    const key = this.keyOf(id);
    const device = key ? await this.repository.find(key, manager, lock) : null;
    return requireOwned(device, groupId, `device ${id}`);
  }

  async context(device: DeviceEntity, manager?: EntityManager): Promise<DeviceContext> {
    const merchant = (await this.merchants.findByUuid(device.merchantUuid, manager))!;
    const [pbo, bindings] = await Promise.all([this.pbos.require(device.groupId), this.paymentConfigs.bindingsOfMerchants([merchant.uuid], manager)]);
    return { device, merchant, pbo, bindings };
  }

  toDto(device: DeviceEntity, mchId: string): DeviceDto {
    const code = this.codeOf(device);
    const methodList: Record<string, { mid: string | null; tid: string | null }> = {};
    for (const acceptance of device.acceptances) {
      for (const method of acceptance.paymentMethodCodes) methodList[method] = { mid: acceptance.primaryMid, tid: acceptance.primaryTid };
    }
    const dto: DeviceDto = {
      deviceId: device.deviceId ?? `CD-${code}`,
      uuid: device.uuid,
      mchId,
      groupId: device.groupId,
      deviceType: device.deviceType,
      deviceStatus: device.deviceStatus,
      deviceUpdate: device.deviceUpdate,
      deviceAlias: device.deviceAlias,
      deviceName: device.deviceName,
      deviceAdmin: maskedSecret(device.deviceAdminHash),
      appVersion: device.appVersion,
      deviceToken: JSON.stringify({ activationCode: code }),
      methodList: JSON.stringify(methodList),
      profileId: device.profileId,
      emvParams: device.emvParams ? JSON.stringify(device.emvParams) : null,
      extParams: device.extParams ? JSON.stringify(device.extParams) : null,
      operatingMode: device.operatingMode,
      activesAt: formatTimestamp(device.activesAt),
      expiresAt: formatTimestamp(device.expiresAt),
      createdAt: formatTimestamp(device.createdAt),
      updatedAt: formatTimestamp(device.updatedAt),
    };
    if (device.deviceId !== null) dto.isDevice = true;
    return dto;
  }

  async list(groupId: string, mchId: string, filter: { deviceId?: string; deviceType?: string }, page: PageRequest): Promise<Page<DeviceDto>> {
    const merchant = await this.requireMerchant(groupId, mchId);
    const key = filter.deviceId === undefined ? undefined : this.keyOf(filter.deviceId);
    if (filter.deviceId !== undefined && !key) return toPage(page, [], 0);
    const [devices, total] = await this.repository.list(merchant.uuid, { key, deviceType: filter.deviceType }, page);
    return toPage(
      page,
      devices.map((device) => this.toDto(device, merchant.mchId)),
      total,
    );
  }

  /** GET device/{id}: null when no such device (spec rule 2), 13000 when another PBO's. */
  async get(groupId: string, id: string): Promise<DeviceDto | null> {
    const key = this.keyOf(id);
    const device = key ? await this.repository.find(key) : null;
    if (!device) return null;
    requireOwned(device, groupId, `device ${id}`);
    const merchant = await this.merchants.findByUuid(device.merchantUuid);
    return this.toDto(device, merchant!.mchId);
  }

  /** The gateway profile payload of a device (flow 2). */
  profileUpsert(device: DeviceEntity, merchant: MerchantEntity, acceptances: AcceptanceSnapshot[], version: number): GatewayProfileUpsertV1 {
    return {
      profileId: device.profileId!,
      version,
      profileName: device.deviceAlias ?? device.deviceName ?? merchant.mchName,
      // A merchant's reference would name every device's profile; the gateway keeps references unique.
      providerReference: null,
      merchantName: merchant.mchName,
      merchantAddr: merchant.contactAddress,
      mcc: merchant.mcc,
      countryCode: merchant.country,
      currency: merchant.currency,
      acceptances: acceptances.map((a) => ({
        acptName: a.acptName,
        hostMessageFormat: a.hostMessageFormat,
        supportedPayments: a.supportedPayments as GatewayProfileUpsertV1['acceptances'][number]['supportedPayments'],
        primaryMid: a.primaryMid,
        primaryTid: a.primaryTid,
        extraParams: a.extraParams,
      })),
      groupId: device.groupId,
      merchantId: merchant.mchId,
      deviceId: device.uuid,
    };
  }

  /**
   * Generates an activation code, computes its activation profile and queues the gateway push, in
   * one transaction. `everyAcquirer` (legacy "MID/TID for all") is copied under every acquirer
   * bound to the merchant, read under the same lock as the bindings the profile is built from.
   */
  async create(groupId: string, body: DeviceCreateDto, everyAcquirer?: Record<string, string>): Promise<CreatedCodeDto> {
    const merchant = await this.requireMerchant(groupId, body.mchId);
    const pbo = await this.pbos.require(groupId);
    const methodList = body.methodList === undefined ? null : parseMethodCodes(body.methodList);
    const emvParams = body.emvParams === undefined ? null : checkEmvParams(body.emvParams);
    const deviceAdminHash = body.deviceAdmin ? await hashSecret(body.deviceAdmin) : null;
    for (let attempt = 1; ; attempt++) {
      const code = newActivationCode();
      const build = async (manager: EntityManager): Promise<DeviceValues> => {
        // The merchant's bindings are read under its row lock: a concurrent payment-config change
        // either sees this device (and re-pushes it) or is seen by it, never neither.
        await this.merchants.lock(manager, merchant.uuid, 'share');
        const bindings = await this.paymentConfigs.bindingsOfMerchants([merchant.uuid], manager);
        const boundIds = bindings.map((b) => b.acquirerProfileId);
        const extParams = spreadOverAcquirers(body.extParams === undefined ? null : checkExtParams(body.extParams, boundIds), everyAcquirer, boundIds);
        const acceptances = buildAcceptances(bindings, pbo, { methodList, extParams });
        return {
          uuid: randomUUID(),
          groupId,
          merchantUuid: merchant.uuid,
          codeLookup: this.cipher.lookup(code),
          codeSealed: this.cipher.seal(code),
          deviceId: null,
          deviceStatus: DeviceStatus.Pending,
          deviceUpdate: 0,
          deviceType: body.deviceType ?? null,
          deviceAlias: body.deviceAlias ?? null,
          deviceName: body.deviceName ?? null,
          deviceAdminHash,
          appVersion: null,
          methodList,
          emvParams,
          extParams,
          operatingMode: body.operatingMode ?? 'STANDARD',
          profileId: acceptances.length > 0 ? newProfileId() : null,
          profileVersion: acceptances.length > 0 ? 1 : 0,
          acceptances,
          activesAt: null,
          expiresAt: new Date(Date.now() + ACTIVATION_CODE_TTL_MS),
          deviceInfo: null,
        };
      };
      try {
        const values = await this.repository.transaction(async (manager) => {
          const built = await build(manager);
          await this.repository.insert(manager, built);
          if (built.profileId) {
            await this.outbox.enqueue(manager, GATEWAY_PROFILE_UPSERT_V1, this.profileUpsert(built as DeviceEntity, merchant, built.acceptances, 1));
          }
          return built;
        });
        return { id: `CD-${code}`, activationCode: code, profileId: values.profileId };
      } catch (error) {
        // Codes are random: a collision with an existing code is retried with a new one.
        if (isUniqueViolation(error, 'uq_device_code_lookup') && attempt < 5) continue;
        throw error;
      }
    }
  }

  /**
   * Recomputes a device's activation profile and, when it changed, pushes it with the next
   * version and flags the device to pull its configuration. Used by PUT device and by every
   * payment-config change of its merchant.
   */
  async refreshProfile(
    manager: EntityManager,
    context: DeviceContext,
    changes: Partial<DeviceValues>,
    forceUpdateFlag: boolean,
    strict = true,
    forcePush = false,
  ): Promise<Partial<DeviceValues>> {
    const { values, upsert } = this.recomputeProfile(context, changes, forceUpdateFlag, strict, forcePush);
    if (upsert) await this.outbox.enqueue(manager, GATEWAY_PROFILE_UPSERT_V1, upsert);
    return values;
  }

  /** {@link refreshProfile} without the writes: the device's new values and the upsert to push, if any. */
  private recomputeProfile(
    context: DeviceContext,
    changes: Partial<DeviceValues>,
    forceUpdateFlag: boolean,
    strict: boolean,
    forcePush: boolean,
  ): { values: Partial<DeviceValues>; upsert?: GatewayProfileUpsertV1 } {
    const { device, merchant, pbo, bindings } = context;
    const next = { ...device, ...changes } as DeviceEntity;
    const acceptances = buildAcceptances(bindings, pbo, { methodList: next.methodList, extParams: next.extParams }, strict);
    const values: Partial<DeviceValues> = { ...changes };
    let upsert: GatewayProfileUpsertV1 | undefined;
    const profileChanged = !sameAcceptances(acceptances, device.acceptances);
    if (profileChanged || (forcePush && device.profileId)) {
      values.acceptances = acceptances;
      // A device gets its gateway profile the first time an acquirer matches; an empty list later unbinds all.
      const profileId = device.profileId ?? (acceptances.length > 0 ? newProfileId() : null);
      if (profileId) {
        const version = device.profileVersion + 1;
        values.profileId = profileId;
        values.profileVersion = version;
        upsert = this.profileUpsert({ ...next, profileId }, merchant, acceptances, version);
      }
    }
    if ((profileChanged || forceUpdateFlag) && device.deviceStatus !== DeviceStatus.Pending) values.deviceUpdate = 1;
    return { values, upsert };
  }

  /**
   * Re-push (architecture flow 3): after a payment-config change of a merchant, recompute the
   * activation profile of each of its devices in the same transaction and queue an upsert with
   * the next version for each that changed (for all of them when the merchant's own fields, which
   * the profile carries, changed). Called with the merchant row locked.
   */
  async repushMerchant(manager: EntityManager, merchantUuid: string, merchantChanged = false): Promise<number> {
    const devices = await this.repository.lockedOfMerchant(manager, merchantUuid);
    if (devices.length === 0) return 0;
    const shared = await this.context(devices[0], manager);
    const changed: { uuid: string; values: Partial<DeviceValues> }[] = [];
    const upserts: { subject: string; payload: GatewayProfileUpsertV1 }[] = [];
    for (const device of devices) {
      // A merchant change can move the EMV defaults (country, currency): the device pulls again.
      const { values, upsert } = this.recomputeProfile({ ...shared, device }, {}, merchantChanged, false, merchantChanged);
      if (upsert) upserts.push({ subject: GATEWAY_PROFILE_UPSERT_V1, payload: upsert });
      if (Object.keys(values).length > 0) changed.push({ uuid: device.uuid, values });
    }
    // One multi-row outbox INSERT and one UPDATE for the whole merchant, not two statements per device.
    await this.outbox.enqueueMany(manager, upserts);
    await this.repository.updateProfiles(manager, changed);
    return changed.length;
  }

  /** PUT device: omitted fields stay, null clears; the activation profile follows. `everyAcquirer` as in {@link create}. */
  async update(groupId: string, id: string, body: DeviceUpdateDto, everyAcquirer?: Record<string, string>): Promise<void> {
    await this.repository.transaction(async (manager) => {
      const device = await this.requireDevice(groupId, id, manager, true);
      if (device.deviceStatus === DeviceStatus.Decommissioned) throw DomainError.conflict(`device ${id} is decommissioned`);
      const context = await this.context(device, manager);
      const changes: Partial<DeviceValues> = {};
      if (body.deviceAlias !== undefined) changes.deviceAlias = body.deviceAlias;
      if (body.deviceName !== undefined) changes.deviceName = body.deviceName;
      if (body.deviceType !== undefined) changes.deviceType = body.deviceType;
      if (body.operatingMode !== undefined) changes.operatingMode = body.operatingMode ?? 'STANDARD';
      if (body.methodList !== undefined) changes.methodList = body.methodList === null ? null : parseMethodCodes(body.methodList);
      if (body.deviceAdmin !== undefined) changes.deviceAdminHash = body.deviceAdmin === null ? null : await hashSecret(body.deviceAdmin);
      if (body.extParams !== undefined) {
        changes.extParams =
          body.extParams === null
            ? null
            : checkExtParams(
                decodeObjectString(body.extParams, 'extParams'),
                context.bindings.map((b) => b.acquirerProfileId),
              );
      }
      if (everyAcquirer) {
        const base = changes.extParams !== undefined ? changes.extParams : device.extParams;
        changes.extParams = spreadOverAcquirers(base, everyAcquirer, context.bindings.map((b) => b.acquirerProfileId));
      }
      if (body.emvParams !== undefined) changes.emvParams = body.emvParams === null ? null : checkEmvParams(decodeObjectString(body.emvParams, 'emvParams'));
      const emvChanged = body.emvParams !== undefined && canonicalJson(changes.emvParams) !== canonicalJson(device.emvParams);
      // The gateway profile's name comes from the alias (else the name): a rename is pushed too.
      const renamed =
        (changes.deviceAlias !== undefined && changes.deviceAlias !== device.deviceAlias) || (changes.deviceName !== undefined && changes.deviceName !== device.deviceName);
      await this.repository.update(manager, device.uuid, await this.refreshProfile(manager, context, changes, emvChanged, true, renamed));
    });
  }

  /**
   * DELETE device: a code id unbinds and deletes a code not yet activated; a device id with
   * deviceStatus 2 logs the device out, 3 decommissions it.
   */
  async delete(groupId: string, id: string, deviceStatus: '2' | '3' | undefined): Promise<void> {
    await this.repository.transaction(async (manager) => {
      const device = await this.requireDevice(groupId, id, manager, true);
      const byCode = this.keyOf(id) !== undefined && 'codeLookup' in this.keyOf(id)!;
      if (byCode && deviceStatus === undefined) {
        if (device.deviceId !== null) {
          throw DomainError.conflict(`activation code ${id} was activated as device ${device.deviceId}; log it out or decommission it by its device id`);
        }
        await this.repository.delete(manager, device.uuid);
        return;
      }
      if (deviceStatus === undefined) throw DomainError.validation('deviceStatus is required for an activated device: 2 (log out) or 3 (decommission)');
      if (device.deviceId === null) throw DomainError.conflict(`device ${id} was never activated; delete its activation code instead`);
      if (device.deviceStatus === DeviceStatus.Decommissioned) throw DomainError.conflict(`device ${id} is already decommissioned`);
      const next = deviceStatus === '2' ? DeviceStatus.LoggedOut : DeviceStatus.Decommissioned;
      await this.repository.update(manager, device.uuid, { deviceStatus: next });
    });
  }

  /** DELETE device/{code}/idle: the code is kept and freed for (re-)activation for another 30 days. */
  async idle(groupId: string, id: string): Promise<void> {
    await this.repository.transaction(async (manager) => {
      const device = await this.requireDevice(groupId, id, manager, true);
      if (device.deviceStatus === DeviceStatus.Decommissioned) throw DomainError.conflict(`device ${id} is decommissioned; its code cannot be reused`);
      await this.repository.update(manager, device.uuid, { deviceStatus: DeviceStatus.Idle, expiresAt: new Date(Date.now() + ACTIVATION_CODE_TTL_MS) });
    });
  }

  /** POST device/code: e-mails the code of a device that can still be activated. */
  async emailCode(groupId: string, id: string, email: string): Promise<void> {
    const device = await this.requireDevice(groupId, id);
    if (!ACTIVATABLE_STATUSES.includes(device.deviceStatus)) {
      throw DomainError.conflict(`the activation code of device ${id} was already used; idle the device to free it first`);
    }
    const { merchant, pbo } = await this.context(device);
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
    try {
      await this.mailer.send(message);
    } catch (error) {
      if (error instanceof MailDeliveryError) {
        throw new DomainError(error.failure === 'timeout' ? ErrorCode.UpstreamTimeout : ErrorCode.Upstream, `the e-mail could not be sent: ${error.message}`);
      }
      throw error;
    }
  }

  /** The EMV parameters and AIDs a device gets (what activation and the config pull return). */
  resolvedEmv(context: DeviceContext): DeviceEmvDto {
    return {
      emvParams: { ...defaultEmvParams(context.merchant), ...(context.device.emvParams ?? {}) },
      emvAID: emvAidsOf(context.bindings, context.device.acceptances),
    };
  }

  async emv(groupId: string, id: string): Promise<DeviceEmvDto> {
    return this.resolvedEmv(await this.context(await this.requireDevice(groupId, id)));
  }

  /** Merchant deletion: refused while live codes or devices exist; decommissioned ones go with it. */
  async releaseMerchant(manager: EntityManager, merchantUuid: string, mchId: string): Promise<void> {
    const live = await this.repository.countLive(manager, merchantUuid);
    if (live > 0) throw DomainError.conflict(`merchant ${mchId} has ${live} activation code(s) or device(s); delete or decommission them first`);
    await this.repository.deleteDecommissioned(manager, merchantUuid);
  }

  /** Signs the token a device presents to the gateway and the device API. */
  deviceToken(device: DeviceEntity): Promise<string> {
    return signDeviceToken(this.auth, { deviceId: device.deviceId!, groupId: device.groupId, profileId: device.profileId }, DEVICE_TOKEN_TTL_SECONDS);
  }
}
