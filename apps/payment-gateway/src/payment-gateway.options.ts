import { envSchema, ValuesOf } from '@app/common';
import { TransactionSettings } from './transaction/transaction-settings';
import { WebhookConfig, webhookConfigFrom, webhookVariables } from './webhook/webhook.config';

/** What the payment-gateway context is configured with, besides the platform's options. */
export interface PaymentGatewayOptions {
  /** How transactions reach their callbackUrl (WEBHOOK_*). */
  webhooks: WebhookConfig;
  /** Timing of the sale path (host timeout, reply margin, re-ask); the defaults for what is left out. */
  transactions?: Partial<TransactionSettings>;
}

/** The context's own variables, read by its app and by standalone. */
export const paymentGatewayVariables = { ...webhookVariables };

/** The context's options from its variables; `standalone` outside production may deliver webhooks to loopback receivers. */
export function paymentGatewayOptionsFrom(
  values: ValuesOf<typeof paymentGatewayVariables>,
  options: { standalone: boolean; production: boolean },
): PaymentGatewayOptions {
  return { webhooks: webhookConfigFrom(values, options) };
}

/** The defaults of a distributed gateway (nothing but public webhook destinations): tests and tools that set nothing. */
export function defaultPaymentGatewayOptions(): PaymentGatewayOptions {
  return paymentGatewayOptionsFrom(envSchema(paymentGatewayVariables).read({}), { standalone: false, production: false });
}
