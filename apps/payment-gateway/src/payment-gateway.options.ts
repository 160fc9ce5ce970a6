import { envSchema, ValuesOf } from '@app/common';
import { TransactionSettings, transactionSettingsFrom, transactionVariables } from './transaction/transaction-settings';
import { WebhookConfig, webhookConfigFrom, webhookVariables } from './webhook/webhook.config';

/** What the payment-gateway context is configured with, besides the platform's options. */
export interface PaymentGatewayOptions {
  /** How transactions reach their callbackUrl (WEBHOOK_*). */
  webhooks: WebhookConfig;
  /** Timing of the sale path, the resolver, the 7-day close and settlement (TRANSACTION_*); the defaults for what is left out (tests). */
  transactions?: Partial<TransactionSettings>;
}

/** The context's own variables, read by its app and by standalone. */
export const paymentGatewayVariables = { ...webhookVariables, ...transactionVariables };

/** The context's options from its variables; `standalone` outside production may deliver webhooks to loopback receivers. */
export function paymentGatewayOptionsFrom(
  values: ValuesOf<typeof paymentGatewayVariables>,
  options: { standalone: boolean; production: boolean },
): PaymentGatewayOptions {
  return { webhooks: webhookConfigFrom(values, options), transactions: transactionSettingsFrom(values) };
}

/** The defaults of a distributed gateway (nothing but public webhook destinations): tests and tools that set nothing. */
export function defaultPaymentGatewayOptions(): PaymentGatewayOptions {
  return paymentGatewayOptionsFrom(envSchema(paymentGatewayVariables).read({}), { standalone: false, production: false });
}
