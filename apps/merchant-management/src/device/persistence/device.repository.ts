import { PageRequest } from '@app/common';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { InjectMmDataSource } from '../../shared/inject';
import { DeviceStatus, LIVE_STATUSES } from '../device-status';
import { DeviceEntity } from './device.entity';

export type DeviceValues = Omit<DeviceEntity, 'createdAt' | 'updatedAt' | 'merchant'>;

/** How a caller named a device: by its activation code (CD- id or bare code) or its device id. */
export type DeviceKey = { codeLookup: string } | { deviceId: string };

@Injectable()
export class DeviceRepository {
  constructor(@InjectMmDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** By code or device id, whatever the owner (the service applies the tenancy rule). */
  find(key: DeviceKey, manager: EntityManager = this.dataSource.manager, lock = false): Promise<DeviceEntity | null> {
    const query = manager.getRepository(DeviceEntity).createQueryBuilder('d');
    if ('codeLookup' in key) query.where('d.code_lookup = :lookup', { lookup: key.codeLookup });
    else query.where('d.device_id = :deviceId', { deviceId: key.deviceId });
    if (lock) query.setLock('pessimistic_write');
    return query.getOne();
  }

  async list(merchantUuid: string, filter: { key?: DeviceKey; deviceType?: string }, page: PageRequest): Promise<[DeviceEntity[], number]> {
    const query = this.dataSource.getRepository(DeviceEntity).createQueryBuilder('d').where('d.merchant_uuid = :merchantUuid', { merchantUuid });
    if (filter.key && 'codeLookup' in filter.key) query.andWhere('d.code_lookup = :lookup', { lookup: filter.key.codeLookup });
    if (filter.key && 'deviceId' in filter.key) query.andWhere('d.device_id = :deviceId', { deviceId: filter.key.deviceId });
    if (filter.deviceType) query.andWhere('d.device_type = :deviceType', { deviceType: filter.deviceType });
    query.orderBy('d.created_at', 'DESC').addOrderBy('d.uuid', 'ASC').offset(page.offset);
    if (page.limit !== null) query.limit(page.limit);
    return query.getManyAndCount();
  }

  async insert(manager: EntityManager, values: DeviceValues): Promise<void> {
    await manager.getRepository(DeviceEntity).insert(values as QueryDeepPartialEntity<DeviceEntity>);
  }

  async update(manager: EntityManager, uuid: string, values: Partial<DeviceValues>): Promise<void> {
    await manager.getRepository(DeviceEntity).update({ uuid }, values as QueryDeepPartialEntity<DeviceEntity>);
  }

  /**
   * The profile fields a re-push computes (acceptances, profileId, profileVersion, deviceUpdate)
   * of many devices in one statement; a field a device's values leave out is kept.
   */
  async updateProfiles(manager: EntityManager, changes: { uuid: string; values: Partial<DeviceValues> }[]): Promise<void> {
    const supported = new Set(['acceptances', 'profileId', 'profileVersion', 'deviceUpdate']);
    const other = changes.flatMap(({ values }) => Object.keys(values)).find((key) => !supported.has(key));
    if (other !== undefined) throw new Error(`updateProfiles cannot set ${other}`);
    if (changes.length === 0) return;
    await manager.query(
      `UPDATE merchant_management.device AS d
          SET acceptances = COALESCE(v.acceptances, d.acceptances),
              profile_id = COALESCE(v.profile_id, d.profile_id),
              profile_version = COALESCE(v.profile_version, d.profile_version),
              device_update = COALESCE(v.device_update, d.device_update),
              updated_at = CURRENT_TIMESTAMP
         FROM unnest($1::uuid[], $2::jsonb[], $3::varchar[], $4::int[], $5::smallint[]) AS v(uuid, acceptances, profile_id, profile_version, device_update)
        WHERE d.uuid = v.uuid`,
      [
        changes.map((c) => c.uuid),
        changes.map((c) => (c.values.acceptances === undefined ? null : JSON.stringify(c.values.acceptances))),
        changes.map((c) => c.values.profileId ?? null),
        changes.map((c) => c.values.profileVersion ?? null),
        changes.map((c) => c.values.deviceUpdate ?? null),
      ],
    );
  }

  async delete(manager: EntityManager, uuid: string): Promise<void> {
    await manager.getRepository(DeviceEntity).delete({ uuid });
  }

  /** A merchant's devices that still get pushes (all but decommissioned), locked for update. */
  lockedOfMerchant(manager: EntityManager, merchantUuid: string): Promise<DeviceEntity[]> {
    return manager
      .getRepository(DeviceEntity)
      .createQueryBuilder('d')
      .where('d.merchant_uuid = :merchantUuid AND d.device_status <> :decommissioned', { merchantUuid, decommissioned: DeviceStatus.Decommissioned })
      .orderBy('d.uuid')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** Codes and devices that keep a merchant from being deleted. */
  async countLive(manager: EntityManager, merchantUuid: string): Promise<number> {
    return manager.getRepository(DeviceEntity).countBy({ merchantUuid, deviceStatus: In(LIVE_STATUSES) });
  }

  /** Removes a merchant's decommissioned devices (history that goes with the merchant). */
  async deleteDecommissioned(manager: EntityManager, merchantUuid: string): Promise<void> {
    await manager.getRepository(DeviceEntity).delete({ merchantUuid, deviceStatus: DeviceStatus.Decommissioned });
  }

  /** The merchant an activation code was issued to, for the merchant list filter. */
  async merchantOfCode(codeLookup: string): Promise<string | undefined> {
    const device = await this.dataSource.getRepository(DeviceEntity).findOne({ where: { codeLookup }, select: { merchantUuid: true } });
    return device?.merchantUuid;
  }
}
