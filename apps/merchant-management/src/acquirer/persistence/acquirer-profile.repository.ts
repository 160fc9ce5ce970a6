import { PageRequest } from '@app/common';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { InjectMmDataSource } from '../../shared/inject';
import { likePattern } from '../../shared/ownership';
import { EmvList } from '../method-lists';
import { AcquirerProfileEmvEntity } from './acquirer-profile-emv.entity';
import { AcquirerProfileEntity } from './acquirer-profile.entity';

/** A profile with its emvList assembled. */
export interface AcquirerProfileRecord {
  profile: AcquirerProfileEntity;
  emvList: EmvList;
}

export type AcquirerProfileValues = Omit<AcquirerProfileEntity, 'id' | 'createdAt' | 'updatedAt' | 'pbo' | 'emvs'>;

@Injectable()
export class AcquirerProfileRepository {
  constructor(@InjectMmDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  findById(id: number, manager: EntityManager = this.dataSource.manager, lock = false): Promise<AcquirerProfileEntity | null> {
    const query = manager.getRepository(AcquirerProfileEntity).createQueryBuilder('a').where('a.id = :id', { id });
    if (lock) query.setLock('pessimistic_write');
    return query.getOne();
  }

  async emvLists(profileIds: number[], manager: EntityManager = this.dataSource.manager): Promise<Map<number, EmvList>> {
    const lists = new Map<number, EmvList>(profileIds.map((id) => [id, {}]));
    if (profileIds.length === 0) return lists;
    const rows = await manager.getRepository(AcquirerProfileEmvEntity).find({
      where: { profileId: In(profileIds) },
      order: { profileId: 'ASC', paymentMethod: 'ASC', position: 'ASC' },
    });
    for (const row of rows) {
      const list = lists.get(row.profileId)!;
      (list[row.paymentMethod] ??= []).push(row.emvId);
    }
    return lists;
  }

  async findRecord(id: number, manager?: EntityManager): Promise<AcquirerProfileRecord | null> {
    const profile = await this.findById(id, manager);
    if (!profile) return null;
    return { profile, emvList: (await this.emvLists([id], manager)).get(id)! };
  }

  /** The PBO's default profile of an acqType, if any. */
  async findDefault(groupId: string, acqType: string, manager: EntityManager = this.dataSource.manager): Promise<AcquirerProfileRecord | null> {
    const profile = await manager.getRepository(AcquirerProfileEntity).findOneBy({ groupId, acqType, asDefault: true });
    if (!profile) return null;
    return { profile, emvList: (await this.emvLists([profile.id], manager)).get(profile.id)! };
  }

  async list(groupId: string, profileName: string | undefined, page: PageRequest): Promise<[AcquirerProfileRecord[], number]> {
    const query = this.dataSource.getRepository(AcquirerProfileEntity).createQueryBuilder('a').where('a.group_id = :groupId', { groupId });
    if (profileName) query.andWhere(`a.profile_name ILIKE :name ESCAPE '\\'`, { name: likePattern(profileName) });
    query.orderBy('a.id', 'ASC').offset(page.offset);
    if (page.limit !== null) query.limit(page.limit);
    const [profiles, total] = await query.getManyAndCount();
    const lists = await this.emvLists(profiles.map((p) => p.id));
    return [profiles.map((profile) => ({ profile, emvList: lists.get(profile.id)! })), total];
  }

  /** Clears the default flag of the PBO's other profiles of that acqType. */
  async clearDefault(manager: EntityManager, groupId: string, acqType: string, exceptId?: number): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(AcquirerProfileEntity)
      .set({ asDefault: false })
      .where('group_id = :groupId AND acq_type = :acqType AND as_default AND id <> :exceptId', { groupId, acqType, exceptId: exceptId ?? -1 })
      .execute();
  }

  async insert(manager: EntityManager, values: AcquirerProfileValues): Promise<number> {
    const result = await manager.getRepository(AcquirerProfileEntity).insert(values as QueryDeepPartialEntity<AcquirerProfileEntity>);
    return (result.identifiers[0] as { id: number }).id;
  }

  async update(manager: EntityManager, id: number, values: Partial<AcquirerProfileValues>): Promise<void> {
    if (Object.keys(values).length === 0) {
      await manager.query('UPDATE acquirer_profile SET updated_at = now() WHERE id = $1', [id]);
      return;
    }
    await manager.getRepository(AcquirerProfileEntity).update({ id }, values as QueryDeepPartialEntity<AcquirerProfileEntity>);
  }

  async replaceEmvList(manager: EntityManager, profileId: number, emvList: EmvList): Promise<void> {
    await manager.getRepository(AcquirerProfileEmvEntity).delete({ profileId });
    const rows = Object.entries(emvList).flatMap(([paymentMethod, ids]) => ids.map((emvId, position) => ({ profileId, paymentMethod, emvId, position })));
    if (rows.length > 0) await manager.getRepository(AcquirerProfileEmvEntity).insert(rows);
  }

  async delete(manager: EntityManager, id: number): Promise<void> {
    await manager.getRepository(AcquirerProfileEntity).delete({ id });
  }
}
