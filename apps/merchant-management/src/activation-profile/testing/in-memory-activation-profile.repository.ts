import { GatewayProfileUpsertV1 } from '@app/contracts';
import { DeviceStatus } from '../../shared/device-status';
import { ProfiledDevice, ProfileMerchant, ProfileValues } from '../acceptance';
import { BindingRecord } from '../binding-record';
import { ActivationProfileRepository } from '../persistence/activation-profile.repository';

/** A device as the fake stores it: its profile fields, its merchant and its pull flag. */
export type StoredDevice = ProfiledDevice & { merchantUuid: string; deviceUpdate: number };

/**
 * {@link ActivationProfileRepository} in memory, for the unit tests of the services above it: the
 * merchants, bindings and devices a test sets up, and the upserts the services queue.
 */
export class InMemoryActivationProfileRepository implements Pick<ActivationProfileRepository, keyof ActivationProfileRepository> {
  readonly merchants = new Map<string, ProfileMerchant>();
  readonly bindings = new Map<string, BindingRecord[]>();
  /** Devices by uuid, with the merchant they belong to. */
  readonly devices = new Map<string, StoredDevice>();
  readonly upserts: GatewayProfileUpsertV1[] = [];
  readonly locks: string[] = [];

  async lockMerchant(groupId: string, merchantUuid: string, mode: 'share' | 'update'): Promise<void> {
    this.locks.push(`${mode}:${merchantUuid}`);
  }

  async source(groupId: string, merchantUuid: string): Promise<{ merchant: ProfileMerchant; bindings: BindingRecord[] } | null> {
    const merchant = this.merchants.get(merchantUuid);
    if (!merchant || merchant.groupId !== groupId) return null;
    return { merchant, bindings: this.bindings.get(merchantUuid) ?? [] };
  }

  async devicesOfMerchantForUpdate(groupId: string, merchantUuid: string, only?: readonly string[]): Promise<ProfiledDevice[]> {
    return [...this.devices.values()]
      .filter((d) => d.merchantUuid === merchantUuid && d.groupId === groupId && (only ? only.includes(d.uuid) : d.deviceStatus !== DeviceStatus.Decommissioned))
      .map((d) => ({ ...d }));
  }

  async merchantUuidsBoundToProfile(groupId: string, profileId: number): Promise<string[]> {
    return [...this.bindings.entries()]
      .filter(([uuid, bindings]) => this.merchants.get(uuid)?.groupId === groupId && bindings.some((b) => b.acquirerProfileId === profileId))
      .map(([uuid]) => uuid)
      .sort();
  }

  async updateProfiles(groupId: string, changes: { uuid: string; values: ProfileValues }[]): Promise<void> {
    for (const { uuid, values } of changes) {
      const device = this.devices.get(uuid);
      if (device && device.groupId === groupId) this.devices.set(uuid, { ...device, ...values });
    }
  }

  async flagDevicesUsingEmv(groupId: string, emvId: number): Promise<number> {
    let flagged = 0;
    for (const device of this.devices.values()) {
      if (device.groupId !== groupId || device.deviceUpdate === 1) continue;
      if (device.deviceStatus === DeviceStatus.Pending || device.deviceStatus === DeviceStatus.Decommissioned) continue;
      const bindings = this.bindings.get(device.merchantUuid) ?? [];
      const reached = device.acceptances.some((acceptance) =>
        bindings.some(
          (binding) =>
            binding.acquirerProfileId === acceptance.acquirerProfileId &&
            binding.methods.some((method) => acceptance.paymentMethodCodes.includes(method.paymentMethodCode) && method.emvs.some((emv) => emv.emvId === emvId)),
        ),
      );
      if (reached) {
        this.devices.set(device.uuid, { ...device, deviceUpdate: 1 });
        flagged += 1;
      }
    }
    return flagged;
  }

  /** Devices marked for the activeSdkId re-push. */
  readonly awaitingActiveSdk = new Set<string>();

  async merchantsAwaitingActiveSdk(limit: number): Promise<Array<{ groupId: string; merchantUuid: string }>> {
    const merchants = new Map<string, { groupId: string; merchantUuid: string }>();
    for (const uuid of this.awaitingActiveSdk) {
      const device = this.devices.get(uuid);
      if (device) merchants.set(device.merchantUuid, { groupId: device.groupId, merchantUuid: device.merchantUuid });
    }
    return [...merchants.values()].sort((a, b) => a.merchantUuid.localeCompare(b.merchantUuid)).slice(0, limit);
  }

  async takeAwaitingActiveSdk(groupId: string, merchantUuid: string): Promise<string[]> {
    const taken = [...this.awaitingActiveSdk].filter((uuid) => this.devices.get(uuid)?.groupId === groupId && this.devices.get(uuid)?.merchantUuid === merchantUuid);
    for (const uuid of taken) this.awaitingActiveSdk.delete(uuid);
    return taken;
  }

  /** Devices count as created in the order they were stored. */
  async lockTerminals(): Promise<void> {
    // One caller at a time in memory: nothing to serialise.
  }

  async terminalsOfOtherPbos(
    groupId: string,
    deviceUuid: string | null,
    identities: Array<{ hostMessageFormat: string; mid: string; tid: string }>,
  ): Promise<Array<{ groupId: string; hostMessageFormat: string; hostUrl: string | null; mid: string; tid: string; writerIsOlder: boolean }>> {
    const all = [...this.devices.values()];
    const mine = deviceUuid === null ? -1 : all.findIndex((device) => device.uuid === deviceUuid);
    const same = (a: { hostMessageFormat: string; primaryMid: string | null; primaryTid: string | null }, i: { hostMessageFormat: string; mid: string; tid: string }) =>
      i.hostMessageFormat === a.hostMessageFormat && i.mid === a.primaryMid && i.tid === a.primaryTid;
    return all
      .filter((device, index) => device.groupId !== groupId && device.deviceStatus !== DeviceStatus.Decommissioned && device.profileId !== null && index !== mine)
      .flatMap((device) => device.acceptances.map((a) => ({ a, groupId: device.groupId, writerIsOlder: mine >= 0 && all.indexOf(device) > mine })))
      .filter(({ a }) => identities.some((i) => same(a, i)))
      .map(({ a, groupId: owner, writerIsOlder }) => ({
        groupId: owner,
        hostMessageFormat: a.hostMessageFormat,
        hostUrl: typeof a.extraParams.connUrl === 'string' ? a.extraParams.connUrl : null,
        mid: a.primaryMid!,
        tid: a.primaryTid!,
        writerIsOlder,
      }));
  }

  async storedTerminalsOf(deviceUuid: string): Promise<Array<{ hostMessageFormat: string; hostUrl: string | null; mid: string | null; tid: string | null }>> {
    return (this.devices.get(deviceUuid)?.acceptances ?? []).map((a) => ({
      hostMessageFormat: a.hostMessageFormat,
      hostUrl: typeof a.extraParams.connUrl === 'string' ? a.extraParams.connUrl : null,
      mid: a.primaryMid,
      tid: a.primaryTid,
    }));
  }

  async enqueueUpserts(upserts: GatewayProfileUpsertV1[]): Promise<void> {
    this.upserts.push(...upserts);
  }
}

/** A binding of a merchant to an acquirer profile with the given method codes. */
export function bindingOf(merchantUuid: string, acquirerProfileId: number, codes: string[], overrides: Partial<BindingRecord> = {}): BindingRecord {
  return {
    bindingId: acquirerProfileId,
    merchantUuid,
    acquirerProfileId,
    profileName: `Acquirer ${acquirerProfileId}`,
    acqType: 'card',
    currency: 'MYR',
    mid: null,
    connMessageFormat: 'SVC_ENABLER',
    enablerMsgFormat: null,
    enablerParams: null,
    connUrl: null,
    connExtraParams: null,
    methods: codes.map((code) => ({ paymentMethodCode: code, allows: [], emvs: [{ emvId: 1, emvName: 'visa', aid: 'A0000000031010' }] })),
    ...overrides,
  };
}

/** A merchant of a PBO, with the fields an activation profile carries. */
export function merchantOf(groupId: string, uuid: string, overrides: Partial<ProfileMerchant> = {}): ProfileMerchant {
  return { uuid, groupId, mchId: `1${uuid.replace(/\D/g, '').padStart(14, '0').slice(-14)}`, mchName: `Merchant ${uuid}`, contactAddress: null, mcc: '5812', country: 'MY', currency: 'MYR', timeZone: 'Asia/Kuala_Lumpur', ...overrides };
}

/** A device of a merchant with no profile yet. */
export function profiledDeviceOf(groupId: string, merchantUuid: string, uuid: string, overrides: Partial<StoredDevice> = {}): StoredDevice {
  return {
    uuid,
    groupId,
    merchantUuid,
    deviceUpdate: 0,
    deviceStatus: DeviceStatus.Active,
    deviceAlias: null,
    deviceName: null,
    methodList: null,
    extParams: null,
    emvParams: null,
    profileId: null,
    profileVersion: 0,
    acceptances: [],
    ...overrides,
  };
}
