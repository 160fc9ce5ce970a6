import { PageRequest } from '@app/common';
import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ORDER_STATES, TerminalBatch } from '../../order/order';
import { streamNewestFirst, StreamedRows } from '../../shared/persistence/snapshot-stream';
import { BatchFilter, BatchSummaryLine, BatchTotals, SettlementBatch } from '../settlement';
import { SettlementBatchEntity } from './settlement-batch.entity';

/** A batch as it is first seen, with its first order. */
export interface NewBatch extends TerminalBatch {
  uuid: string;
  batchId: string;
  merchantId: string | null;
  merchantName: string;
  hostMessageFormat: string;
  openedAt: Date;
}

/** The orders of batch `b` (the terminal batch key), in SQL. */
const ORDERS_OF_BATCH =
  'o.group_id = b.group_id AND o.acceptance_id = b.acceptance_id AND o.primary_mid = b.primary_mid AND o.primary_tid = b.primary_tid AND o.currency = b.currency AND o.batch_no = b.batch_no';
/** A payment: a sale, or an authorisation's captures (sales and captures are payments), not voided. */
const IS_PAYMENT = `o.tran_type IN ('SALE', 'AUTH', 'CAPTURE') AND o.state <> ${ORDER_STATES.VOIDED} AND o.captured_minor > 0`;
const IS_VOID = `o.state = ${ORDER_STATES.VOIDED}`;
/** What a void took back: what had been approved. */
const VOIDED_MINOR = 'COALESCE(o.approved_minor, o.amount_minor)';

interface TotalsRow {
  id: string;
  payment_count: number;
  payment_minor: string;
  refund_count: number;
  refund_minor: string;
  void_count: number;
  void_minor: string;
}

/** Settlement batches; reads of the PBO take its groupId, lookups by public id answer any owner (the service applies the tenancy rule). */
@Injectable()
export class SettlementBatchRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  private get manager(): EntityManager {
    return this.uow.manager;
  }

  /**
   * Creates the batch of a terminal batch key unless it exists (its first order creates it). An
   * existing batch is found by a plain read, so an order written while its batch is locked (a
   * settlement recording its outcome) never waits for that lock; only a new batch is inserted.
   */
  async ensure(batch: NewBatch): Promise<void> {
    await this.manager.query(
      `INSERT INTO settlement_batch (uuid, batch_id, group_id, merchant_id, merchant_name, acceptance_id, primary_mid, primary_tid, currency, batch_no, host_message_format, created_at, updated_at)
       SELECT $1::uuid, $2::varchar, $3::varchar, $4::varchar, $5::varchar, $6::varchar, $7::varchar, $8::varchar, $9::varchar, $10::varchar, $11::varchar, $12::timestamptz, $12::timestamptz
        WHERE NOT EXISTS (SELECT 1 FROM settlement_batch WHERE group_id = $3 AND acceptance_id = $6 AND primary_mid = $7 AND primary_tid = $8 AND currency = $9 AND batch_no = $10)
       ON CONFLICT (group_id, acceptance_id, primary_mid, primary_tid, currency, batch_no) DO NOTHING`,
      [
        batch.uuid,
        batch.batchId,
        batch.groupId,
        batch.merchantId,
        batch.merchantName,
        batch.acceptanceId,
        batch.primaryMid,
        batch.primaryTid,
        batch.currency,
        batch.batchNo,
        batch.hostMessageFormat,
        batch.openedAt,
      ],
    );
  }

  /** By public id, whatever the owner. */
  findByBatchId(batchId: string): Promise<SettlementBatch | null> {
    return this.manager.getRepository(SettlementBatchEntity).findOneBy({ batchId });
  }

  /** By public id with its row locked until the transaction ends (settle takes it). */
  lockByBatchId(batchId: string): Promise<SettlementBatch | null> {
    return this.manager
      .getRepository(SettlementBatchEntity)
      .createQueryBuilder('b')
      .where('b.batchId = :batchId', { batchId })
      .setLock('pessimistic_write')
      .getOne();
  }

  async update(id: number, values: Partial<Omit<SettlementBatch, 'id' | 'uuid' | 'batchId' | 'groupId'>>): Promise<void> {
    await this.manager.getRepository(SettlementBatchEntity).update({ id }, values as QueryDeepPartialEntity<SettlementBatchEntity>);
  }

  /** One page of the PBO's batches, newest first, and how many match. */
  list(groupId: string, filter: BatchFilter, page: PageRequest): Promise<[SettlementBatch[], number]> {
    const query = this.filtered(this.manager, groupId, filter).orderBy('b.createdAt', 'DESC').addOrderBy('b.id', 'DESC').skip(page.offset);
    if (page.limit !== null) query.take(page.limit);
    return query.getManyAndCount();
  }

  /** Every matching batch, newest first, in chunks from one snapshot (`pageSize=-1`). */
  streamAll(groupId: string, filter: BatchFilter): Promise<StreamedRows<SettlementBatch>> {
    return streamNewestFirst<SettlementBatchEntity>(this.manager.connection, (manager) => this.filtered(manager, groupId, filter), {
      alias: 'b',
      time: 'createdAt',
      tie: 'id',
      timeOf: (row) => row.createdAt,
      tieOf: (row) => row.id,
    });
  }

  /** The totals of each batch counted from its orders now (batches without orders are absent). */
  async countedTotals(ids: number[]): Promise<Map<number, BatchTotals>> {
    if (ids.length === 0) return new Map();
    const rows: TotalsRow[] = await this.manager.query(
      `SELECT b.id,
              count(*) FILTER (WHERE ${IS_PAYMENT})::int AS payment_count,
              COALESCE(sum(o.captured_minor) FILTER (WHERE ${IS_PAYMENT}), 0)::text AS payment_minor,
              COALESCE(sum(o.refund_count), 0)::int AS refund_count,
              COALESCE(sum(o.refunded_minor), 0)::text AS refund_minor,
              count(*) FILTER (WHERE ${IS_VOID})::int AS void_count,
              COALESCE(sum(${VOIDED_MINOR}) FILTER (WHERE ${IS_VOID}), 0)::text AS void_minor
         FROM settlement_batch b JOIN orders o ON ${ORDERS_OF_BATCH}
        WHERE b.id = ANY($1)
        GROUP BY b.id`,
      [ids],
    );
    return new Map(
      rows.map((row) => [
        Number(row.id),
        {
          paymentCount: row.payment_count,
          paymentMinor: row.payment_minor,
          refundCount: row.refund_count,
          refundMinor: row.refund_minor,
          voidCount: row.void_count,
          voidMinor: row.void_minor,
        },
      ]),
    );
  }

  /** The batch's payments, refunds and voids per kind and payment method (spec 2 detail `transactions`). */
  async summary(id: number): Promise<BatchSummaryLine[]> {
    const rows: Array<{ trans_type: string; payment_method: string; count: number; amount_minor: string }> = await this.manager.query(
      `SELECT kind AS trans_type, payment_method, sum(n)::int AS count, sum(amount)::text AS amount_minor FROM (
         SELECT CASE WHEN o.tran_type = 'SALE' THEN 'SALE' ELSE 'CAPTURE' END AS kind, o.payment_method, 1 AS n, o.captured_minor AS amount
           FROM settlement_batch b JOIN orders o ON ${ORDERS_OF_BATCH} WHERE b.id = $1 AND ${IS_PAYMENT}
         UNION ALL
         SELECT 'REFUND', o.payment_method, o.refund_count, o.refunded_minor
           FROM settlement_batch b JOIN orders o ON ${ORDERS_OF_BATCH} WHERE b.id = $1 AND o.refund_count > 0
         UNION ALL
         SELECT 'VOID', o.payment_method, 1, ${VOIDED_MINOR}
           FROM settlement_batch b JOIN orders o ON ${ORDERS_OF_BATCH} WHERE b.id = $1 AND ${IS_VOID}
       ) lines GROUP BY kind, payment_method ORDER BY kind, payment_method`,
      [id],
    );
    return rows.map((row) => ({ transType: row.trans_type, paymentMethod: row.payment_method, count: row.count, amountMinor: row.amount_minor }));
  }

  private filtered(manager: EntityManager, groupId: string, filter: BatchFilter): SelectQueryBuilder<SettlementBatchEntity> {
    const query = manager.getRepository(SettlementBatchEntity).createQueryBuilder('b').where('b.groupId = :groupId', { groupId });
    if (filter.createdFrom) query.andWhere('b.createdAt >= :createdFrom', { createdFrom: filter.createdFrom });
    if (filter.createdUntil) query.andWhere('b.createdAt < :createdUntil', { createdUntil: filter.createdUntil });
    if (filter.batchId !== undefined) query.andWhere('b.batchId = :batchId', { batchId: filter.batchId });
    return query;
  }
}
