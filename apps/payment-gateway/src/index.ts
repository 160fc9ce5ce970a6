// payment-gateway's public face: what other apps, scripts, benchmarks and system tests may use
// (eslint.config.js refuses deeper imports from outside the app).
export { PaymentGatewayAppModule } from './app.module';
export { paymentGatewayDatabase } from './database';
export { PaymentGatewayModule } from './payment-gateway.module';
export { defaultPaymentGatewayOptions, paymentGatewayOptionsFrom, paymentGatewayVariables } from './payment-gateway.options';
export type { PaymentGatewayOptions } from './payment-gateway.options';
export { PROFILE_UPSERT_CONSUMER, profileUpsertConsumer } from './profile-sync/profile-upsert.consumer';
export { TRANSACTION_WEBHOOK_CONSUMER, transactionWebhookConsumer } from './webhook/transaction-webhook.consumer';
export { REVERSAL_STATE_CONSUMER, reversalStateConsumer } from './transaction/reversal/reversal-state.consumer';
