import { PageRequest } from '@app/common';
import { TXN_BATCH_SETTLED_V1, TxnBatchSettledV1 } from '@app/contracts';
import { TypeOrmUnitOfWork } from '@app/database';
import { OutboxWriter } from '@app/messaging';
import { Injectable } from '@nestjs/common';
import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Order, ORDER_STATES, TerminalBatch } from '../../order/order';
import { OrderEntity } from '../../order/persistence/order.entity';
import { streamNewestFirst, StreamedRows } from '../../shared/persistence/snapshot-stream';
import { BatchFilter, BatchLine, BatchLineKind, BatchSummaryLine, BatchTotals, SettlementBatch } from '../settlement';
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

/** The columns that name a settlement batch: the gateway's terminal batch key. */
const BATCH_KEY = ['group_id', 'host_message_format', 'acquirer_key', 'primary_mid', 'primary_tid', 'currency', 'batch_no'] as const;

/** Order `o` is of the terminal of batch `b` (the gateway's terminal key), in SQL. */
const TERMINAL_OF_BATCH =
  'o.group_id = b.group_id AND o.host_message_format = b.host_message_format AND o.acquirer_key = b.acquirer_key AND o.primary_mid = b.primary_mid AND o.primary_tid = b.primary_tid AND o.currency = b.currency';
/** The orders whose transaction is in batch `b` (the gateway's transaction batchNo: where a sale's approval or an authorisation's capture booked). */
const ORDERS_OF_BATCH = `settlement_batch b JOIN orders o ON ${TERMINAL_OF_BATCH} AND o.batch_no = b.batch_no`;
/** A payment, as the gateway books it: an approved (or refunded) sale, or an authorisation's capture, not voided. */
const IS_PAYMENT = `o.state IN (${ORDER_STATES.APPROVED}, ${ORDER_STATES.REFUNDED}) AND o.captured_minor > 0`;
/**
 * A void of booked money, as the gateway counts it: a voided sale, or a voided authorisation that
 * was captured. The void of an authorisation never captured moved no money: it counts nowhere.
 */
const IS_VOID_OF_BOOKED = `o.state = ${ORDER_STATES.VOIDED} AND o.captured_minor > 0`;
/** The first successful action of type `type` (SQL) of order `o`, as `alias`. */
const successfulAction = (alias: string, type: string) =>
  `LEFT JOIN LATERAL (
    SELECT ${alias}.action_id, ${alias}.trace, ${alias}.amount_minor, ${alias}.created_at FROM order_action ${alias}
     WHERE ${alias}.tran_id = o.tran_id AND ${alias}.action_type = ${type} AND ${alias}.action_status = 'SUCCESS' ORDER BY ${alias}.position LIMIT 1
  ) ${alias} ON true`;

/**
 * What batch `b` booked, one line per booking, by the gateway's rules (`batchContents`): the
 * payments of the transactions in it (a sale's approval or an authorisation's capture, at its
 * captured amount, with the action that booked it), the voids of the transactions in it (at the
 * void action's amount: a captured authorisation voids its capture), and the refunds booked in
 * it, whichever batch their sale is in. Totals, the detail's summary and the report's CSV are all
 * read from these lines, so the CSV's sums are the batch's totals.
 */
const BATCH_LINES = `
  SELECT b.id AS batch_id, CASE WHEN o.tran_type = 'SALE' THEN 'SALE' ELSE 'CAPTURE' END AS kind, o.tran_id, k.action_id, COALESCE(k.trace, o.trace) AS trace,
         COALESCE(k.created_at, o.created_at) AS booked_at, o.captured_minor AS amount_minor
    FROM ${ORDERS_OF_BATCH} ${successfulAction('k', "CASE WHEN o.tran_type = 'SALE' THEN 'NEW' ELSE 'CAPTURE' END")}
   WHERE ${IS_PAYMENT}
  UNION ALL
  SELECT b.id, 'VOID', o.tran_id, v.action_id, COALESCE(v.trace, o.trace), COALESCE(v.created_at, o.updated_at, o.created_at), COALESCE(v.amount_minor, o.captured_minor)
    FROM ${ORDERS_OF_BATCH} ${successfulAction('v', "'VOID'")}
   WHERE ${IS_VOID_OF_BOOKED}
  UNION ALL
  SELECT b.id, 'REFUND', o.tran_id, a.action_id, a.trace, a.created_at, a.amount_minor
    FROM settlement_batch b
    JOIN order_action a ON a.batch_no = b.batch_no AND a.action_type = 'REFUND' AND a.action_status = 'SUCCESS'
    JOIN orders o ON o.tran_id = a.tran_id AND ${TERMINAL_OF_BATCH}`;

interface LineRow {
  batch_id: string;
  kind: BatchLineKind;
  tran_id: string;
  action_id: string | null;
  trace: string;
  booked_at: Date;
  amount_minor: string;
}

const IS_PAYMENT_LINE = "l.kind IN ('SALE', 'CAPTURE')";

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
   * Creates the batch of each terminal batch key unless it exists (the first action booked in it
   * creates it), all in one statement, in the given order (the caller sorts the keys: concurrent
   * writers take their locks in one order). An existing batch is found by a plain read, so an order
   * written while its batch is locked (a settlement recording its outcome) never waits for that
   * lock; only a new batch is inserted.
   */
  async ensureAll(batches: readonly NewBatch[]): Promise<void> {
    if (batches.length === 0) return;
    const column = <K extends keyof NewBatch>(key: K) => batches.map((batch) => batch[key]);
    const key = (b: string) => BATCH_KEY.map((name) => `${b}.${name} = n.${name}`).join(' AND ');
    const legacy = BATCH_KEY.filter((name) => name !== 'acquirer_key')
      .map((name) => `b.${name} = n.${name}`)
      .join(' AND ');
    // A batch recorded before batches were per acquirer (no acquirer) is the first one's named for it: it keeps its id and
    // state, and says whose it is now (the acceptance the gateway is asked by, the merchant, the acquirer profile's name).
    // The insert reads the snapshot from before that update: it leaves out the keys the update gave.
    await this.manager.query(
      `WITH n AS (
         SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::varchar[], $7::varchar[], $8::varchar[], $9::varchar[], $10::varchar[], $11::varchar[], $12::varchar[], $13::varchar[], $14::timestamptz[])
                WITH ORDINALITY AS n(uuid, batch_id, group_id, merchant_id, merchant_name, acceptance_id, host_message_format, acquirer_key, primary_mid, primary_tid, currency, batch_no, profile_name, opened_at, position)),
       adopted AS (
         UPDATE settlement_batch b
            SET acquirer_key = n.acquirer_key, acceptance_id = n.acceptance_id, merchant_id = n.merchant_id, merchant_name = n.merchant_name, profile_name = n.profile_name
           FROM n
          WHERE b.acquirer_key = '' AND n.acquirer_key <> '' AND ${legacy}
            AND NOT EXISTS (SELECT 1 FROM settlement_batch k WHERE ${key('k')})
          RETURNING b.${BATCH_KEY.join(', b.')})
       INSERT INTO settlement_batch (uuid, batch_id, group_id, merchant_id, merchant_name, acceptance_id, host_message_format, acquirer_key, primary_mid, primary_tid, currency, batch_no, profile_name, created_at, updated_at)
       SELECT n.uuid, n.batch_id, n.group_id, n.merchant_id, n.merchant_name, n.acceptance_id, n.host_message_format, n.acquirer_key, n.primary_mid, n.primary_tid, n.currency, n.batch_no, n.profile_name, n.opened_at, n.opened_at
         FROM n
        WHERE NOT EXISTS (SELECT 1 FROM settlement_batch b WHERE ${key('b')}) AND NOT EXISTS (SELECT 1 FROM adopted a WHERE ${key('a')})
        ORDER BY n.position
       ON CONFLICT (group_id, host_message_format, acquirer_key, primary_mid, primary_tid, currency, batch_no) DO NOTHING`,
      [
        column('uuid'),
        column('batchId'),
        column('groupId'),
        column('merchantId'),
        column('merchantName'),
        column('acceptanceId'),
        column('hostMessageFormat'),
        column('acquirerKey'),
        column('primaryMid'),
        column('primaryTid'),
        column('currency'),
        column('batchNo'),
        column('profileName'),
        column('openedAt'),
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
      `SELECT l.batch_id AS id,
              count(*) FILTER (WHERE ${IS_PAYMENT_LINE})::int AS payment_count, COALESCE(sum(l.amount_minor) FILTER (WHERE ${IS_PAYMENT_LINE}), 0)::text AS payment_minor,
              count(*) FILTER (WHERE l.kind = 'REFUND')::int AS refund_count, COALESCE(sum(l.amount_minor) FILTER (WHERE l.kind = 'REFUND'), 0)::text AS refund_minor,
              count(*) FILTER (WHERE l.kind = 'VOID')::int AS void_count, COALESCE(sum(l.amount_minor) FILTER (WHERE l.kind = 'VOID'), 0)::text AS void_minor
         FROM (${BATCH_LINES}) l
        WHERE l.batch_id = ANY($1)
        GROUP BY l.batch_id`,
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
      `SELECT l.kind AS trans_type, o.payment_method, count(*)::int AS count, sum(l.amount_minor)::text AS amount_minor
         FROM (${BATCH_LINES}) l JOIN orders o ON o.tran_id = l.tran_id
        WHERE l.batch_id = $1
        GROUP BY l.kind, o.payment_method ORDER BY l.kind, o.payment_method`,
      [id],
    );
    return rows.map((row) => ({ transType: row.trans_type, paymentMethod: row.payment_method, count: row.count, amountMinor: row.amount_minor }));
  }

  /** Every booking of the batch (the report's CSV), in the order they were booked. */
  async lines(id: number): Promise<BatchLine[]> {
    const rows: LineRow[] = await this.manager.query(`SELECT l.* FROM (${BATCH_LINES}) l WHERE l.batch_id = $1 ORDER BY l.booked_at, l.tran_id, l.kind`, [id]);
    const tranIds = [...new Set(rows.map((row) => row.tran_id))];
    const orders = new Map(
      (tranIds.length === 0 ? [] : await this.manager.getRepository(OrderEntity).findBy({ tranId: In(tranIds) })).map((order) => [
        order.tranId,
        order as Order,
      ]),
    );
    return rows.map((row) => ({
      batchId: Number(row.batch_id),
      kind: row.kind,
      actionId: row.action_id,
      trace: row.trace,
      bookedAt: row.booked_at,
      amountMinor: row.amount_minor,
      order: orders.get(row.tran_id)!,
    }));
  }

  private filtered(manager: EntityManager, groupId: string, filter: BatchFilter): SelectQueryBuilder<SettlementBatchEntity> {
    const query = manager.getRepository(SettlementBatchEntity).createQueryBuilder('b').where('b.groupId = :groupId', { groupId });
    if (filter.createdFrom) query.andWhere('b.createdAt >= :createdFrom', { createdFrom: filter.createdFrom });
    if (filter.createdUntil) query.andWhere('b.createdAt < :createdUntil', { createdUntil: filter.createdUntil });
    if (filter.batchId !== undefined) query.andWhere('b.batchId = :batchId', { batchId: filter.batchId });
    return query;
  }
}
