import { ContextDatabaseDefinition } from '@app/database';
import { createOutboxMigration, OutboxMessage } from '@app/messaging';
import { createInboxMigration, InboxMessage } from '@app/messaging/consumer';
import { Orders1763900010000 } from './migrations/1763900010000-orders';
import { SettlementBatches1763900011000 } from './migrations/1763900011000-settlement-batches';
import { GatewayBatches1763900012000 } from './migrations/1763900012000-gateway-batches';
import { OrderTimeZone1763900013300 } from './migrations/1763900013300-order-time-zone';
import { BatchPerAcquirer1795830000000 } from './migrations/1795830000000-batch-per-acquirer';
import { OrderActionReversal1795794505205 } from './migrations/1795794505205-order-action-reversal';
import { OrderActionEntity } from './order/persistence/order-action.entity';
import { OrderEntity } from './order/persistence/order.entity';
import { SettlementBatchEntity } from './settlement/persistence/settlement-batch.entity';
import { TRANSACTIONS_CONNECTION, TRANSACTIONS_SCHEMA } from './shared/inject';

export { TRANSACTIONS_CONNECTION, TRANSACTIONS_SCHEMA };

/** transactions' schema: its entities and its migrations, nothing else. */
export const transactionsDatabase: ContextDatabaseDefinition = {
  name: TRANSACTIONS_CONNECTION,
  schema: TRANSACTIONS_SCHEMA,
  entities: [OrderEntity, OrderActionEntity, SettlementBatchEntity, InboxMessage, OutboxMessage],
  migrations: [
    createInboxMigration(TRANSACTIONS_SCHEMA, 1763900009000),
    Orders1763900010000,
    SettlementBatches1763900011000,
    GatewayBatches1763900012000,
    // Settled batches leave through it (txn.batch.settled.v1).
    createOutboxMigration(TRANSACTIONS_SCHEMA, 1763900013000),
    OrderTimeZone1763900013300,
    OrderActionReversal1795794505205,
    BatchPerAcquirer1795830000000,
  ],
};
