import { PageRequest } from '@app/common';
import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Device } from '../device';
import { DeviceEntity } from './device.entity';

/** The fields only the gateway's outcomes write (a new device starts with none). */
export type ProfileSyncField = 'profileSyncVersion' | 'profileSyncOutcome' | 'profileSyncReason' | 'profileSyncedAt';

export type DeviceValues = Omit<Device, 'createdAt' | 'updatedAt' | ProfileSyncField>;

/** How a caller named a device: by its activation code (CD- id or bare code) or its device id. */
export type DeviceKey = { codeLookup: string } | { deviceId: string };

/** The device table. Statements join the caller's unit of work; `lock` needs one. */
@Injectable()
export class DeviceRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  /**
   * By code or device id, whatever the owner: the caller tells "another PBO's" (13000) from "no
   * such device" (14000) by the groupId of the answer. The device app knows no PBO before it finds
   * the device by its code.
   */
  find(key: DeviceKey, lock = false): Promise<Device | null> {
    const query = this.uow.manager.getRepository(DeviceEntity).createQueryBuilder('d');
    if ('codeLookup' in key) query.where('d.code_lookup = :lookup', { lookup: key.codeLookup });
    else query.where('d.device_id = :deviceId', { deviceId: key.deviceId });
    if (lock) query.setLock('pessimistic_write');
    return query.getOne();
  }

  /** By code or device id among the PBO's own devices only: another PBO's answers null, as an unknown one. */
  findOwned(groupId: string, key: DeviceKey, lock = false): Promise<Device | null> {
    const query = this.uow.manager.getRepository(DeviceEntity).createQueryBuilder('d').where('d.group_id = :groupId', { groupId });
    if ('codeLookup' in key) query.andWhere('d.code_lookup = :lookup', { lookup: key.codeLookup });
    else query.andWhere('d.device_id = :deviceId', { deviceId: key.deviceId });
    if (lock) query.setLock('pessimistic_write');
    return query.getOne();
  }

  /** The PBO's activated device by its device id; null when there is none, also when the id is another PBO's device. */
  findByDeviceId(groupId: string, deviceId: string): Promise<Device | null> {
    return this.uow.manager.getRepository(DeviceEntity).findOneBy({ groupId, deviceId });
  }

  async list(groupId: string, merchantUuid: string, filter: { key?: DeviceKey; deviceType?: string }, page: PageRequest): Promise<[Device[], number]> {
    const query = this.uow.manager
      .getRepository(DeviceEntity)
      .createQueryBuilder('d')
      .where('d.merchant_uuid = :merchantUuid AND d.group_id = :groupId', { merchantUuid, groupId });
    if (filter.key && 'codeLookup' in filter.key) query.andWhere('d.code_lookup = :lookup', { lookup: filter.key.codeLookup });
    if (filter.key && 'deviceId' in filter.key) query.andWhere('d.device_id = :deviceId', { deviceId: filter.key.deviceId });
    if (filter.deviceType) query.andWhere('d.device_type = :deviceType', { deviceType: filter.deviceType });
    query.orderBy('d.created_at', 'DESC').addOrderBy('d.uuid', 'ASC').offset(page.offset);
    if (page.limit !== null) query.limit(page.limit);
    return query.getManyAndCount();
  }

  async insert(values: DeviceValues): Promise<void> {
    await this.uow.manager.getRepository(DeviceEntity).insert(values as QueryDeepPartialEntity<DeviceEntity>);
  }

  async update(groupId: string, uuid: string, values: Partial<DeviceValues>): Promise<void> {
    await this.uow.manager.getRepository(DeviceEntity).update({ uuid, groupId }, values as QueryDeepPartialEntity<DeviceEntity>);
  }

  async delete(groupId: string, uuid: string): Promise<void> {
    await this.uow.manager.getRepository(DeviceEntity).delete({ uuid, groupId });
  }
}
