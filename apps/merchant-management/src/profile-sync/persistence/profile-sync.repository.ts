import { PageRequest } from '@app/common';
import { GatewayProfileOutcomeV1 } from '@app/contracts';
import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { Device, ProfileSyncState } from '../../device/device';
import { DeviceEntity } from '../../device/persistence/device.entity';

/** A device whose profile sync is not APPLIED, with its merchant's mchId. */
export interface UnsyncedDevice {
  device: Device;
  mchId: string;
}

/** Which of the not-APPLIED devices a list or replay takes. */
export interface UnsyncedFilter {
  /** Only PENDING or only REJECTED; both when omitted. */
  state?: Exclude<ProfileSyncState, 'APPLIED'>;
  mchId?: string;
}

/** SQL of "not APPLIED" (see profileSyncOf): the latest push has no outcome yet, or it was refused. */
const PENDING = 'd.profile_sync_outcome IS NULL OR d.profile_sync_version < d.profile_version';
const REJECTED = `d.profile_sync_outcome = 'REJECTED' AND d.profile_sync_version >= d.profile_version`;

/** The profile sync columns of the device table: the gateway's outcomes in, the operator's lists out. Joins the caller's unit of work. */
@Injectable()
export class ProfileSyncRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  /**
   * Records the gateway's outcome on the device that holds its profile, only moving forward: an
   * outcome of a version below the one recorded, or above the latest pushed, changes nothing, so
   * redelivered and out-of-order outcomes are harmless. Answers whether it was recorded.
   */
  async recordOutcome(outcome: GatewayProfileOutcomeV1): Promise<boolean> {
    const rows: unknown[] = await this.uow.manager.query(
      `UPDATE device AS d
          SET profile_sync_version = $3, profile_sync_outcome = $4, profile_sync_reason = $5, profile_synced_at = $6
        WHERE d.profile_id = $1 AND d.group_id = $2 AND d.profile_sync_version < $3 AND d.profile_version >= $3
       RETURNING d.uuid`,
      [outcome.profileId, outcome.groupId, outcome.version, outcome.outcome, outcome.outcome === 'REJECTED' ? outcome.reason : null, new Date(outcome.decidedAt)],
    );
    return rows.length > 0;
  }

  /** The PBO's devices whose profile sync is not APPLIED, newest first (as the device list); `page` null: all of them. */
  async listUnsynced(groupId: string, filter: UnsyncedFilter, page: PageRequest | null): Promise<[UnsyncedDevice[], number]> {
    const query = this.uow.manager
      .getRepository(DeviceEntity)
      .createQueryBuilder('d')
      .innerJoin('merchant', 'm', 'm.uuid = d.merchant_uuid')
      .addSelect('m.mch_id', 'mch_id')
      .where('d.group_id = :groupId AND d.profile_id IS NOT NULL', { groupId })
      .andWhere(filter.state === 'PENDING' ? `(${PENDING})` : filter.state === 'REJECTED' ? `(${REJECTED})` : `((${PENDING}) OR (${REJECTED}))`);
    if (filter.mchId !== undefined) query.andWhere('m.mch_id = :mchId', { mchId: filter.mchId });
    query.orderBy('d.created_at', 'DESC').addOrderBy('d.uuid', 'ASC');
    const total = await query.getCount();
    if (page) {
      query.offset(page.offset);
      if (page.limit !== null) query.limit(page.limit);
    }
    const { entities, raw } = await query.getRawAndEntities<{ d_uuid: string; mch_id: string }>();
    const mchIds = new Map(raw.map((row) => [row.d_uuid, row.mch_id]));
    return [entities.map((device) => ({ device, mchId: mchIds.get(device.uuid) as string })), total];
  }
}
