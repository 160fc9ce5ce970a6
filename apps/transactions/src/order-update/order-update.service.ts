import { DomainError, IdGenerator } from '@app/common';
import { UnitOfWork } from '@app/database';
import { InboxEntry } from '@app/messaging/consumer';
import { Injectable } from '@nestjs/common';
import { orderFromTransaction, TransactionVersion } from '../order/order-from-transaction';
import { OrderRepository } from '../order/persistence/order.repository';
import { SettlementBatchRepository } from '../settlement/persistence/settlement-batch.repository';
import { newBatchId } from '../settlement/batch-id';
import { InboxRepository } from './persistence/inbox.repository';

/** What became of one transaction version: taken, older than the order's, or a message processed before. */
export type OrderUpdateOutcome = 'applied' | 'stale' | 'duplicate';

/**
 * Applies a gateway transaction version to the read model (docs/architecture.md, flow 5): the
 * order takes it when its version is higher than the stored one, with its actions, and every
 * terminal batch it or one of its actions is booked in gets its settlement batch. The consumer of
 * `gateway.transaction.updated.v1` and the replies to void, refund and capture both come here, in
 * whatever order they arrive: the highest version wins, a repeat changes nothing.
 */
@Injectable()
export class OrderUpdateService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly orders: OrderRepository,
    private readonly batches: SettlementBatchRepository,
    private readonly inbox: InboxRepository,
    private readonly ids: IdGenerator,
  ) {}

  /**
   * One transaction: the inbox entry (when the version came as a message), the order, its
   * actions and its batch. Throws a DomainError, never worth retrying, when the version cannot
   * be read as an order or names another PBO's transaction.
   */
  async apply(update: TransactionVersion, receipt?: InboxEntry): Promise<OrderUpdateOutcome> {
    const { order, actions } = orderFromTransaction(update);
    return await this.uow.run(async () => {
      if (receipt && !(await this.inbox.record(receipt))) return 'duplicate';
      const written = await this.orders.upsert(order);
      if (written.outcome === 'other-group')
        throw DomainError.ownerInvalid(`transaction ${order.tranId} belongs to group ${written.groupId}, not ${order.groupId}`);
      if (written.outcome === 'stale') return 'stale';
      await this.orders.upsertActions(actions);
      // The transaction's batch and every batch one of its actions booked in (a refund after the sale's batch closed).
      const batchNos = new Set([order.batchNo, ...actions.map((action) => action.batchNo)].filter((batchNo): batchNo is string => batchNo !== null));
      for (const batchNo of [...batchNos].sort()) {
        await this.batches.ensure({
          uuid: this.ids.uuid(),
          batchId: newBatchId(this.ids),
          groupId: order.groupId,
          merchantId: order.merchantId,
          merchantName: order.merchantName,
          acceptanceId: order.acceptanceId,
          profileName: update.transaction.acceptanceName ?? null,
          hostMessageFormat: order.hostMessageFormat,
          primaryMid: order.primaryMid,
          primaryTid: order.primaryTid,
          currency: order.currency,
          batchNo,
          openedAt: batchNo === order.batchNo ? order.createdAt : (actions.find((action) => action.batchNo === batchNo)?.createdAt ?? order.createdAt),
        });
      }
      return 'applied';
    });
  }
}
