import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { InjectGatewayDataSource } from '../../shared/inject';
import { AcceptanceEntity } from './acceptance.entity';
import { ProfileAcceptanceEntity } from './profile-acceptance.entity';
import { ProfileEntity } from './profile.entity';

/** The merchant data of a profile: what the API and upserts write. */
export type ProfileFields = Pick<ProfileEntity, 'profileName' | 'providerReference' | 'merchantName' | 'merchantAddr' | 'mcc' | 'countryCode' | 'currency'>;

export type NewProfile = ProfileFields & Pick<ProfileEntity, 'id' | 'groupId' | 'version'>;

export type ProfileChanges = Partial<ProfileFields & Pick<ProfileEntity, 'entityStatus' | 'version'>>;

/** A position in the (createdAt, id) order of one group's profiles. */
export interface ProfilePosition {
  createdAt: Date;
  id: string;
}

@Injectable()
export class ProfileRepository {
  constructor(@InjectGatewayDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** By id, whatever the owner (the service applies the tenancy rule). */
  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<ProfileEntity | null> {
    return manager.getRepository(ProfileEntity).findOneBy({ id });
  }

  /** By id, locked until the transaction ends: changes of one profile (API or upsert) run one at a time. */
  lockById(manager: EntityManager, id: string): Promise<ProfileEntity | null> {
    return manager.getRepository(ProfileEntity).createQueryBuilder('p').where('p.id = :id', { id }).setLock('pessimistic_write').getOne();
  }

  findByProviderReference(groupId: string, providerReference: string): Promise<ProfileEntity | null> {
    return this.dataSource.getRepository(ProfileEntity).findOneBy({ groupId, providerReference });
  }

  /** The id of another profile of the group that holds `providerReference`, if any. */
  async providerReferenceHolder(manager: EntityManager, groupId: string, providerReference: string, exceptId: string): Promise<string | null> {
    const holder = await manager
      .getRepository(ProfileEntity)
      .createQueryBuilder('p')
      .select('p.id')
      .where('p.groupId = :groupId AND p.providerReference = :providerReference AND p.id <> :exceptId', { groupId, providerReference, exceptId })
      .getOne();
    return holder?.id ?? null;
  }

  async insert(manager: EntityManager, values: NewProfile): Promise<void> {
    await manager.getRepository(ProfileEntity).insert(values);
  }

  /** Inserts unless a profile with that id exists (a concurrent transaction's included); answers whether it did. */
  async insertIfAbsent(manager: EntityManager, values: NewProfile): Promise<boolean> {
    const result = await manager.createQueryBuilder().insert().into(ProfileEntity).values(values).orIgnore().returning('id').execute();
    return (result.raw as unknown[]).length === 1;
  }

  /** Applies `changes` and stamps updatedAt. */
  async update(manager: EntityManager, id: string, changes: ProfileChanges): Promise<void> {
    const values: QueryDeepPartialEntity<ProfileEntity> = { ...changes, updatedAt: () => 'now()' };
    await manager.getRepository(ProfileEntity).update({ id }, values);
  }

  /** One page of the group's profiles after (forward) or before (backward) `from`, nearest first; `limit` rows at most. */
  page(groupId: string, from: ProfilePosition | undefined, forward: boolean, limit: number): Promise<ProfileEntity[]> {
    const direction = forward ? 'ASC' : 'DESC';
    const query = this.dataSource.getRepository(ProfileEntity).createQueryBuilder('p').where('p.groupId = :groupId', { groupId });
    if (from) query.andWhere(`(p.created_at, p.id) ${forward ? '>' : '<'} (:createdAt, :id)`, { createdAt: from.createdAt, id: from.id });
    return query.orderBy('p.createdAt', direction).addOrderBy('p.id', direction).limit(limit).getMany();
  }

  count(groupId: string): Promise<number> {
    return this.dataSource.getRepository(ProfileEntity).countBy({ groupId });
  }

  /** The acceptances bound to a profile, in binding order. */
  boundAcceptances(profileId: string, manager: EntityManager = this.dataSource.manager): Promise<AcceptanceEntity[]> {
    return manager
      .getRepository(AcceptanceEntity)
      .createQueryBuilder('a')
      .innerJoin(ProfileAcceptanceEntity, 'b', 'b.acceptance_id = a.id')
      .where('b.profile_id = :profileId', { profileId })
      .orderBy('b.position', 'ASC')
      .getMany();
  }

  /** Binds exactly `acceptanceIds`, in that order; [] unbinds all. */
  async replaceBindings(manager: EntityManager, profileId: string, acceptanceIds: string[]): Promise<void> {
    const bindings = manager.getRepository(ProfileAcceptanceEntity);
    await bindings.delete({ profileId });
    if (acceptanceIds.length > 0) await bindings.insert(acceptanceIds.map((acceptanceId, position) => ({ profileId, acceptanceId, position })));
  }
}
