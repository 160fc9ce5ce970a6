import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { TransactionActionEntity } from '../../persistence/transaction-action.entity';
import { PaymentTransactionEntity } from '../../persistence/transaction.entity';
import type { TerminalKey, Transaction, TransactionAction } from '../../transaction';
import type { BatchSettlement } from '../batch-settlement';
import { BatchSettlementEntity } from './batch-settlement.entity';

export type BatchSettlementChanges = Partial<Omit<BatchSettlement, 'id' | 'groupId' | 'createdAt'>>;

/** A terminal's transactions (the key's columns on payment_transaction). */
const TERMINAL_OF =
  't.groupId = :groupId AND t.hostMessageFormat = :hostMessageFormat AND t.acquirerKey = :acquirerKey AND t.primaryMid = :mid AND t.primaryTid = :tid AND t.currency = :currency';

/** A terminal's transactions of one batch, as settlement reads them. */
const BATCH_OF = `${TERMINAL_OF} AND t.batchNo = :batchNo`;

/**
 * Settled batches, and what settlement reads of a terminal's batch: its transactions (locked),
 * the refunds booked in it, the voids still in flight on it. In the unit of work's transaction.
 */
@Injectable()
export class BatchSettlementRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  async insert(settlement: BatchSettlement): Promise<void> {
    await this.uow.manager.getRepository(BatchSettlementEntity).insert(settlement as QueryDeepPartialEntity<BatchSettlementEntity>);
  }

  async update(id: string, changes: BatchSettlementChanges): Promise<void> {
    await this.uow.manager.getRepository(BatchSettlementEntity).update({ id }, changes as QueryDeepPartialEntity<BatchSettlementEntity>);
  }

  /** A terminal's closed batch, locked until the unit of work ends. */
  lockByBatch(key: TerminalKey, batchNo: string): Promise<BatchSettlement | null> {
    return this.uow.manager
      .getRepository(BatchSettlementEntity)
      .createQueryBuilder('s')
      .where(
        's.groupId = :groupId AND s.hostMessageFormat = :hostMessageFormat AND s.acquirerKey = :acquirerKey AND s.mid = :mid AND s.tid = :tid AND s.currency = :currency AND s.batchNo = :batchNo',
        {
          ...key,
          batchNo,
        },
      )
      .setLock('pessimistic_write')
      .getOne();
  }

  lockById(id: string): Promise<BatchSettlement | null> {
    return this.uow.manager.getRepository(BatchSettlementEntity).createQueryBuilder('s').where('s.id = :id', { id }).setLock('pessimistic_write').getOne();
  }

  /**
   * The newest transaction a terminal (an acceptance's MID and TID, in a currency) took at
   * `acquirerKey`, whatever its PBO: the caller applies the tenancy rule. It names the terminal's
   * host format and acquirer, and its first action keeps the target and merchant the host knows
   * the terminal by. Without `acquirerKey` (a batch the caller recorded before batches were per
   * acquirer), the acceptance's newest in batch `batchNo`, else its newest: the acquirer whose
   * batch that number is.
   */
  newestOfTerminal(terminal: { acceptanceId: string; mid: string; tid: string; currency: string; batchNo: string; acquirerKey?: string }): Promise<Transaction | null> {
    const { acceptanceId, mid, tid, currency, batchNo, acquirerKey } = terminal;
    const query = this.uow.manager
      .getRepository(PaymentTransactionEntity)
      .createQueryBuilder('t')
      .where('t.acceptanceId = :acceptanceId AND t.primaryMid = :mid AND t.primaryTid = :tid AND t.currency = :currency', { acceptanceId, mid, tid, currency });
    if (acquirerKey) query.andWhere('t.acquirerKey = :acquirerKey', { acquirerKey });
    else query.orderBy('CASE WHEN t.batchNo = :batchNo THEN 0 ELSE 1 END', 'ASC').setParameter('batchNo', batchNo);
    return query.addOrderBy('t.createdAt', 'DESC').addOrderBy('t.id', 'DESC').limit(1).getOne();
  }

  /** The batch's transactions, locked (`FOR UPDATE`, in id order so two writers of many rows never deadlock). */
  lockBatchTransactions(key: TerminalKey, batchNo: string): Promise<Transaction[]> {
    return this.uow.manager
      .getRepository(PaymentTransactionEntity)
      .createQueryBuilder('t')
      .where(BATCH_OF, { ...key, batchNo })
      .orderBy('t.id', 'ASC')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** The ids of the batch's transactions. */
  async tranIdsOfBatch(key: TerminalKey, batchNo: string): Promise<string[]> {
    const rows = await this.uow.manager
      .getRepository(PaymentTransactionEntity)
      .createQueryBuilder('t')
      .select('t.id', 'id')
      .where(BATCH_OF, { ...key, batchNo })
      .orderBy('t.id', 'ASC')
      .getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  /**
   * How many host requests of the terminal are in flight: its PENDING actions (sales, follow-ups),
   * whichever batch their transaction is in. Settlement waits for none before it takes the totals.
   */
  async inFlightOn(key: TerminalKey): Promise<number> {
    return this.uow.manager
      .getRepository(TransactionActionEntity)
      .createQueryBuilder('a')
      .innerJoin(PaymentTransactionEntity, 't', 't.id = a.tranId')
      .where("a.actionStatus = 'PENDING'")
      .andWhere(TERMINAL_OF, key)
      .getCount();
  }

  /** The refunds the host approved into the terminal's batch (of any of its transactions, whichever batch those are in). */
  refundsBookedIn(key: TerminalKey, batchNo: string): Promise<TransactionAction[]> {
    return this.uow.manager
      .getRepository(TransactionActionEntity)
      .createQueryBuilder('a')
      .innerJoin(PaymentTransactionEntity, 't', 't.id = a.tranId')
      .where("a.actionType = 'REFUND' AND a.actionStatus = 'SUCCESS' AND a.batchNo = :batchNo", { batchNo })
      .andWhere(TERMINAL_OF, key)
      .orderBy('a.createdAt', 'ASC')
      .addOrderBy('a.id', 'ASC')
      .getMany();
  }

  /** The actions of many transactions, each one's oldest first. */
  async actionsOfMany(tranIds: readonly string[]): Promise<Map<string, TransactionAction[]>> {
    const byTransaction = new Map<string, TransactionAction[]>(tranIds.map((id) => [id, []]));
    if (tranIds.length === 0) return byTransaction;
    const actions = await this.uow.manager
      .getRepository(TransactionActionEntity)
      .find({ where: { tranId: In([...tranIds]) }, order: { createdAt: 'ASC', id: 'ASC' } });
    for (const action of actions) byTransaction.get(action.tranId)?.push(action);
    return byTransaction;
  }
}
