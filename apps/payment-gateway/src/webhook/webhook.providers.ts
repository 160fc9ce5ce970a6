import { PruneRule } from '@app/database';
import { Provider, Type } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { DeliverySignal } from './delivery/delivery-signal';
import { WEBHOOK_RESOLVER, WebhookDeliveryWorker } from './delivery/webhook-delivery.worker';
import { WebhookSender } from './delivery/webhook-sender';
import { Resolver } from './destination/destination-guard';
import { WebhookDeliveryRepository } from './persistence/webhook-delivery.repository';
import { WebhookSecretRepository } from './persistence/webhook-secret.repository';
import { TRANSACTION_WEBHOOK_CONSUMER, transactionWebhookConsumer } from './transaction-webhook.consumer';
import { TransactionWebhookController } from './transaction-webhook.controller';
import { WEBHOOK_CONFIG, WebhookConfig } from './webhook.config';
import { WebhookController } from './webhook.controller';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookSecretService } from './webhook-secret.service';

/** Every address of a name, in the resolver's order (the system's resolver, as any HTTP client would use). */
export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/** The webhook feature's HTTP and event controllers. */
export const WEBHOOK_CONTROLLERS: Type[] = [WebhookController, TransactionWebhookController];

/** The webhook feature's providers; the context gives it the unit of work, the clock, ids and the field cipher. */
export function webhookProviders(config: WebhookConfig): Provider[] {
  return [
    { provide: WEBHOOK_CONFIG, useValue: config },
    { provide: WEBHOOK_RESOLVER, useValue: systemResolver },
    { provide: TRANSACTION_WEBHOOK_CONSUMER, useValue: transactionWebhookConsumer },
    WebhookSecretRepository,
    WebhookDeliveryRepository,
    WebhookSecretService,
    WebhookDeliveryService,
    DeliverySignal,
    WebhookSender,
    WebhookDeliveryWorker,
  ];
}

/** Finished deliveries go WEBHOOK_RETENTION_DAYS after they finished; pending ones never. */
export function webhookDeliveryPruneRule(retentionMs: number): PruneRule {
  return { table: 'webhook_delivery', condition: 'finished_at < $1', cutoff: () => new Date(Date.now() - retentionMs) };
}
