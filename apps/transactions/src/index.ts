// transactions' public face: what other apps, scripts, benchmarks and system tests may use
// (eslint.config.js refuses deeper imports from outside the app).
export { TransactionsAppModule } from './app.module';
export { transactionsDatabase } from './database';
export { TransactionsModule } from './transactions.module';
export { ORDER_UPDATES_CONSUMER, orderUpdatesConsumer } from './order-sync/order-updates.consumer';
export { DEFAULT_TRANSACTIONS_TIMEOUTS, TRANSACTIONS_TIMEOUTS } from './shared/timeouts';
export type { TransactionsTimeouts } from './shared/timeouts';
