import { PageRequest } from '@app/common';
import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { likePattern } from '../../shared/ownership';
import { AcquirerProfile } from '../acquirer-profile';
import { EmvList } from '../method-lists';
import { AcquirerProfileEmvEntity } from './acquirer-profile-emv.entity';
import { AcquirerProfileEntity } from './acquirer-profile.entity';

/** A profile with its emvList assembled. */
export interface AcquirerProfileRecord {
  profile: AcquirerProfile;
  emvList: EmvList;
}

/** A row lock on a profile for the rest of the unit of work. */
export type ProfileLock = 'share' | 'update';

export type AcquirerProfileValues = Omit<AcquirerProfile, 'id' | 'createdAt' | 'updatedAt'>;

/** Acquirer profiles and their EMV lists. Statements join the caller's unit of work; `lock` needs one. */
@Injectable()
export class AcquirerProfileRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  /**
   * By id, whatever the owner (the service tells 13000 from 14000 by the answer's groupId).
   * `lock` (inside a unit of work): `update` for a change of the profile, `share` for a write that
   * relies on what the profile lists (a binding), so the two never interleave.
   */
  findById(id: number, lock?: ProfileLock): Promise<AcquirerProfile | null> {
    const query = this.uow.manager.getRepository(AcquirerProfileEntity).createQueryBuilder('a').where('a.id = :id', { id });
    if (lock) query.setLock(lock === 'update' ? 'pessimistic_write' : 'pessimistic_read');
    return query.getOne();
  }

  async emvLists(profileIds: number[]): Promise<Map<number, EmvList>> {
    const lists = new Map<number, EmvList>(profileIds.map((id) => [id, {}]));
    if (profileIds.length === 0) return lists;
    const rows = await this.uow.manager.getRepository(AcquirerProfileEmvEntity).find({
      where: { profileId: In(profileIds) },
      order: { profileId: 'ASC', paymentMethod: 'ASC', position: 'ASC' },
    });
    for (const row of rows) {
      const list = lists.get(row.profileId)!;
      (list[row.paymentMethod] ??= []).push(row.emvId);
    }
    return lists;
  }

  /** A profile with its emvList, whatever the owner (as {@link findById}). */
  async findRecord(id: number, lock?: ProfileLock): Promise<AcquirerProfileRecord | null> {
    const profile = await this.findById(id, lock);
    if (!profile) return null;
    return { profile, emvList: (await this.emvLists([id])).get(id)! };
  }

  /** The PBO's default profile of an acqType, if any; `lock` as {@link findById}. */
  async findDefault(groupId: string, acqType: string, lock?: ProfileLock): Promise<AcquirerProfileRecord | null> {
    const query = this.uow.manager
      .getRepository(AcquirerProfileEntity)
      .createQueryBuilder('a')
      .where('a.group_id = :groupId AND a.acq_type = :acqType AND a.as_default', { groupId, acqType });
    if (lock) query.setLock(lock === 'update' ? 'pessimistic_write' : 'pessimistic_read');
    const profile = await query.getOne();
    if (!profile) return null;
    return { profile, emvList: (await this.emvLists([profile.id])).get(profile.id)! };
  }

  async list(groupId: string, profileName: string | undefined, page: PageRequest): Promise<[AcquirerProfileRecord[], number]> {
    const query = this.uow.manager.getRepository(AcquirerProfileEntity).createQueryBuilder('a').where('a.group_id = :groupId', { groupId });
    if (profileName) query.andWhere(`a.profile_name ILIKE :name ESCAPE '\\'`, { name: likePattern(profileName) });
    query.orderBy('a.id', 'ASC').offset(page.offset);
    if (page.limit !== null) query.limit(page.limit);
    const [profiles, total] = await query.getManyAndCount();
    const lists = await this.emvLists(profiles.map((p) => p.id));
    return [profiles.map((profile) => ({ profile, emvList: lists.get(profile.id)! })), total];
  }

  /** Clears the default flag of the PBO's other profiles of that acqType. */
  async clearDefault(groupId: string, acqType: string, exceptId?: number): Promise<void> {
    await this.uow.manager
      .createQueryBuilder()
      .update(AcquirerProfileEntity)
      .set({ asDefault: false })
      .where('group_id = :groupId AND acq_type = :acqType AND as_default AND id <> :exceptId', { groupId, acqType, exceptId: exceptId ?? -1 })
      .execute();
  }

  async insert(values: AcquirerProfileValues): Promise<number> {
    const result = await this.uow.manager.getRepository(AcquirerProfileEntity).insert(values as QueryDeepPartialEntity<AcquirerProfileEntity>);
    return (result.identifiers[0] as { id: number }).id;
  }

  async update(groupId: string, id: number, values: Partial<AcquirerProfileValues>): Promise<void> {
    if (Object.keys(values).length === 0) {
      await this.uow.manager.query('UPDATE acquirer_profile SET updated_at = now() WHERE id = $1 AND group_id = $2', [id, groupId]);
      return;
    }
    await this.uow.manager.getRepository(AcquirerProfileEntity).update({ id, groupId }, values as QueryDeepPartialEntity<AcquirerProfileEntity>);
  }

  /** Replaces the emvList of a profile the caller just read as the PBO's. */
  async replaceEmvList(profileId: number, emvList: EmvList): Promise<void> {
    await this.uow.manager.getRepository(AcquirerProfileEmvEntity).delete({ profileId });
    const rows = Object.entries(emvList).flatMap(([paymentMethod, ids]) => ids.map((emvId, position) => ({ profileId, paymentMethod, emvId, position })));
    if (rows.length > 0) await this.uow.manager.getRepository(AcquirerProfileEmvEntity).insert(rows);
  }

  async delete(groupId: string, id: number): Promise<void> {
    await this.uow.manager.getRepository(AcquirerProfileEntity).delete({ id, groupId });
  }

  /** Methods (with their EMV ids) that the PBO's merchants bind under a profile (a profile change may not pull them away). */
  async methodsBoundToProfile(groupId: string, profileId: number): Promise<{ mchId: string; currency: string; paymentMethodCode: string; emvIds: number[] }[]> {
    const rows: { mch_id: string; currency: string; payment_method_code: string; emv_ids: number[] }[] = await this.uow.manager.query(
      `SELECT mc.mch_id, m.currency, m.payment_method_code,
              COALESCE(array_agg(e.emv_id) FILTER (WHERE e.emv_id IS NOT NULL), '{}') AS emv_ids
         FROM payment_binding b
         JOIN merchant mc ON mc.uuid = b.merchant_uuid
         JOIN payment_method_binding m ON m.binding_id = b.id
         LEFT JOIN payment_method_emv e ON e.method_id = m.id
        WHERE b.acquirer_profile_id = $1 AND b.group_id = $2
        GROUP BY mc.mch_id, m.id`,
      [profileId, groupId],
    );
    return rows.map((row) => ({ mchId: row.mch_id, currency: row.currency, paymentMethodCode: row.payment_method_code, emvIds: row.emv_ids }));
  }


  /** mchIds of (up to 10) merchants bound to a profile. */
  async merchantsBoundToProfile(groupId: string, profileId: number): Promise<string[]> {
    const rows: { mch_id: string }[] = await this.uow.manager.query(
      `SELECT DISTINCT mc.mch_id FROM payment_binding b JOIN merchant mc ON mc.uuid = b.merchant_uuid WHERE b.acquirer_profile_id = $1 AND b.group_id = $2 ORDER BY 1 LIMIT 10`,
      [profileId, groupId],
    );
    return rows.map((row) => row.mch_id);
  }

}
