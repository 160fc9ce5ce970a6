import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AcceptanceEntity } from './acceptance.entity';

/** What a request or an upsert sets on an acceptance. */
export type AcceptanceFields = Pick<AcceptanceEntity, 'acptName' | 'hostMessageFormat' | 'supportedPayments' | 'primaryMid' | 'primaryTid' | 'extraParams'> &
  Partial<Pick<AcceptanceEntity, 'tags'>>;

export type NewAcceptance = AcceptanceFields & Pick<AcceptanceEntity, 'id' | 'groupId'>;

@Injectable()
export class AcceptanceRepository {
  /** The acceptances of these ids, whatever the owner, locked in id order (so concurrent writers never deadlock). */
  async lockByIds(manager: EntityManager, ids: string[]): Promise<AcceptanceEntity[]> {
    if (ids.length === 0) return [];
    return manager.getRepository(AcceptanceEntity).createQueryBuilder('a').where({ id: In(ids) }).orderBy('a.id', 'ASC').setLock('pessimistic_write').getMany();
  }

  async insert(manager: EntityManager, values: NewAcceptance): Promise<void> {
    await manager.getRepository(AcceptanceEntity).insert(values as QueryDeepPartialEntity<AcceptanceEntity>);
  }

  /** Applies `fields` and stamps updatedAt. */
  async update(manager: EntityManager, id: string, fields: AcceptanceFields): Promise<void> {
    const values = { ...fields, updatedAt: () => 'now()' } as QueryDeepPartialEntity<AcceptanceEntity>;
    await manager.getRepository(AcceptanceEntity).update({ id }, values);
  }
}
