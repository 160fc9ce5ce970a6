import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AcceptanceEntity } from './acceptance.entity';

/** What a request or an upsert sets on an acceptance. */
export type AcceptanceFields = Pick<AcceptanceEntity, 'acptName' | 'hostMessageFormat' | 'supportedPayments' | 'primaryMid' | 'primaryTid' | 'extraParams'> &
  Partial<Pick<AcceptanceEntity, 'tags'>>;

export type NewAcceptance = AcceptanceFields & Pick<AcceptanceEntity, 'id' | 'groupId'>;

/** What an upsert sets on an acceptance: the request's fields, and the host address and acquirer reference, which only upserts carry. */
export type SyncedAcceptanceFields = AcceptanceFields & Pick<AcceptanceEntity, 'hostUrl' | 'acquirerRef'>;

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

  /** Inserts several acceptances in one statement. */
  async insertMany(manager: EntityManager, rows: Array<NewAcceptance & SyncedAcceptanceFields>): Promise<void> {
    if (rows.length === 0) return;
    await manager.query(
      `INSERT INTO acceptance (id, group_id, acpt_name, host_message_format, supported_payments, primary_mid, primary_tid, extra_params, host_url, acquirer_ref, tags)
       SELECT v.id, v."groupId", v."acptName", v."hostMessageFormat", v."supportedPayments", v."primaryMid", v."primaryTid", v."extraParams", v."hostUrl", v."acquirerRef", v.tags
       FROM jsonb_to_recordset($1::jsonb) AS v(id text, "groupId" text, "acptName" text, "hostMessageFormat" text, "supportedPayments" text[], "primaryMid" text, "primaryTid" text, "extraParams" jsonb, "hostUrl" text, "acquirerRef" text, tags text[])`,
      [JSON.stringify(rows.map((row) => ({ ...row, tags: row.tags ?? null })))],
    );
  }

  /** Applies each row's fields to its acceptance and stamps updatedAt, in one statement (ids must be distinct). */
  async updateMany(manager: EntityManager, rows: Array<SyncedAcceptanceFields & { id: string }>): Promise<void> {
    if (rows.length === 0) return;
    await manager.query(
      `UPDATE acceptance AS a SET acpt_name = v."acptName", host_message_format = v."hostMessageFormat", supported_payments = v."supportedPayments",
         primary_mid = v."primaryMid", primary_tid = v."primaryTid", extra_params = v."extraParams", host_url = v."hostUrl", acquirer_ref = v."acquirerRef", updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS v(id text, "acptName" text, "hostMessageFormat" text, "supportedPayments" text[], "primaryMid" text, "primaryTid" text, "extraParams" jsonb, "hostUrl" text, "acquirerRef" text)
       WHERE a.id = v.id`,
      [JSON.stringify(rows)],
    );
  }
}
