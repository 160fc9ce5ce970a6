import { PageRequest } from '@app/common';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { InjectMmDataSource } from '../../shared/inject';
import { likePattern } from '../../shared/ownership';
import { MerchantEntity } from './merchant.entity';

export interface MerchantListFilter {
  uuid?: string;
  mchId?: string;
  mchName?: string;
}

export type MerchantValues = Omit<MerchantEntity, 'createdAt' | 'updatedAt' | 'pbo'>;

@Injectable()
export class MerchantRepository {
  constructor(@InjectMmDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** By mchId, whatever the owner (the service applies the tenancy rule). */
  findByMchId(mchId: string, manager: EntityManager = this.dataSource.manager): Promise<MerchantEntity | null> {
    return manager.getRepository(MerchantEntity).findOneBy({ mchId });
  }

  async findByMchIdForUpdate(manager: EntityManager, mchId: string): Promise<MerchantEntity | null> {
    return manager.getRepository(MerchantEntity).createQueryBuilder('m').where('m.mch_id = :mchId', { mchId }).setLock('pessimistic_write').getOne();
  }

  async list(groupId: string, filter: MerchantListFilter, page: PageRequest): Promise<[MerchantEntity[], number]> {
    const query = this.dataSource.getRepository(MerchantEntity).createQueryBuilder('m').where('m.group_id = :groupId', { groupId });
    if (filter.uuid) query.andWhere('m.uuid = :uuid', { uuid: filter.uuid });
    if (filter.mchId) query.andWhere('m.mch_id = :mchId', { mchId: filter.mchId });
    if (filter.mchName) query.andWhere(`m.mch_name ILIKE :name ESCAPE '\\'`, { name: likePattern(filter.mchName) });
    query.orderBy('m.created_at', 'DESC').addOrderBy('m.uuid', 'ASC').offset(page.offset);
    if (page.limit !== null) query.limit(page.limit);
    return query.getManyAndCount();
  }

  async insert(manager: EntityManager, values: MerchantValues): Promise<void> {
    await manager.getRepository(MerchantEntity).insert(values as QueryDeepPartialEntity<MerchantEntity>);
  }

  async update(manager: EntityManager, uuid: string, values: Partial<MerchantValues>): Promise<void> {
    await manager.getRepository(MerchantEntity).update({ uuid }, values as QueryDeepPartialEntity<MerchantEntity>);
  }

  async delete(manager: EntityManager, uuid: string): Promise<void> {
    await manager.getRepository(MerchantEntity).delete({ uuid });
  }
}
