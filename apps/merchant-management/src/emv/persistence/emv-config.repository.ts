import { PageRequest } from '@app/common';
import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { likePattern } from '../../shared/ownership';
import { EmvConfigView } from '../emv-config.view';
import { EmvConfigEntity } from './emv-config.entity';

export interface EmvListFilter {
  emvName?: string;
  paymentMethod?: string;
}

@Injectable()
export class EmvConfigRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  /** By id, whatever the owner (the service applies the tenancy rule). */
  findById(id: number): Promise<EmvConfigView | null> {
    return this.uow.manager.getRepository(EmvConfigEntity).findOneBy({ id });
  }

  /** The PBO's EMV configs among `ids`. */
  findOwned(groupId: string, ids: number[]): Promise<EmvConfigView[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.uow.manager.getRepository(EmvConfigEntity).findBy({ groupId, id: In(ids) });
  }

  async list(groupId: string, filter: EmvListFilter, page: PageRequest): Promise<[EmvConfigView[], number]> {
    const query = this.uow.manager.getRepository(EmvConfigEntity).createQueryBuilder('e').where('e.group_id = :groupId', { groupId });
    if (filter.emvName) query.andWhere(`e.emv_name ILIKE :name ESCAPE '\\'`, { name: likePattern(filter.emvName) });
    if (filter.paymentMethod) query.andWhere('e.payment_method = :method', { method: filter.paymentMethod });
    query.orderBy('e.id', 'ASC').offset(page.offset);
    if (page.limit !== null) query.limit(page.limit);
    return query.getManyAndCount();
  }

  async insert(values: Omit<EmvConfigEntity, 'id' | 'createdAt' | 'updatedAt'>): Promise<number> {
    const result = await this.uow.manager.getRepository(EmvConfigEntity).insert(values as QueryDeepPartialEntity<EmvConfigEntity>);
    return (result.identifiers[0] as { id: number }).id;
  }

  async update(groupId: string, id: number, values: Partial<Omit<EmvConfigEntity, 'id' | 'groupId'>>): Promise<void> {
    await this.uow.manager.getRepository(EmvConfigEntity).update({ id, groupId }, values as QueryDeepPartialEntity<EmvConfigEntity>);
  }

  /** Deletes the config; the foreign keys refuse it (23503) while a profile or binding uses it. */
  async delete(groupId: string, id: number): Promise<void> {
    await this.uow.manager.getRepository(EmvConfigEntity).delete({ id, groupId });
  }

  /** Names of the acquirer profiles that list this EMV config, for the refusal message. */
  async profilesUsing(groupId: string, id: number): Promise<string[]> {
    const rows: { profile_name: string }[] = await this.uow.manager.query(
      `SELECT DISTINCT a.profile_name FROM acquirer_profile_emv x JOIN acquirer_profile a ON a.id = x.profile_id WHERE x.emv_id = $1 AND a.group_id = $2 ORDER BY 1`,
      [id, groupId],
    );
    return rows.map((row) => row.profile_name);
  }
}
