import { PageRequest } from '@app/common';
import { TXN_BATCH_SETTLED_V1, TxnBatchSettledV1 } from '@app/contracts';
import { TypeOrmUnitOfWork } from '@app/database';
import { OutboxWriter } from '@app/messaging';
import { Injectable } from '@nestjs/common';
import { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ORDER_STATES, TerminalBatch } from '../../order/order';
import { streamNewestFirst, StreamedRows } from '../../shared/persistence/snapshot-stream';
import { BatchFilter, BatchSummaryLine, BatchTotals, SettlementBatch } from '../settlement';
import { SettlementBatchEntity } from './settlement-batch.entity';

/** A batch as it is first seen, with the first order that books in it. */
export interface NewBatch extends TerminalBatch {
  uuid: string;
  batchId: string;
  merchantId: string | null;
  merchantName: string;
  acceptanceId: string;
  profileName: string | null;
  openedAt: Date;
}

/** Order `o` is of the terminal of batch `b` (the gateway's terminal key), in SQL. */
const TERMINAL_OF_BATCH =
  'o.group_id = b.group_id AND o.host_message_format = b.host_message_format AND o.primary_mid = b.primary_mid AND o.primary_tid = b.primary_tid AND o.currency = b.currency';
/**
 * The orders whose transaction is in batch `b` (the gateway's transaction batchNo: where a sale's
 * approval or an authorisation's capture booked), each with `v`, its successful void if any.
 */
const ORDERS_OF_BATCH = `orders o LEFT JOIN LATERAL (
    SELECT v.amount_minor FROM order_action v WHERE v.tran_id = o.tran_id AND v.action_type = 'VOID' AND v.action_status = 'SUCCESS' ORDER BY v.position LIMIT 1
  ) v ON true
  WHERE ${TERMINAL_OF_BATCH} AND o.batch_no = b.batch_no`;
/**
 * The refunds booked in batch `b` (`a`, with its order `o`): each in the batch open when the host
 * approved it, whichever batch its sale is in, as the gateway totals them.
 */
const REFUNDS_OF_BATCH = `order_action a JOIN orders o ON o.tran_id = a.tran_id
  WHERE a.batch_no = b.batch_no AND a.action_type = 'REFUND' AND a.action_status = 'SUCCESS' AND ${TERMINAL_OF_BATCH}`;
/** A payment, as the gateway books it: an approved (or refunded) sale, or an authorisation's capture, not voided. */
const IS_PAYMENT = `o.state IN (${ORDER_STATES.APPROVED}, ${ORDER_STATES.REFUNDED}) AND o.captured_minor > 0`;
const IS_VOID = `o.state = ${ORDER_STATES.VOIDED}`;
/** What a void took back: its own amount (a captured authorisation's capture, else the approval), as the gateway counts it. */
const VOIDED_MINOR = 'COALESCE(v.amount_minor, o.captured_minor)';

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
  constructor(
    private readonly uow: TypeOrmUnitOfWork,
    private readonly outbox: OutboxWriter,
  ) {}

  private get manager(): EntityManager {
    return this.uow.manager;
  }

  /** `txn.batch.settled.v1` through the outbox, in the unit of work that records the settlement. */
  async enqueueSettled(event: TxnBatchSettledV1): Promise<void> {
    await this.outbox.enqueue(this.manager, TXN_BATCH_SETTLED_V1, event);
  }

  /**
   * Creates the batch of a terminal batch key unless it exists (the first action booked in it
   * creates it). An existing batch is found by a plain read, so an order written while its batch
   * is locked (a settlement recording its outcome) never waits for that lock; only a new batch is
   * inserted.
   */
  async ensure(batch: NewBatch): Promise<void> {
    const key = 'group_id = $3 AND host_message_format = $7 AND primary_mid = $8 AND primary_tid = $9 AND currency = $10 AND batch_no = $11';
    await this.manager.query(
      `INSERT INTO settlement_batch (uuid, batch_id, group_id, merchant_id, merchant_name, acceptance_id, host_message_format, primary_mid, primary_tid, currency, batch_no, profile_name, created_at, updated_at)
       SELECT $1::uuid, $2::varchar, $3::varchar, $4::varchar, $5::varchar, $6::varchar, $7::varchar, $8::varchar, $9::varchar, $10::varchar, $11::varchar, $12::varchar, $13::timestamptz, $13::timestamptz
        WHERE NOT EXISTS (SELECT 1 FROM settlement_batch WHERE ${key})
       ON CONFLICT (group_id, host_message_format, primary_mid, primary_tid, currency, batch_no) DO NOTHING`,
      [
        batch.uuid,
        batch.batchId,
        batch.groupId,
        batch.merchantId,
        batch.merchantName,
        batch.acceptanceId,
        batch.hostMessageFormat,
        batch.primaryMid,
        batch.primaryTid,
        batch.currency,
        batch.batchNo,
        batch.profileName,
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

  /**
   * The totals of each batch counted from its orders and actions now, by the gateway's rules:
   * payments and voids of the transactions in the batch, refunds booked in it.
   */
  async countedTotals(ids: number[]): Promise<Map<number, BatchTotals>> {
    if (ids.length === 0) return new Map();
    const rows: TotalsRow[] = await this.manager.query(
      `SELECT b.id, p.payment_count, p.payment_minor, r.refund_count, r.refund_minor, p.void_count, p.void_minor
         FROM settlement_batch b
        CROSS JOIN LATERAL (
          SELECT count(*) FILTER (WHERE ${IS_PAYMENT})::int AS payment_count,
                 COALESCE(sum(o.captured_minor) FILTER (WHERE ${IS_PAYMENT}), 0)::text AS payment_minor,
                 count(*) FILTER (WHERE ${IS_VOID})::int AS void_count,
                 COALESCE(sum(${VOIDED_MINOR}) FILTER (WHERE ${IS_VOID}), 0)::text AS void_minor
            FROM ${ORDERS_OF_BATCH}) p
        CROSS JOIN LATERAL (
          SELECT count(*)::int AS refund_count, COALESCE(sum(a.amount_minor), 0)::text AS refund_minor FROM ${REFUNDS_OF_BATCH}) r
        WHERE b.id = ANY($1)`,
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
           FROM settlement_batch b, ${ORDERS_OF_BATCH} AND b.id = $1 AND ${IS_PAYMENT}
         UNION ALL
         SELECT 'REFUND', o.payment_method, 1, a.amount_minor
           FROM settlement_batch b, ${REFUNDS_OF_BATCH} AND b.id = $1
         UNION ALL
         SELECT 'VOID', o.payment_method, 1, ${VOIDED_MINOR}
           FROM settlement_batch b, ${ORDERS_OF_BATCH} AND b.id = $1 AND ${IS_VOID}
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
