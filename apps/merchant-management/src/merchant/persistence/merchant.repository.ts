import { PageRequest } from '@app/common';
import { queryPrepared, TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { BINDINGS_JSON_OF_MERCHANT, BindingRecord } from '../../activation-profile/binding-record';
import { DeviceStatus, LIVE_STATUSES } from '../../shared/device-status';
import { InjectMmDataSource } from '../../shared/inject';
import { likePattern } from '../../shared/ownership';
import { Merchant } from '../merchant';
import { MerchantView } from '../merchant.view';
import { MerchantEntity } from './merchant.entity';

type MerchantViewRow = Merchant & { bindings: BindingRecord[]; hasKioskTerminal: boolean };

function toView(row: MerchantViewRow): MerchantView {
  const { bindings, hasKioskTerminal, ...merchant } = row;
  return { merchant, bindings, hasKioskTerminal };
}

/** A KIOSK device that is pending or active (docs/decisions.md, "Enumerations", operatingMode). */
const HAS_KIOSK_TERMINAL = `EXISTS (SELECT 1 FROM device d WHERE d.merchant_uuid = m.uuid AND d.operating_mode = 'KIOSK' AND d.device_status IN (0, 1)) AS "hasKioskTerminal"`;

export interface MerchantListFilter {
  uuid?: string;
  mchId?: string;
  mchName?: string;
}

export type MerchantValues = Omit<Merchant, 'createdAt' | 'updatedAt'>;

@Injectable()
export class MerchantRepository {
  /** `m.mch_id AS "mchId", …`: every column under its property name, from the entity's metadata. */
  private readonly columns: string;

  constructor(
    @InjectMmDataSource() private readonly dataSource: DataSource,
    private readonly uow: TypeOrmUnitOfWork,
  ) {
    this.columns = dataSource
      .getMetadata(MerchantEntity)
      .columns.map((column) => `m.${column.databaseName} AS "${column.propertyName}"`)
      .join(', ');
  }

  /** The merchant of an mchId with its payment summary, whatever the owner. */
  async findView(mchId: string): Promise<MerchantView | null> {
    const rows = await queryPrepared<MerchantViewRow>(
      this.dataSource,
      'merchant-view-by-mch-id',
      `SELECT ${this.columns}, ${BINDINGS_JSON_OF_MERCHANT} AS bindings, ${HAS_KIOSK_TERMINAL} FROM merchant m WHERE m.mch_id = $1`,
      [mchId],
    );
    return rows[0] ? toView(rows[0]) : null;
  }

  /** A page of the PBO's merchants with their payment summaries, and the total (one statement when the page is not empty). */
  async listViews(groupId: string, filter: MerchantListFilter, page: PageRequest): Promise<[MerchantView[], number]> {
    const conditions = ['m.group_id = $1'];
    const params: unknown[] = [groupId];
    if (filter.uuid) conditions.push(`m.uuid = $${params.push(filter.uuid)}`);
    if (filter.mchId) conditions.push(`m.mch_id = $${params.push(filter.mchId)}`);
    if (filter.mchName) conditions.push(`m.mch_name ILIKE $${params.push(likePattern(filter.mchName))} ESCAPE '\\'`);
    const where = conditions.join(' AND ');
    // One plan per filter combination, prepared once per connection (LIMIT NULL means all).
    // The page and the total run side by side: a window count would sort every row, not the page.
    const shape = `${filter.uuid ? 'u' : ''}${filter.mchId ? 'i' : ''}${filter.mchName ? 'n' : ''}`;
    const [rows, [{ n }]] = await Promise.all([
      queryPrepared<MerchantViewRow>(
        this.dataSource,
        `merchant-list-${shape}`,
        // The page is cut first (a generic plan would otherwise compute the summaries of every
        // matching merchant before the LIMIT), then only its rows get their payment summary.
        `WITH page AS MATERIALIZED (
           SELECT m.* FROM merchant m WHERE ${where}
            ORDER BY m.created_at DESC, m.uuid LIMIT $${params.length + 1} OFFSET $${params.length + 2})
         SELECT ${this.columns}, ${BINDINGS_JSON_OF_MERCHANT} AS bindings, ${HAS_KIOSK_TERMINAL} FROM page m ORDER BY m.created_at DESC, m.uuid`,
        [...params, page.limit, page.offset],
      ),
      queryPrepared<{ n: number }>(this.dataSource, `merchant-count-${shape}`, `SELECT count(*)::int AS n FROM merchant m WHERE ${where}`, params),
    ]);
    return [rows.map(toView), n];
  }

  /** By mchId, whatever the owner (the service tells 13000 from 14000 by the answer's groupId). */
  findByMchId(mchId: string, lock = false): Promise<Merchant | null> {
    const query = this.uow.manager.getRepository(MerchantEntity).createQueryBuilder('m').where('m.mch_id = :mchId', { mchId });
    if (lock) query.setLock('pessimistic_write');
    return query.getOne();
  }

  /** Locks the merchant row for the rest of the unit of work (while its bindings or profile fields change). */
  async lock(groupId: string, uuid: string): Promise<void> {
    await this.uow.manager.query('SELECT 1 FROM merchant WHERE uuid = $1 AND group_id = $2 FOR UPDATE', [uuid, groupId]);
  }

  findByUuid(groupId: string, uuid: string): Promise<Merchant | null> {
    return this.uow.manager.getRepository(MerchantEntity).findOneBy({ uuid, groupId });
  }

  async insert(values: MerchantValues): Promise<void> {
    await this.uow.manager.getRepository(MerchantEntity).insert(values as QueryDeepPartialEntity<MerchantEntity>);
  }

  async update(groupId: string, uuid: string, values: Partial<MerchantValues>): Promise<void> {
    await this.uow.manager.getRepository(MerchantEntity).update({ uuid, groupId }, values as QueryDeepPartialEntity<MerchantEntity>);
  }

  async delete(groupId: string, uuid: string): Promise<void> {
    await this.uow.manager.getRepository(MerchantEntity).delete({ uuid, groupId });
  }

  /** The merchant of the PBO an activation code was issued to (the merchant list filter). */
  async uuidOfActivationCode(groupId: string, codeLookup: string): Promise<string | undefined> {
    const rows: { merchant_uuid: string }[] = await this.uow.manager.query('SELECT merchant_uuid FROM device WHERE code_lookup = $1 AND group_id = $2', [codeLookup, groupId]);
    return rows[0]?.merchant_uuid;
  }

  /** Activation codes and devices that keep a merchant from being deleted (a decommissioned device is history). */
  async countLiveDevices(groupId: string, uuid: string): Promise<number> {
    const rows: { n: number }[] = await this.uow.manager.query(
      'SELECT count(*)::int AS n FROM device WHERE merchant_uuid = $1 AND group_id = $2 AND device_status = ANY($3::smallint[])',
      [uuid, groupId, LIVE_STATUSES],
    );
    return rows[0].n;
  }

  /** Removes a merchant's decommissioned devices, the history that goes with the merchant. */
  async deleteDecommissionedDevices(groupId: string, uuid: string): Promise<void> {
    await this.uow.manager.query('DELETE FROM device WHERE merchant_uuid = $1 AND group_id = $2 AND device_status = $3', [uuid, groupId, DeviceStatus.Decommissioned]);
  }
}
