import { RetentionModule } from '@app/database';
import { DeviceAdminClient, GatewayClient, Inbox, inboxPruneRule, OutboxModule, outboxPruneRule } from '@app/messaging';
import { Module } from '@nestjs/common';
import { TRANSACTIONS_CONNECTION } from './database';
import { TransactionsDatabaseModule } from './database.module';
import { OrderActionController } from './order-action/order-action.controller';
import { OrderActionService } from './order-action/order-action.service';
import { OrderUpdatesController } from './order-sync/order-updates.controller';
import { ORDER_UPDATES_CONSUMER, orderUpdatesConsumer } from './order-sync/order-updates.consumer';
import { InboxRepository } from './order-update/persistence/inbox.repository';
import { OrderUpdateService } from './order-update/order-update.service';
import { OrderController } from './order/order.controller';
import { OrderService } from './order/order.service';
import { OrderRepository } from './order/persistence/order.repository';
import { SettlementBatchRepository } from './settlement/persistence/settlement-batch.repository';
import { SettlementController } from './settlement/settlement.controller';
import { SettlementService } from './settlement/settlement.service';
import { DEFAULT_TRANSACTIONS_TIMEOUTS, TRANSACTIONS_TIMEOUTS } from './shared/timeouts';

/**
 * The transactions bounded context: the order read model of the gateway's transactions and the
 * settlement batches on its own schema, the legacy `/api/v2/order*` and `/api/v2/settlement*`
 * routes, the durable consumer of `gateway.transaction.updated.v1` and the outbox of
 * `txn.batch.settled.v1`. Needs `platformModules`
 * (database URL, auth, mail, messaging) from the application that hosts it.
 */
@Module({
  imports: [
    TransactionsDatabaseModule,
    OutboxModule.forContext({ connection: TRANSACTIONS_CONNECTION }),
    RetentionModule.forContext({
      connection: TRANSACTIONS_CONNECTION,
      rules: (retention) => [inboxPruneRule(retention.messagesMs), outboxPruneRule(retention.messagesMs)],
    }),
  ],
  controllers: [OrderController, OrderActionController, SettlementController, OrderUpdatesController],
  providers: [
    OrderRepository,
    OrderService,
    SettlementBatchRepository,
    SettlementService,
    Inbox,
    InboxRepository,
    OrderUpdateService,
    OrderActionService,
    GatewayClient,
    DeviceAdminClient,
    { provide: ORDER_UPDATES_CONSUMER, useValue: orderUpdatesConsumer },
    { provide: TRANSACTIONS_TIMEOUTS, useValue: DEFAULT_TRANSACTIONS_TIMEOUTS },
  ],
})
export class TransactionsModule {}
