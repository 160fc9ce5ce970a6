import { DomainError, Page, PageRequest, toPage } from '@app/common';
import { GatewayProfileOutcomeV1 } from '@app/contracts';
import { UnitOfWork } from '@app/database';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ActivationProfileService } from '../activation-profile/activation-profile.service';
import { Device } from '../device/device';
import { DeviceService } from '../device/device.service';
import { DeviceView } from '../device/device.view';
import { DeviceRepository } from '../device/persistence/device.repository';
import { MerchantRepository } from '../merchant/persistence/merchant.repository';
import { ProfileSyncRepository, UnsyncedFilter } from './persistence/profile-sync.repository';

/**
 * Profile sync state (docs/decisions.md, "Profile sync state"): records the gateway's outcome of
 * each push on its device, lists a PBO's devices whose profile is not APPLIED, and replays their
 * current profile. Every read and write is scoped to the caller's PBO.
 */
@Injectable()
export class ProfileSyncService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ProfileSync');
  private backfill: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly repository: ProfileSyncRepository,
    private readonly devices: DeviceService,
    private readonly deviceRows: DeviceRepository,
    private readonly merchants: MerchantRepository,
    private readonly profiles: ActivationProfileService,
    private readonly uow: UnitOfWork,
  ) {}

  /** Records one outcome from the gateway (redelivered, stale and unknown ones change nothing). */
  async recordOutcome(outcome: GatewayProfileOutcomeV1): Promise<void> {
    const recorded = await this.repository.recordOutcome(outcome);
    if (recorded && outcome.outcome === 'REJECTED') {
      this.logger.warn(`the gateway refused profile ${outcome.profileId} version ${outcome.version} of group ${outcome.groupId}: ${outcome.reason ?? ''}`);
    }
  }

  list(groupId: string, filter: UnsyncedFilter, page: PageRequest): Promise<Page<DeviceView>> {
    return this.uow.run(async () => {
      const [records, total] = await this.repository.listUnsynced(groupId, filter, page);
      return toPage(
        page,
        records.map(({ device, mchId }) => this.devices.view(device, mchId)),
        total,
      );
    });
  }

  /**
   * Pushes the current profile of the PBO's device `id` (device id, `CD-` id or bare code) again
   * with the next version. Another PBO's device answers as an unknown one (14000): a replay
   * endpoint must not tell which ids exist elsewhere. 10000 (409) when the device has no profile.
   */
  async replayOne(groupId: string, id: string): Promise<DeviceView> {
    await this.devices.throttleCodeLookup(groupId, id);
    const key = this.devices.keyOf(id);
    const found = key ? await this.deviceRows.findOwned(groupId, key) : null;
    if (!found) throw DomainError.notFound(`device ${id} does not exist`);
    if (!found.profileId) throw DomainError.conflict(`device ${id} has no gateway profile: no acquirer bound to its merchant matches its payment methods`);
    const [replayed] = await this.uow.run(() => this.profiles.replay(groupId, found.merchantUuid, [found.uuid]));
    const merchant = await this.merchants.findByUuid(groupId, found.merchantUuid);
    const device: Device = { ...found, profileVersion: replayed?.profileVersion ?? found.profileVersion };
    return this.devices.view(device, merchant?.mchId ?? '');
  }

  /**
   * The activeSdkId backfill (docs/decisions.md, "activeSdkId of profiles pushed before it"):
   * re-pushes each device marked by migration 1764100000000 (active, with a profile pushed before
   * the gateway learnt activations) once, one merchant per transaction, so the gateway learns whose
   * token pays. Runs at start; answers how many devices were pushed.
   */
  async backfillActiveSdkIds(): Promise<number> {
    let pushed = 0;
    for (;;) {
      const merchants = await this.uow.run(() => this.profiles.merchantsAwaitingActiveSdk(100));
      if (merchants.length === 0) break;
      for (const { groupId, merchantUuid } of merchants) pushed += (await this.uow.run(() => this.profiles.pushAwaitingActiveSdk(groupId, merchantUuid))).length;
    }
    if (pushed > 0) this.logger.log(`pushed ${pushed} profile(s) again so that the gateway learns their device's current activation`);
    return pushed;
  }

  /** Starts the backfill without holding up the start; a failure is logged, and the marks left are taken at the next start. */
  onApplicationBootstrap(): void {
    this.backfill = this.backfillActiveSdkIds().catch((error: unknown) => {
      this.logger.error(`the activeSdkId backfill stopped: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    });
  }

  /** Lets a running backfill end before the connections close. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.backfill;
  }

  /** Replays every device of the PBO whose profile sync is not APPLIED (narrowed by `filter`), one merchant per transaction; answers how many. */
  async replayAll(groupId: string, filter: UnsyncedFilter): Promise<number> {
    const [unsynced] = await this.uow.run(() => this.repository.listUnsynced(groupId, filter, null));
    const byMerchant = new Map<string, string[]>();
    for (const { device } of unsynced) byMerchant.set(device.merchantUuid, [...(byMerchant.get(device.merchantUuid) ?? []), device.uuid]);
    let replayed = 0;
    for (const [merchantUuid, uuids] of [...byMerchant.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      replayed += (await this.uow.run(() => this.profiles.replay(groupId, merchantUuid, uuids))).length;
    }
    this.logger.log(`replayed ${replayed} profile(s) of group ${groupId}`);
    return replayed;
  }
}
