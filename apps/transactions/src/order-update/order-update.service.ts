import { DomainError, IdGenerator } from '@app/common';
import { UnitOfWork } from '@app/database';
import { InboxEntry } from '@app/messaging/consumer';
import { Injectable } from '@nestjs/common';
import { orderFromTransaction, OrderVersion, TransactionVersion } from '../order/order-from-transaction';
import { OrderRepository } from '../order/persistence/order.repository';
import { SettlementBatchRepository } from '../settlement/persistence/settlement-batch.repository';
import { newBatchId } from '../settlement/batch-id';
import { InboxRepository } from './persistence/inbox.repository';

/** What became of one transaction version: taken, older than the order's, or a message processed before. */
export type OrderUpdateOutcome = 'applied' | 'stale' | 'duplicate';

/** One version of a batch and the message that carried it. */
export interface ReceivedOrderUpdate {
  update: TransactionVersion;
  receipt: InboxEntry;
}

/**
 * A batch that the set-based path does not decide (a version naming another PBO's transaction):
 * nothing of it is written, and the consumer applies its messages one by one, which refuses that
 * one alone.
 */
export class OrderBatchNotApplicable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'OrderBatchNotApplicable';
  }
}

/** The version with the acquirer its order has as written: the batches it books in are that acquirer's, also when the version named none. */
function withAcquirer(version: OrderVersion, acquirerKey: string): OrderVersion {
  return version.order.acquirerKey === acquirerKey ? version : { ...version, order: { ...version.order, acquirerKey } };
}

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
    const version = orderFromTransaction(update);
    return await this.uow.run(async () => {
      if (receipt && !(await this.inbox.record(receipt))) return 'duplicate';
      const written = await this.orders.upsert(version.order);
      if (written.outcome === 'other-group')
        throw DomainError.ownerInvalid(`transaction ${version.order.tranId} belongs to group ${written.groupId}, not ${version.order.groupId}`);
      if (written.outcome === 'stale') return 'stale';
      await this.writeApplied([withAcquirer(version, written.acquirerKey)]);
      return 'applied';
    });
  }

  /**
   * Many versions in one transaction with a fixed number of statements (inbox, orders, actions,
   * one for the settlement batches named), whatever their number: the rules of {@link apply}, set-based.
   * A message id already processed, or repeated within the batch, is a duplicate; of a
   * transaction's versions in the batch the highest is written (when it is above the stored one)
   * and the others are stale, as they would be had it arrived first. Throws, writing nothing, when
   * one version cannot be read as an order (DomainError) or names another PBO's transaction
   * ({@link OrderBatchNotApplicable}): the caller then applies each message alone.
   */
  async applyBatch(items: readonly ReceivedOrderUpdate[]): Promise<OrderUpdateOutcome[]> {
    const versions = items.map((item) => orderFromTransaction(item.update));
    return await this.uow.run(async () => {
      const outcomes: OrderUpdateOutcome[] = items.map(() => 'duplicate');
      // In message id order, as the orders in tranId order: concurrent batches sharing rows take their locks in one order.
      const fresh = await this.inbox.recordMany(items.map((item) => item.receipt).sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0)));
      const newest = new Map<string, number>();
      items.forEach((item, index) => {
        // A message id is fresh once: a copy of it later in the same batch is a duplicate.
        if (!fresh.delete(item.receipt.messageId)) return;
        outcomes[index] = 'stale';
        const { order } = versions[index];
        const seen = newest.get(order.tranId);
        if (seen !== undefined && versions[seen].order.groupId !== order.groupId)
          throw new OrderBatchNotApplicable(`transaction ${order.tranId} is named by two groups in one batch`);
        if (seen === undefined || versions[seen].order.version < order.version) newest.set(order.tranId, index);
      });
      const candidates = [...newest.values()];
      const written = await this.orders.upsertMany(candidates.map((index) => versions[index].order));
      if (written.otherGroup.size > 0) throw new OrderBatchNotApplicable(`transaction ${[...written.otherGroup.keys()][0]} belongs to another group`);
      const applied = candidates.filter((index) => written.applied.has(versions[index].order.tranId));
      for (const index of applied) outcomes[index] = 'applied';
      await this.writeApplied(applied.map((index) => withAcquirer(versions[index], written.applied.get(versions[index].order.tranId)!)));
      return outcomes;
    });
  }

  /**
   * The actions of orders just written, and the settlement batch of each terminal batch they name,
   * once per batch: the transaction's own and every batch one of its actions booked in (a refund
   * after the sale's batch closed books in the next one). Keyed as the gateway keys its terminal
   * batches: PBO, host format, acquirer, MID, TID, currency, batch number.
   */
  private async writeApplied(versions: readonly OrderVersion[]): Promise<void> {
    await this.orders.upsertActions(versions.flatMap((version) => version.actions));
    const batches = new Map<string, { version: OrderVersion; batchNo: string; openedAt: Date }>();
    for (const version of versions) {
      const { order, actions } = version;
      const booked = [
        ...(order.batchNo === null ? [] : [{ batchNo: order.batchNo, openedAt: order.createdAt }]),
        ...actions.flatMap((action) => (action.batchNo === null ? [] : [{ batchNo: action.batchNo, openedAt: action.createdAt }])),
      ];
      for (const { batchNo, openedAt } of booked) {
        const key = JSON.stringify([order.groupId, order.hostMessageFormat, order.acquirerKey, order.primaryMid, order.primaryTid, order.currency, batchNo]);
        if (!batches.has(key)) batches.set(key, { version, batchNo, openedAt });
      }
    }
    // One statement for every batch named, in key order.
    await this.batches.ensureAll(
      [...batches.keys()].sort().map((key) => {
        const { version, batchNo, openedAt } = batches.get(key)!;
        const { order } = version;
        return {
          uuid: this.ids.uuid(),
          batchId: newBatchId(this.ids),
          groupId: order.groupId,
          merchantId: order.merchantId,
          merchantName: order.merchantName,
          acceptanceId: order.acceptanceId,
          profileName: version.profileName,
          hostMessageFormat: order.hostMessageFormat,
          acquirerKey: order.acquirerKey,
          primaryMid: order.primaryMid,
          primaryTid: order.primaryTid,
          currency: order.currency,
          batchNo,
          openedAt,
        };
      }),
    );
  }
}
