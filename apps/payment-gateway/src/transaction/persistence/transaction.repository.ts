import { queryNamed, TypeOrmUnitOfWork } from '@app/database';
import { GATEWAY_TRANSACTION_UPDATED_V1, GatewayTransactionUpdatedV1 } from '@app/contracts';
import { OutboxWriter } from '@app/messaging';
import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { GatewayActionType } from '@app/contracts';
import { type KeptActionRequest, type TerminalKey, terminalKeyOf, type Transaction, type TransactionAction } from '../transaction';
import type { IdempotencyScope } from './idempotency.repository';
import { rowJson, setClause } from './row-sql';
import { lockedTerminalSql, TERMINAL_NOT_HELD } from './terminal-batch.repository';
import { TransactionActionEntity } from './transaction-action.entity';
import { PaymentTransactionEntity } from './transaction.entity';

/** What a transaction's change sets (never its id, owner or creation). */
export type TransactionChanges = Partial<Omit<Transaction, 'id' | 'groupId' | 'createdAt'>>;
export type ActionChanges = Partial<Omit<TransactionAction, 'id' | 'tranId' | 'createdAt'>>;

/** A pending action the resolver took for a while (its next check already moved on). */
export interface LeasedAction {
  actionId: string;
  tranId: string;
  actionType: GatewayActionType;
  hostRequest: KeptActionRequest | null;
  createdAt: Date;
  /** Checks made before this one. */
  attempts: number;
}

/**
 * Transactions and their actions, in the unit of work's transaction (or alone outside one). The
 * money rules of follow-ups take {@link lockById} first: the row stays locked until the unit of
 * work ends, so void, refund, capture and settlement of one transaction run one at a time.
 */
@Injectable()
export class TransactionRepository {
  constructor(
    private readonly uow: TypeOrmUnitOfWork,
    private readonly outbox: OutboxWriter,
  ) {}

  /**
   * Writes a new transaction and its first action in one statement, unless a settlement holds its
   * terminal (read under a share lock of the terminal's row, as settlement takes it exclusively
   * to hold it: a sale is either written before the hold, so the settlement waits for it, or sees
   * the hold); with `claim`, only when its Idempotency-Key is free, taking the key for the
   * transaction in that same statement (the key's row names it at once). Answers what it did:
   * `written`, or nothing written because the key was `taken` or the terminal held at `now` (until when).
   */
  async insertNew(
    transaction: Transaction,
    action: TransactionAction,
    now: Date,
    claim?: { scope: IdempotencyScope; requestHash: string },
  ): Promise<'written' | 'taken' | { heldUntil: Date }> {
    const manager = this.uow.manager;
    const row = rowJson(manager, PaymentTransactionEntity, transaction);
    const actionRow = rowJson(manager, TransactionActionEntity, action);
    const params: unknown[] = [row.json, actionRow.json];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const terminal = `terminal AS (${lockedTerminalSql(terminalKeyOf(transaction), param)})`;
    const free = `free AS (SELECT 1 WHERE ${TERMINAL_NOT_HELD('terminal', `${param(now)}::timestamptz`)})`;
    let claimed = '';
    let onlyIfClaimed = 'WHERE EXISTS (SELECT 1 FROM free)';
    if (claim) {
      const { groupId, deviceId, idempotencyKey } = claim.scope;
      claimed = `claimed AS (
         INSERT INTO idempotency_key (group_id, device_id, idempotency_key, request_hash, created_at, claimed_at, tran_id)
         SELECT ${param(groupId)}::varchar, ${param(deviceId)}::varchar, ${param(idempotencyKey)}::varchar, ${param(claim.requestHash)}::varchar,
           ${param(transaction.createdAt)}::timestamptz, ${`$${params.length}`}::timestamptz, ${param(transaction.id)}::varchar
         WHERE EXISTS (SELECT 1 FROM free)
         ON CONFLICT DO NOTHING RETURNING tran_id),`;
      onlyIfClaimed = 'WHERE EXISTS (SELECT 1 FROM claimed)';
    }
    const {
      rows: [result],
    } = await queryNamed<{ written: number; held_until: Date | null }>(
      manager,
      `WITH ${terminal}, ${free}, ${claimed} created AS (
         INSERT INTO payment_transaction (${row.columns}) SELECT ${row.columns} FROM jsonb_populate_record(NULL::payment_transaction, $1::jsonb) ${onlyIfClaimed} RETURNING id),
       acted AS (
         INSERT INTO transaction_action (${actionRow.columns}) SELECT ${actionRow.columns} FROM jsonb_populate_record(NULL::transaction_action, $2::jsonb)
         WHERE EXISTS (SELECT 1 FROM created) RETURNING id)
       SELECT (SELECT count(*) FROM acted)::int AS written, (SELECT settle_hold_until FROM terminal WHERE NOT EXISTS (SELECT 1 FROM free)) AS held_until`,
      params,
    );
    if (result.written === 1) return 'written';
    return result.held_until === null ? 'taken' : { heldUntil: result.held_until };
  }

  /**
   * Writes the first outcome of a sale, its event and its kept answer in one statement (so
   * atomically, without a transaction around it), only while the sale is as its request wrote it
   * (version 1, PENDING, its NEW action pending): another writer (the resolver) may have come
   * first. With `batchOf`, the terminal's batch number is taken under a share lock (as
   * `TerminalBatchRepository.openBatchNo`), only if the terminal has its batch row, and written on
   * the transaction and on the action (`actionBooks`). The event is the one document all the rest
   * is read from: the batch number is set in it once (its transaction's `batchNo`, and its NEW
   * action's when that books), and the kept answer is its transaction. Answers the event as
   * written (the batch number the statement took set in it as the statement set it; the
   * statement sends back only that number, not the document), or undefined when nothing was written.
   */
  async writeFirstOutcome(first: {
    tranId: string;
    changes: TransactionChanges;
    actionId: string;
    actionChanges: ActionChanges;
    batchOf?: { terminal: TerminalKey; actionBooks: boolean };
    event: { id: string; payload: GatewayTransactionUpdatedV1 };
    answer?: { scope: IdempotencyScope; status: number };
  }): Promise<GatewayTransactionUpdatedV1 | undefined> {
    const manager = this.uow.manager;
    const params: unknown[] = [first.tranId, first.actionId];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const transactionSet = setClause(manager, PaymentTransactionEntity, { ...first.changes, version: 2 }, params);
    const actionSet = setClause(manager, TransactionActionEntity, first.actionChanges, params);
    const ctes: string[] = [];
    if (first.batchOf) ctes.push(`batch AS (${lockedTerminalSql(first.batchOf.terminal, param)})`);
    ctes.push(`updated AS (
         UPDATE payment_transaction SET ${transactionSet}${first.batchOf ? ', batch_no = (SELECT batch_no FROM batch)' : ''}
         WHERE id = $1 AND version = 1 AND tran_status = 'PENDING'${first.batchOf ? ' AND EXISTS (SELECT 1 FROM batch)' : ''}
           AND EXISTS (SELECT 1 FROM transaction_action WHERE id = $2 AND tran_id = $1 AND action_status = 'PENDING')
         RETURNING batch_no, to_jsonb(batch_no) AS batch_json)`);
    ctes.push(
      `acted AS (UPDATE transaction_action SET ${actionSet}${first.batchOf?.actionBooks ? ', batch_no = (SELECT batch_no FROM updated)' : ''} WHERE id = $2 AND EXISTS (SELECT 1 FROM updated) RETURNING id)`,
    );
    // The event with the batch number taken: its transaction's, and its NEW action's (the only action of the document) when that books in the batch (a sale).
    const withTransactionBatch = `jsonb_set(${param(JSON.stringify(first.event.payload))}::jsonb, '{transaction,batchNo}', COALESCE(updated.batch_json, 'null'::jsonb))`;
    const document = first.batchOf?.actionBooks
      ? `jsonb_set(${withTransactionBatch}, '{transaction,actions,0,batchNo}', COALESCE(updated.batch_json, 'null'::jsonb))`
      : withTransactionBatch;
    ctes.push(`booked AS (SELECT ${document} AS payload FROM updated, acted)`);
    ctes.push(`event AS (
         INSERT INTO outbox (id, subject, payload) SELECT ${param(first.event.id)}::uuid, ${param(GATEWAY_TRANSACTION_UPDATED_V1)}, booked.payload FROM booked RETURNING id)`);
    if (first.answer) {
      const { scope, status } = first.answer;
      ctes.push(`answered AS (
         UPDATE idempotency_key SET response_status = ${param(status)}, response_body = booked.payload->'transaction'
         FROM booked WHERE group_id = ${param(scope.groupId)} AND device_id = ${param(scope.deviceId)} AND idempotency_key = ${param(scope.idempotencyKey)} RETURNING 1)`);
    }
    const { rows } = await queryNamed<{ batch_no: string | null }>(
      manager,
      `WITH ${ctes.join(',\n')}
       SELECT updated.batch_no FROM updated, booked, event${first.answer ? ', (SELECT count(*) FROM answered) AS answered' : ''}`,
      params,
    );
    if (rows.length === 0) return undefined;
    const batchNo = rows[0].batch_no;
    const { transaction } = first.event.payload;
    const actions = first.batchOf?.actionBooks ? transaction.actions.map((action, index) => (index === 0 ? { ...action, batchNo } : action)) : transaction.actions;
    return { ...first.event.payload, transaction: { ...transaction, batchNo, actions } };
  }

  async insert(transaction: Transaction): Promise<void> {
    await this.uow.manager.getRepository(PaymentTransactionEntity).insert(transaction as QueryDeepPartialEntity<PaymentTransactionEntity>);
  }

  async insertAction(action: TransactionAction): Promise<void> {
    await this.uow.manager.getRepository(TransactionActionEntity).insert(action as QueryDeepPartialEntity<TransactionActionEntity>);
  }

  /** By id, whatever the owner (the service applies the tenancy rule). */
  findById(id: string): Promise<Transaction | null> {
    return this.uow.manager.getRepository(PaymentTransactionEntity).findOneBy({ id });
  }

  /** The transaction that used a card read (its digest), whatever the owner (the caller applies the tenancy rule). */
  findByCardRead(cardRead: string): Promise<Pick<Transaction, 'id' | 'groupId'> | null> {
    return this.uow.manager.getRepository(PaymentTransactionEntity).findOne({ select: { id: true, groupId: true }, where: { cardRead } });
  }

  /** By id, locked (`FOR UPDATE`) until the unit of work ends. */
  lockById(id: string): Promise<Transaction | null> {
    return this.uow.manager.getRepository(PaymentTransactionEntity).createQueryBuilder('t').where('t.id = :id', { id }).setLock('pessimistic_write').getOne();
  }

  /** The group's newest transaction with this posReference. */
  findNewestByPosReference(groupId: string, posReference: string): Promise<Transaction | null> {
    return this.uow.manager
      .getRepository(PaymentTransactionEntity)
      .createQueryBuilder('t')
      .where('t.groupId = :groupId AND t.posReference = :posReference', { groupId, posReference })
      .orderBy('t.createdAt', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .limit(1)
      .getOne();
  }

  /** An action by its id (also the requestId its host request went with), whatever the owner. */
  findActionById(id: string): Promise<TransactionAction | null> {
    return this.uow.manager.getRepository(TransactionActionEntity).findOneBy({ id });
  }

  /** The actions of a transaction, oldest first. */
  actionsOf(tranId: string): Promise<TransactionAction[]> {
    return this.uow.manager.getRepository(TransactionActionEntity).find({ where: { tranId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async update(id: string, changes: TransactionChanges): Promise<void> {
    await this.uow.manager.getRepository(PaymentTransactionEntity).update({ id }, changes as QueryDeepPartialEntity<PaymentTransactionEntity>);
  }

  async updateAction(id: string, changes: ActionChanges): Promise<void> {
    await this.uow.manager.getRepository(TransactionActionEntity).update({ id }, changes as QueryDeepPartialEntity<TransactionActionEntity>);
  }

  /**
   * Takes up to `limit` pending actions due at `now` and moves each one's next check to
   * `now + min(baseMs × 2^attempts, maxMs)` in the same statement (`FOR UPDATE SKIP LOCKED`), so
   * replicas never take the same action at once and one that dies with it lets it come due again.
   */
  async leaseDueActions(now: Date, limit: number, backoff: { baseMs: number; maxMs: number }): Promise<LeasedAction[]> {
    // UPDATE … RETURNING comes back from TypeORM's postgres driver as [rows, affected].
    const [rows] = (await this.uow.manager.query(
      `UPDATE transaction_action AS a
         SET next_check_at = $2::timestamptz + LEAST($3::float8 * power(2, a.check_attempts), $4::float8) * interval '1 millisecond',
             check_attempts = a.check_attempts + 1
       WHERE a.id IN (SELECT id FROM transaction_action WHERE action_status = 'PENDING' AND next_check_at <= $2 ORDER BY next_check_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING a.id, a.tran_id, a.action_type, a.host_request, a.created_at, a.check_attempts - 1 AS check_attempts`,
      [limit, now, backoff.baseMs, backoff.maxMs],
    )) as [
      Array<{ id: string; tran_id: string; action_type: GatewayActionType; host_request: KeptActionRequest | null; created_at: Date; check_attempts: number }>,
      number,
    ];
    return rows.map((row) => ({
      actionId: row.id,
      tranId: row.tran_id,
      actionType: row.action_type,
      hostRequest: row.host_request,
      createdAt: new Date(row.created_at),
      attempts: row.check_attempts,
    }));
  }

  /**
   * Up to `limit` authorisations approved at or before `cutoff` and never captured, with no action
   * in flight, locked (`FOR UPDATE SKIP LOCKED`: replicas closing at once take different ones, and
   * one a follow-up holds is left for the next pass).
   */
  lockAuthorizationsToClose(cutoff: Date, limit: number): Promise<Transaction[]> {
    return this.uow.manager
      .getRepository(PaymentTransactionEntity)
      .createQueryBuilder('t')
      .where("t.tranType = 'AUTH' AND t.tranStatus = 'APPROVED' AND t.capturedMinor = 0 AND t.createdAt <= :cutoff", { cutoff })
      .andWhere(
        "EXISTS (SELECT 1 FROM transaction_action n WHERE n.tran_id = t.id AND n.action_type = 'NEW' AND n.action_status = 'SUCCESS' AND COALESCE(n.updated_at, n.created_at) <= :cutoff)",
      )
      .andWhere("NOT EXISTS (SELECT 1 FROM transaction_action p WHERE p.tran_id = t.id AND p.action_status = 'PENDING')")
      .orderBy('t.createdAt', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  }

  /** Writes the change's event to the outbox, in the unit of work's transaction (which must be open). */
  async enqueueUpdated(event: GatewayTransactionUpdatedV1): Promise<void> {
    await this.outbox.enqueue(this.uow.manager, GATEWAY_TRANSACTION_UPDATED_V1, event);
  }
}
