import { PageRequest } from '@app/common';
import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { streamNewestFirst, StreamedRows } from '../../shared/persistence/snapshot-stream';
import { Order, OrderAction, OrderFilter, SettleState, SETTLE_STATES } from '../order';
import { OrderActionEntity } from './order-action.entity';
import { OrderEntity } from './order.entity';

/** What became of an order written by version: taken, older than (or as old as) the stored one, or a tranId another PBO's order holds. */
/** What became of an order written: applied (with the acquirer it has now: the one it had when the version named none), stale, or another PBO's. */
export type OrderWrite = { outcome: 'applied'; acquirerKey: string } | { outcome: 'stale' } | { outcome: 'other-group'; groupId: string };

/** What became of orders written together: the tranIds applied, and those another PBO's order holds (with its groupId). */
export interface OrderWrites {
  /** tranId → the acquirer the applied order has now. */
  applied: Map<string, string>;
  otherGroup: Map<string, string>;
}

/** An action to store, before it has this context's number. */
export type NewOrderAction = Omit<OrderAction, 'id'>;

/**
 * An order's settle state moves up only, in the order wait (0) < settle failed (2) < settled
 * (1): a settlement this context recorded is never undone by an event of the gateway published
 * before it (docs/decisions.md, "Transactions context (issue 13)").
 */
const SETTLE_STATE_MOVES_UP = `CASE WHEN orders.settle_state = ${SETTLE_STATES.SETTLED} THEN orders.settle_state
  WHEN orders.settle_state = ${SETTLE_STATES.SETTLE_FAILED} AND EXCLUDED.settle_state = ${SETTLE_STATES.WAIT_FOR_SETTLE} THEN orders.settle_state
  ELSE EXCLUDED.settle_state END`;

/**
 * A version is applied over the stored one when it is higher, or when it is the same version naming
 * the acquirer of an order recorded without one: the gateway publishes the events of what was not
 * settled when batches became per acquirer once more (docs/decisions.md, "Review r14r").
 */
const NEWER_OR_NAMES_ITS_ACQUIRER = `(orders.version < EXCLUDED.version OR (orders.version = EXCLUDED.version AND orders.acquirer_key = '' AND EXCLUDED.acquirer_key <> ''))`;

/** Columns an upsert never rewrites: the key, the owner, the settle state (moved by its own rule) and the bookkeeping. */
const KEPT_ON_UPDATE = new Set(['tranId', 'groupId', 'settleState', 'syncedAt']);

/** The orders of the read model; every read by the PBO takes its groupId, lookups by id answer any owner (the service applies the tenancy rule). */
@Injectable()
export class OrderRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  private get manager(): EntityManager {
    return this.uow.manager;
  }

  /**
   * Inserts the order, or replaces the stored one when `order.version` is higher and the
   * order is the same PBO's: one statement, so concurrent writers of one transaction (the
   * consumer and an action's reply) end with the highest version whatever their order.
   */
  async upsert(order: Order): Promise<OrderWrite> {
    const written = await this.upsertMany([order]);
    const acquirerKey = written.applied.get(order.tranId);
    if (acquirerKey !== undefined) return { outcome: 'applied', acquirerKey };
    const groupId = written.otherGroup.get(order.tranId);
    return groupId === undefined ? { outcome: 'stale' } : { outcome: 'other-group', groupId };
  }

  /**
   * {@link upsert} for orders of distinct tranIds in one statement: answers the tranIds applied and,
   * of those not applied, the ones another PBO's order holds (with its group); the rest were stale.
   */
  async upsertMany(orders: readonly Order[]): Promise<OrderWrites> {
    const written: OrderWrites = { applied: new Map(), otherGroup: new Map() };
    if (orders.length === 0) return written;
    const columns = this.manager.connection.getMetadata(OrderEntity).columns.filter((column) => column.propertyName !== 'syncedAt');
    const names = columns.map((column) => `"${column.databaseName}"`);
    const values: unknown[] = [];
    // In tranId order: concurrent batches lock the rows they share in the same order, never waiting on each other in a circle.
    const rows = [...orders].sort((a, b) => (a.tranId < b.tranId ? -1 : a.tranId > b.tranId ? 1 : 0)).map((order) => {
      const placeholders = columns.map((column) => {
        values.push(order[column.propertyName as keyof Order] ?? null);
        return `$${values.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    const updates = columns
      .filter((column) => !KEPT_ON_UPDATE.has(column.propertyName))
      .map((column) =>
        // A version that does not name its acquirer (a payload of before) leaves the one known: the order stays in its batch.
        column.propertyName === 'acquirerKey'
          ? `"${column.databaseName}" = COALESCE(NULLIF(EXCLUDED."${column.databaseName}", ''), orders."${column.databaseName}")`
          : `"${column.databaseName}" = EXCLUDED."${column.databaseName}"`,
      );
    const applied: Array<{ tran_id: string; acquirer_key: string }> = await this.manager.query(
      `INSERT INTO orders (${names.join(', ')}) VALUES ${rows.join(', ')}
       ON CONFLICT (tran_id) DO UPDATE SET ${updates.join(', ')}, settle_state = ${SETTLE_STATE_MOVES_UP}, synced_at = now()
       WHERE ${NEWER_OR_NAMES_ITS_ACQUIRER} AND orders.group_id = EXCLUDED.group_id
       RETURNING tran_id, acquirer_key`,
      values,
    );
    for (const row of applied) written.applied.set(row.tran_id, row.acquirer_key);
    const rest = orders.filter((order) => !written.applied.has(order.tranId));
    if (rest.length === 0) return written;
    const stored: Array<{ tran_id: string; group_id: string }> = await this.manager.query('SELECT tran_id, group_id FROM orders WHERE tran_id = ANY($1::text[])', [
      rest.map((order) => order.tranId),
    ]);
    const groupOf = new Map(stored.map((row) => [row.tran_id, row.group_id]));
    for (const order of rest) {
      const groupId = groupOf.get(order.tranId);
      if (groupId !== undefined && groupId !== order.groupId) written.otherGroup.set(order.tranId, groupId);
    }
    return written;
  }

  /** Stores the orders' actions by actionId (new ones inserted, known ones updated), keeping their numbers: one statement, whatever their number. */
  async upsertActions(actions: readonly NewOrderAction[]): Promise<void> {
    if (actions.length === 0) return;
    const column = <K extends keyof NewOrderAction>(key: K): Array<NewOrderAction[K]> => actions.map((action) => action[key]);
    await this.manager.query(
      `INSERT INTO order_action (action_id, tran_id, position, action_type, action_status, trace, amount_minor, currency, reason, host_resp_code, host_resp_message, created_at, batch_no, reversal)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::smallint[], $4::varchar[], $5::varchar[], $6::varchar[], $7::bigint[], $8::varchar[], $9::varchar[], $10::varchar[], $11::varchar[], $12::timestamptz[], $13::varchar[], $14::jsonb[])
       ON CONFLICT (action_id) DO UPDATE SET position = EXCLUDED.position, action_type = EXCLUDED.action_type, action_status = EXCLUDED.action_status,
         trace = EXCLUDED.trace, amount_minor = EXCLUDED.amount_minor, currency = EXCLUDED.currency, reason = EXCLUDED.reason,
         host_resp_code = EXCLUDED.host_resp_code, host_resp_message = EXCLUDED.host_resp_message, batch_no = EXCLUDED.batch_no, reversal = EXCLUDED.reversal`,
      [
        column('actionId'),
        column('tranId'),
        column('position'),
        column('actionType'),
        column('actionStatus'),
        column('trace'),
        column('amountMinor'),
        column('currency'),
        column('reason'),
        column('hostRespCode'),
        column('hostRespMessage'),
        column('createdAt'),
        column('batchNo'),
        column('reversal').map((reversal) => (reversal === null ? null : JSON.stringify(reversal))),
      ],
    );
  }

  /** By tranId, whatever the owner. */
  findById(tranId: string): Promise<Order | null> {
    return this.manager.getRepository(OrderEntity).findOneBy({ tranId });
  }

  actionsOf(tranId: string): Promise<OrderAction[]> {
    return this.manager.getRepository(OrderActionEntity).find({ where: { tranId }, order: { position: 'ASC', id: 'ASC' } });
  }

  /** This context's number of an action. */
  async actionNumber(actionId: string): Promise<number | null> {
    const action = await this.manager.getRepository(OrderActionEntity).findOne({ where: { actionId }, select: { id: true } });
    return action?.id ?? null;
  }

  /** One page of the PBO's orders, newest first, and how many match. */
  list(groupId: string, filter: OrderFilter, page: PageRequest): Promise<[Order[], number]> {
    const query = this.filtered(this.manager, groupId, filter).orderBy('o.createdAt', 'DESC').addOrderBy('o.tranId', 'DESC').skip(page.offset);
    if (page.limit !== null) query.take(page.limit);
    return query.getManyAndCount();
  }

  /** Every matching order, newest first, in chunks from one snapshot (`pageSize=-1`). */
  streamAll(groupId: string, filter: OrderFilter, chunkSize?: number): Promise<StreamedRows<Order>> {
    return streamNewestFirst<OrderEntity>(
      this.manager.connection,
      (manager) => this.filtered(manager, groupId, filter),
      { alias: 'o', time: 'createdAt', tie: 'tranId', timeOf: (row) => row.createdAt, tieOf: (row) => row.tranId },
      chunkSize,
    );
  }

  /** Sets the settle state of the PBO's orders among `tranIds` (a settlement's outcome), by the rule that it only moves up. */
  async markSettled(groupId: string, tranIds: string[], settleState: SettleState): Promise<void> {
    if (tranIds.length === 0) return;
    const rank = (column: string) => `CASE ${column} WHEN ${SETTLE_STATES.WAIT_FOR_SETTLE} THEN 0 WHEN ${SETTLE_STATES.SETTLE_FAILED} THEN 1 ELSE 2 END`;
    // Rows locked in tranId order, as the order consumer's batches lock them (upsertMany): a settle and
    // a batch sharing orders never wait on each other in a circle (a deadlock, 409, was seen in CI).
    await this.manager.query(
      `UPDATE orders o SET settle_state = $3, synced_at = now()
       FROM (SELECT tran_id FROM orders WHERE group_id = $1 AND tran_id = ANY($2) ORDER BY tran_id FOR UPDATE) locked
       WHERE o.tran_id = locked.tran_id AND ${rank('o.settle_state')} < ${rank('$3::smallint')}`,
      [groupId, tranIds, settleState],
    );
  }

  private filtered(manager: EntityManager, groupId: string, filter: OrderFilter): SelectQueryBuilder<OrderEntity> {
    const query = manager.getRepository(OrderEntity).createQueryBuilder('o').where('o.groupId = :groupId', { groupId });
    if (filter.createdFrom) query.andWhere('o.createdAt >= :createdFrom', { createdFrom: filter.createdFrom });
    if (filter.createdUntil) query.andWhere('o.createdAt < :createdUntil', { createdUntil: filter.createdUntil });
    if (filter.tranId !== undefined) query.andWhere('o.tranId = :tranId', { tranId: filter.tranId });
    if (filter.batchNo !== undefined) query.andWhere('o.batchNo = :batchNo', { batchNo: filter.batchNo });
    if (filter.rrn !== undefined) query.andWhere('o.rrn = :rrn', { rrn: filter.rrn });
    if (filter.sdkId !== undefined) query.andWhere('o.sdkId = :sdkId', { sdkId: filter.sdkId });
    if (filter.state !== undefined) query.andWhere('o.state = :state', { state: filter.state });
    if (filter.settleState !== undefined) query.andWhere('o.settleState = :settleState', { settleState: filter.settleState });
    return query;
  }
}
