import { canonicalJson, DomainError, IdGenerator } from '@app/common';
import { describeTakenTerminal, GatewayProfileUpsertV1, terminalIdentityOf } from '@app/contracts';
import { HOST_ADDRESS_POLICY, HostAddressPolicy } from '@app/messaging';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { PboService } from '../pbo/pbo.service';
import { DeviceStatus } from '../shared/device-status';
import { AcceptanceSnapshot, ProfiledDevice, ProfileSource, ProfileValues } from './acceptance';
import { buildAcceptances, defaultEmvParams, DeviceSelection, emvAidsOf, hasTerminalCountry } from './activation-profile.builder';
import { gatewayStatusOf, keepsTerminals, namedTerminalOf, namedTerminalOfSnapshot, toGatewayProfileUpsert } from './gateway-profile.mapping';
import { ActivationProfileRepository } from './persistence/activation-profile.repository';
import { AcceptedTerminal, terminalIdentitiesAtConnector, terminalKeysOf } from './terminal-hosts';

function sameAcceptances(a: AcceptanceSnapshot[], b: AcceptanceSnapshot[]): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** How a device's profile is recomputed after a change. */
export interface RefreshOptions {
  /** Flag the device to pull its configuration even when the acceptances stay (EMV or merchant change). */
  forceUpdateFlag?: boolean;
  /** Refuse (10000) a matching acquirer whose enabler fields the device lacks; else leave that acceptance out. */
  strict?: boolean;
  /** Push the profile even when the acceptances stay (a rename, a merchant change). */
  forcePush?: boolean;
}

/** A device's recomputed profile fields and the upsert to push, if any. */
export interface Recomputed {
  values: ProfileValues;
  upsert?: GatewayProfileUpsertV1;
}

/** The EMV parameters and AIDs a device gets (what activation and the config pull return). */
export interface ResolvedEmv {
  emvParams: Record<string, string>;
  emvAID: { aid: string; paymentMethod: string }[];
}

/**
 * The activation profile of devices (docs/architecture.md, flows 2 and 3): builds it, decides
 * when a change re-pushes it with the next version, maps it to the gateway upsert contract and
 * writes the upsert to the outbox. Device, merchant, acquirer and payment-config changes call it;
 * it calls none of them. Writes join the caller's unit of work.
 */
@Injectable()
export class ActivationProfileService {
  private readonly logger = new Logger('ActivationProfileService');

  constructor(
    private readonly repository: ActivationProfileRepository,
    private readonly pbos: PboService,
    private readonly ids: IdGenerator,
    @Inject(HOST_ADDRESS_POLICY) private readonly hostAddresses: HostAddressPolicy,
  ) {}

  /** `prof_` + 16 random base64url characters: the gateway profile id of a device. */
  newProfileId(): string {
    return `prof_${this.ids.bytes(12).toString('base64url')}`;
  }

  /** Locks the merchant row for the rest of the unit of work, before its bindings change. */
  lockMerchant(groupId: string, merchantUuid: string): Promise<void> {
    return this.repository.lockMerchant(groupId, merchantUuid, 'update');
  }

  /**
   * What a merchant's device profiles are built from; `lock` takes the merchant row first (inside
   * a unit of work): `share` for a new device, `update` for a change of its bindings.
   */
  async source(groupId: string, merchantUuid: string, lock?: 'share' | 'update'): Promise<ProfileSource> {
    if (lock) await this.repository.lockMerchant(groupId, merchantUuid, lock);
    const [read, pbo] = await Promise.all([this.repository.source(groupId, merchantUuid), this.pbos.require(groupId)]);
    if (!read) throw DomainError.notFound(`merchant ${merchantUuid} does not exist`);
    return { ...read, pbo };
  }

  /** The profile of a device about to be created: version 1 when an acquirer matches, none otherwise. */
  initialProfile(source: ProfileSource, selection: DeviceSelection): { acceptances: AcceptanceSnapshot[]; profileId: string | null; profileVersion: number } {
    const acceptances = buildAcceptances(source.bindings, source.pbo, selection);
    return acceptances.length > 0 ? { acceptances, profileId: this.newProfileId(), profileVersion: 1 } : { acceptances, profileId: null, profileVersion: 0 };
  }

  /** Queues the first push of a device created with a profile ({@link initialProfile}). */
  async publishCreated(device: ProfiledDevice, source: ProfileSource): Promise<void> {
    if (!device.profileId) return;
    const upsert = toGatewayProfileUpsert({ ...device, profileId: device.profileId }, source.merchant, device.acceptances, device.profileVersion);
    await this.requireOwnTerminals(upsert, true);
    await this.repository.enqueueUpserts([upsert]);
  }

  /**
   * Refuses (409) a device whose live profile names a terminal — MID/TID at a host, the format and
   * address alike (docs/decisions.md, "One owner per terminal identity"), the address as the host
   * connector names it ("A terminal is claimed at write time on the connector's endpoint") — that an older device of
   * another PBO names (`created`: the device is being created, every other device is older):
   * merchant-management holds every PBO's devices, so it tells the operator at once what the
   * gateway would refuse after the push. Race-safe (docs/decisions.md, "Outside review r14c"):
   * the terminals are locked (`lockTerminals`) before other PBOs' devices are read, until the
   * write commits, so of two PBOs writing one terminal at once the second reads the first's device.
   */
  private async requireOwnTerminals(upsert: GatewayProfileUpsertV1, created = false): Promise<void> {
    if (upsert.entityStatus === 'DISABLED') return;
    const atConnector = async (acceptances: readonly AcceptedTerminal[]) =>
      (await terminalIdentitiesAtConnector(this.hostAddresses, upsert.groupId, acceptances, this.logger)).flatMap((terminal) => terminal ?? []);
    const wanted = await atConnector(upsert.acceptances.map((a) => ({ hostMessageFormat: a.hostMessageFormat, hostUrl: a.hostUrl ?? null, mid: a.primaryMid, tid: a.primaryTid })));
    if (wanted.length === 0) return;
    await this.repository.lockTerminals(wanted);
    const others = await this.repository.terminalsOfOtherPbos(upsert.groupId, created ? null : upsert.deviceId, wanted);
    // An older device keeps a terminal another PBO's newer device names only when its stored
    // acceptances already name that terminal at that very host (a pair from before the rule), as
    // the connector keys hosts: an old device elsewhere gives no right to the other PBO's host (r14e).
    const mineBefore = new Set(
      created || !others.some((other) => other.writerIsOlder) ? [] : (await atConnector(await this.repository.storedTerminalsOf(upsert.deviceId))).flatMap(terminalKeysOf),
    );
    // Two terminals are one when they share a key: the host as the connector names it, or one of the
    // `ip:port`s it reaches (r14f: a host name of another PBO's host).
    const othersAtConnector = await terminalIdentitiesAtConnector(this.hostAddresses, upsert.groupId, others, this.logger);
    const taken = new Set(
      othersAtConnector.flatMap((terminal, index) => {
        const keys = terminal === null ? [] : terminalKeysOf(terminal);
        return others[index].writerIsOlder && keys.some((key) => mineBefore.has(key)) ? [] : keys;
      }),
    );
    const clash = wanted.find((terminal) => terminalKeysOf(terminal).some((key) => taken.has(key)));
    if (clash) throw DomainError.conflict(describeTakenTerminal(clash));
  }

  /**
   * The re-push decision for one device: recomputes its acceptances with `changes` applied and,
   * when they changed (or `forcePush` and the device has a profile), answers the next version and
   * the upsert. A device gets its gateway profile the first time an acquirer matches; an empty
   * list later unbinds all. An active device is flagged to pull when its profile changed.
   */
  recompute(source: ProfileSource, device: ProfiledDevice, changes: Partial<ProfiledDevice>, options: RefreshOptions = {}): Recomputed {
    const { forceUpdateFlag = false, strict = true, forcePush = false } = options;
    const next = { ...device, ...changes };
    const acceptances = buildAcceptances(source.bindings, source.pbo, { methodList: next.methodList, extParams: next.extParams }, strict);
    const values: ProfileValues = {};
    let upsert: GatewayProfileUpsertV1 | undefined;
    const profileChanged = !sameAcceptances(acceptances, device.acceptances);
    if (profileChanged || (forcePush && device.profileId)) {
      values.acceptances = acceptances;
      const profileId = device.profileId ?? (acceptances.length > 0 ? this.newProfileId() : null);
      if (profileId) {
        const version = device.profileVersion + 1;
        values.profileId = profileId;
        values.profileVersion = version;
        upsert = toGatewayProfileUpsert({ ...next, profileId }, source.merchant, acceptances, version);
      }
    }
    if ((profileChanged || forceUpdateFlag) && device.deviceStatus !== DeviceStatus.Pending) values.deviceUpdate = 1;
    return { values, upsert };
  }

  /** {@link recompute} for a device change (PUT device), queuing its upsert; answers the profile fields to store. */
  async refreshDevice(source: ProfileSource, device: ProfiledDevice, changes: Partial<ProfiledDevice>, options: RefreshOptions): Promise<ProfileValues> {
    const { values, upsert } = this.recompute(source, device, changes, options);
    if (upsert) {
      await this.requireOwnTerminals(upsert);
      await this.repository.enqueueUpserts([upsert]);
    }
    return values;
  }

  /**
   * A lifecycle transition of a device (activation, log-out, decommissioning, idling, deletion of
   * its code) that changes what the gateway enforces: queues its profile with the next version and
   * the new status, in the caller's unit of work, and answers the version to store. Nothing when
   * the device has no profile or what the gateway enforces stays (its status, and whether a
   * DISABLED device keeps its terminals: {@link keepsTerminals}), except on an activation
   * (`activatedAs`, the device's new id), which is always pushed: the gateway must learn whose
   * token pays from now on, even when a pending device's profile was ACTIVE already.
   */
  async pushLifecycle(source: ProfileSource, device: ProfiledDevice, next: DeviceStatus | 'deleted', activatedAs?: string): Promise<{ profileVersion?: number }> {
    if (!device.profileId) return {};
    // Idled or logged out, then decommissioned or its code deleted: DISABLED both, but the gateway
    // must learn that the terminals are free now (review r14i).
    if (activatedAs === undefined && gatewayStatusOf(device.deviceStatus) === gatewayStatusOf(next) && keepsTerminals(device.deviceStatus) === keepsTerminals(next)) return {};
    const version = device.profileVersion + 1;
    const pushed = { ...device, profileId: device.profileId, deviceStatus: next, deviceId: activatedAs ?? device.deviceId };
    await this.repository.enqueueUpserts([toGatewayProfileUpsert(pushed, source.merchant, device.acceptances, version)]);
    return { profileVersion: version };
  }

  /**
   * Re-push (docs/architecture.md, flow 3): after a payment-config change of a merchant,
   * recompute the activation profile of each of its devices in the caller's transaction and queue
   * an upsert with the next version for each that changed (for all of them when the merchant's own
   * fields, which the profile carries, changed). The caller holds the merchant row's update lock.
   * Answers how many devices changed.
   */
  async repushMerchant(groupId: string, merchantUuid: string, merchantChanged = false): Promise<number> {
    const devices = await this.repository.devicesOfMerchantForUpdate(groupId, merchantUuid);
    if (devices.length === 0) return 0;
    const source = await this.source(groupId, merchantUuid);
    if (merchantChanged) {
      // The merchant's country, time zone and currency give its devices their terminal country: a change may not take it away.
      const lacking = devices.filter((device) => device.deviceStatus !== DeviceStatus.Decommissioned && !hasTerminalCountry(source.merchant, device.emvParams));
      if (lacking.length > 0) {
        const { timeZone, currency } = source.merchant;
        throw DomainError.validation(
          `country is required: ${lacking.length} device(s) of merchant ${source.merchant.mchId} have no emvParams.terminalCountryCode of their own, and neither the time zone (${timeZone}) nor the currency (${currency}) names a country`,
        );
      }
    }
    const changed: { uuid: string; values: ProfileValues }[] = [];
    const upserts: GatewayProfileUpsertV1[] = [];
    /** Each live upsert with the acceptances that name a terminal its device did not name before. */
    const moved: GatewayProfileUpsertV1[] = [];
    for (const device of devices) {
      // A merchant change can move the EMV defaults (country, currency): the device pulls again.
      const { values, upsert } = this.recompute(source, device, {}, { forceUpdateFlag: merchantChanged, strict: false, forcePush: merchantChanged });
      if (upsert) upserts.push(upsert);
      if (Object.keys(values).length > 0) changed.push({ uuid: device.uuid, values });
      if (upsert && upsert.entityStatus !== 'DISABLED') {
        const named = new Set(device.acceptances.map(namedTerminalOfSnapshot));
        const fresh = upsert.acceptances.filter((acceptance) => !named.has(namedTerminalOf(acceptance)));
        if (fresh.length > 0) moved.push({ ...upsert, acceptances: fresh });
      }
    }
    // Serialised with the device writes (the same locks, all of them first, in key order), and a
    // change that moves a device onto a terminal (an acquirer's new address, a new binding) is
    // refused (409) as a device write would be when another PBO's device names that terminal
    // (docs/decisions.md, "Outside review r14d"). A terminal the device named already is not asked
    // again: a change of the merchant's name does not fail on a conflict it did not make.
    await this.repository.lockTerminals(upserts.filter((upsert) => upsert.entityStatus !== 'DISABLED').flatMap(terminalsNamedBy));
    for (const upsert of moved) await this.requireOwnTerminals(upsert);
    // One multi-row outbox INSERT and one UPDATE for the whole merchant, not two statements per device.
    await this.repository.enqueueUpserts(upserts);
    await this.repository.updateProfiles(groupId, changed);
    return changed.length;
  }

  /**
   * Replay (docs/decisions.md, "Profile sync state"): pushes the current profile of each of
   * `deviceUuids` (devices of one merchant) again with the next version, whatever their status (a
   * decommissioned device's push carries DISABLED), in the caller's unit of work; a device
   * without a profile is skipped. Takes the merchant's update lock as a re-push does. Answers the
   * devices pushed and their new versions.
   */
  async replay(groupId: string, merchantUuid: string, deviceUuids: readonly string[]): Promise<Array<{ uuid: string; profileVersion: number }>> {
    await this.repository.lockMerchant(groupId, merchantUuid, 'update');
    const devices = await this.repository.devicesOfMerchantForUpdate(groupId, merchantUuid, deviceUuids);
    if (devices.length === 0) return [];
    const source = await this.source(groupId, merchantUuid);
    const changed: { uuid: string; values: ProfileValues }[] = [];
    const upserts: GatewayProfileUpsertV1[] = [];
    for (const device of devices) {
      if (!device.profileId) continue;
      const { values, upsert } = this.recompute(source, device, {}, { strict: false, forcePush: true });
      if (upsert) upserts.push(upsert);
      changed.push({ uuid: device.uuid, values });
    }
    await this.repository.enqueueUpserts(upserts);
    await this.repository.updateProfiles(groupId, changed);
    return changed.map(({ uuid, values }) => ({ uuid, profileVersion: values.profileVersion as number }));
  }

  /** Merchants with a device whose profile awaits its activeSdkId re-push (migration 1764100000000). */
  merchantsAwaitingActiveSdk(limit: number): Promise<Array<{ groupId: string; merchantUuid: string }>> {
    return this.repository.merchantsAwaitingActiveSdk(limit);
  }

  /**
   * Re-pushes (as {@link replay}) the merchant's devices still awaiting their activeSdkId re-push and
   * clears their mark, in the caller's unit of work; answers the devices pushed. Under the
   * merchant's update lock, so two replicas never push one device twice for it.
   */
  async pushAwaitingActiveSdk(groupId: string, merchantUuid: string): Promise<Array<{ uuid: string; profileVersion: number }>> {
    await this.repository.lockMerchant(groupId, merchantUuid, 'update');
    const uuids = await this.repository.takeAwaitingActiveSdk(groupId, merchantUuid);
    return uuids.length === 0 ? [] : this.replay(groupId, merchantUuid, uuids);
  }

  /**
   * After a change of an acquirer profile's fields that shape an acceptance: re-pushes the devices
   * of every merchant bound to it, each merchant locked in turn (in uuid order).
   */
  async repushAcquirer(groupId: string, acquirerProfileId: number): Promise<void> {
    for (const merchantUuid of await this.repository.merchantUuidsBoundToProfile(groupId, acquirerProfileId)) {
      await this.repository.lockMerchant(groupId, merchantUuid, 'update');
      await this.repushMerchant(groupId, merchantUuid);
    }
  }

  /**
   * After an EMV config's content changed: every device that gets its AIDs and that has been
   * activated (pending and decommissioned ones excepted) is flagged to pull (deviceUpdate 1), in
   * the caller's transaction. Answers how many devices were flagged.
   */
  flagDevicesUsingEmv(groupId: string, emvId: number): Promise<number> {
    return this.repository.flagDevicesUsingEmv(groupId, emvId);
  }

  /** The EMV parameters (merchant defaults under the device's own) and the AIDs of its acceptances. */
  resolvedEmv(source: ProfileSource, device: Pick<ProfiledDevice, 'emvParams' | 'acceptances'>): ResolvedEmv {
    return {
      emvParams: { ...defaultEmvParams(source.merchant), ...(device.emvParams ?? {}) },
      emvAID: emvAidsOf(source.bindings, device.acceptances),
    };
  }
}

/** The terminals (format, MID and TID without their pad) an upsert's acceptances name, as `lockTerminals` keys them. */
function terminalsNamedBy(upsert: GatewayProfileUpsertV1): Array<{ hostMessageFormat: string; mid: string; tid: string }> {
  return upsert.acceptances.flatMap((a) => {
    const identity = terminalIdentityOf(a.hostMessageFormat, a.hostUrl ?? null, a.primaryMid, a.primaryTid);
    return identity ? [{ hostMessageFormat: identity.hostMessageFormat, mid: identity.mid, tid: identity.tid }] : [];
  });
}
