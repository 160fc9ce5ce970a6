import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { InjectGatewayDataSource } from '../../shared/inject';
import { AcceptanceEntity } from './acceptance.entity';
import { ProfileAcceptanceEntity } from './profile-acceptance.entity';
import { ProfileEntity } from './profile.entity';

/** The merchant data of a profile: what the API and upserts write. */
export type ProfileFields = Pick<ProfileEntity, 'profileName' | 'providerReference' | 'merchantName' | 'merchantAddr' | 'mcc' | 'countryCode' | 'currency' | 'timeZone'>;

/** Who a profile pushed by merchant-management is for: set by upserts only (the API leaves them alone). */
export type ProfileDevice = Pick<ProfileEntity, 'deviceId' | 'merchantId'> & { retired?: boolean; keepsTerminals?: boolean; activeSdkId?: string };

export type NewProfile = ProfileFields & Pick<ProfileEntity, 'id' | 'groupId' | 'version'> & Partial<ProfileDevice>;

export type ProfileChanges = Partial<ProfileFields & ProfileDevice & Pick<ProfileEntity, 'entityStatus' | 'version'>>;

/** What a profile's lock answers in a batch: enough to apply the version and tenancy rules. */
export interface LockedProfile {
  id: string;
  groupId: string;
  version: number;
}

/** A profile row written by a batch: its merchant data and the version that carried it. */
export type ProfileVersionRow = ProfileFields & ProfileDevice & Pick<ProfileEntity, 'id' | 'version'>;

/** An acceptance bound to one of several profiles, as a batch reads them. */
export type BoundAcceptance = Pick<AcceptanceEntity, 'id' | 'acptName' | 'hostMessageFormat' | 'supportedPayments' | 'primaryMid' | 'primaryTid' | 'extraParams' | 'hostUrl'>;

/** A bound acceptance as an upsert matches it: {@link BoundAcceptance} and the acquirer it comes from. */
export type SyncedAcceptance = BoundAcceptance & Pick<AcceptanceEntity, 'acquirerRef'>;

/** A bound acceptance as a sale routes by it: {@link BoundAcceptance}, the acquirer it comes from (its batch) and its status. */
export type SaleAcceptance = SyncedAcceptance & Pick<AcceptanceEntity, 'entityStatus'>;

/** A position in the (createdAt, id) order of one group's profiles. */
export interface ProfilePosition {
  createdAt: Date;
  id: string;
}

@Injectable()
export class ProfileRepository {
  private readonly writeListeners: Array<() => void> = [];

  constructor(@InjectGatewayDataSource() private readonly dataSource: DataSource) {}

  /**
   * Runs a write of profiles, acceptances or bindings in one transaction (every writer of them
   * comes through here: the API and the upsert consumer), then tells the {@link onWrite} listeners,
   * whether it committed or not (a failed COMMIT may still have committed).
   */
  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.dataSource.transaction(work);
    } finally {
      for (const listener of this.writeListeners) listener();
    }
  }

  /** Calls `listener` after each {@link transaction} ends: what a process keeps of profiles (the sale's cache) is dropped there. */
  onWrite(listener: () => void): void {
    this.writeListeners.push(listener);
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

  /**
   * A profile as a sale reads it, in one statement: its row, and what a sale routes by of its
   * bound acceptances, in binding order ({@link boundAcceptances} as JSON built by PostgreSQL, not
   * through TypeORM's entity mapping, which cost more than the query); null when there is none.
   */
  async saleProfile(profileId: string): Promise<{ profile: ProfileEntity; acceptances: SaleAcceptance[] } | null> {
    const { entities, raw } = await this.dataSource
      .getRepository(ProfileEntity)
      .createQueryBuilder('p')
      .addSelect(
        `(SELECT COALESCE(jsonb_agg(jsonb_build_object('id', a.id, 'acptName', a.acpt_name, 'hostMessageFormat', a.host_message_format,
           'supportedPayments', a.supported_payments, 'primaryMid', a.primary_mid, 'primaryTid', a.primary_tid, 'extraParams', a.extra_params,
           'hostUrl', a.host_url, 'acquirerRef', a.acquirer_ref, 'entityStatus', a.entity_status) ORDER BY b.position), '[]'::jsonb)
         FROM profile_acceptance b JOIN acceptance a ON a.id = b.acceptance_id WHERE b.profile_id = p.id)`,
        'sale_acceptances',
      )
      .where('p.id = :profileId', { profileId })
      .getRawAndEntities<{ sale_acceptances: SaleAcceptance[] }>();
    if (entities.length === 0) return null;
    return { profile: entities[0], acceptances: raw[0].sale_acceptances };
  }

  // --- Set-based forms for a batch of upserts: one statement per step, whatever the batch size ---

  /** Locks the profiles of these ids that exist, in id order (so concurrent batches never deadlock on each other). */
  lockManyById(manager: EntityManager, ids: string[]): Promise<LockedProfile[]> {
    return manager.query(`SELECT id, group_id AS "groupId", version FROM profile WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`, [[...ids].sort()]);
  }

  /**
   * Inserts the profiles whose id is free; answers the ids inserted. `updated` marks a profile
   * whose creation and a later change arrive together: it is stored as updated (updatedAt set),
   * as applying them one after the other would.
   */
  async insertManyIfAbsent(manager: EntityManager, rows: Array<NewProfile & { updated: boolean }>): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const inserted: { id: string }[] = await manager.query(
      `INSERT INTO profile (id, group_id, profile_name, provider_reference, merchant_name, merchant_addr, mcc, country_code, currency, time_zone, device_id, active_sdk_id, merchant_id, retired, keeps_terminals, version, updated_at)
       SELECT v.id, v."groupId", v."profileName", v."providerReference", v."merchantName", v."merchantAddr", v.mcc, v."countryCode", v.currency, v."timeZone", v."deviceId", v."activeSdkId", v."merchantId",
         COALESCE(v.retired, false), COALESCE(v."keepsTerminals", false), v.version, CASE WHEN v.updated THEN now() END
       FROM jsonb_to_recordset($1::jsonb) AS v(id text, "groupId" text, "profileName" text, "providerReference" text, "merchantName" text, "merchantAddr" text, mcc text, "countryCode" text, currency text, "timeZone" text, "deviceId" text, "activeSdkId" text, "merchantId" text, retired boolean, "keepsTerminals" boolean, version int, updated boolean)
       ON CONFLICT DO NOTHING RETURNING id`,
      [JSON.stringify(rows)],
    );
    return new Set(inserted.map((row) => row.id));
  }

  /** Replaces the merchant data, device (and its lifecycle, when the upsert carries one) and version of existing profiles and stamps updatedAt. */
  async updateMany(manager: EntityManager, rows: ProfileVersionRow[]): Promise<void> {
    if (rows.length === 0) return;
    await manager.query(
      `UPDATE profile AS p SET profile_name = v."profileName", provider_reference = v."providerReference", merchant_name = v."merchantName",
         merchant_addr = v."merchantAddr", mcc = v.mcc, country_code = v."countryCode", currency = v.currency, time_zone = v."timeZone",
         device_id = v."deviceId", active_sdk_id = COALESCE(v."activeSdkId", p.active_sdk_id), merchant_id = v."merchantId", retired = COALESCE(v.retired, p.retired),
         keeps_terminals = COALESCE(v."keepsTerminals", p.keeps_terminals), version = v.version, updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS v(id text, "profileName" text, "providerReference" text, "merchantName" text, "merchantAddr" text, mcc text, "countryCode" text, currency text, "timeZone" text, "deviceId" text, "activeSdkId" text, "merchantId" text, retired boolean, "keepsTerminals" boolean, version int)
       WHERE p.id = v.id`,
      [JSON.stringify(rows)],
    );
  }

  /** The acceptances bound to each of these profiles, in binding order (profiles without any are absent). */
  async boundAcceptancesOf(manager: EntityManager, profileIds: string[]): Promise<Map<string, SyncedAcceptance[]>> {
    const result = new Map<string, SyncedAcceptance[]>();
    if (profileIds.length === 0) return result;
    const rows: (SyncedAcceptance & { profileId: string })[] = await manager.query(
      `SELECT b.profile_id AS "profileId", a.id, a.acpt_name AS "acptName", a.host_message_format AS "hostMessageFormat",
         a.supported_payments AS "supportedPayments", a.primary_mid AS "primaryMid", a.primary_tid AS "primaryTid", a.extra_params AS "extraParams", a.host_url AS "hostUrl",
         a.acquirer_ref AS "acquirerRef"
       FROM profile_acceptance b JOIN acceptance a ON a.id = b.acceptance_id
       WHERE b.profile_id = ANY($1::text[]) ORDER BY b.profile_id, b.position`,
      [profileIds],
    );
    for (const { profileId, ...acceptance } of rows) {
      const list = result.get(profileId) ?? [];
      list.push(acceptance);
      result.set(profileId, list);
    }
    return result;
  }

  /** Binds exactly the listed acceptances of each profile, in order; an empty list unbinds all. */
  async replaceBindingsMany(manager: EntityManager, bindings: Map<string, string[]>): Promise<void> {
    if (bindings.size === 0) return;
    await manager.query('DELETE FROM profile_acceptance WHERE profile_id = ANY($1::text[])', [[...bindings.keys()]]);
    const profileIds: string[] = [];
    const acceptanceIds: string[] = [];
    const positions: number[] = [];
    for (const [profileId, ids] of bindings) {
      ids.forEach((acceptanceId, position) => {
        profileIds.push(profileId);
        acceptanceIds.push(acceptanceId);
        positions.push(position);
      });
    }
    if (profileIds.length === 0) return;
    await manager.query('INSERT INTO profile_acceptance (profile_id, acceptance_id, position) SELECT * FROM unnest($1::text[], $2::text[], $3::smallint[])', [
      profileIds,
      acceptanceIds,
      positions,
    ]);
  }

  /** Binds exactly `acceptanceIds`, in that order; [] unbinds all. */
  async replaceBindings(manager: EntityManager, profileId: string, acceptanceIds: string[]): Promise<void> {
    const bindings = manager.getRepository(ProfileAcceptanceEntity);
    await bindings.delete({ profileId });
    if (acceptanceIds.length > 0) await bindings.insert(acceptanceIds.map((acceptanceId, position) => ({ profileId, acceptanceId, position })));
  }
}
