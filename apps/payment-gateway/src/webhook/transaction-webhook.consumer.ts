import { EVENT_STREAM, GATEWAY_TRANSACTION_UPDATED_V1 } from '@app/contracts';
import { ConsumerDefinition } from '@app/messaging/consumer';
import { DEAD_LETTER_STREAM } from '../profile-sync/profile-upsert.consumer';

/** Nest injection token of the webhook intake's {@link ConsumerDefinition} (tests override it). */
export const TRANSACTION_WEBHOOK_CONSUMER = Symbol('TRANSACTION_WEBHOOK_CONSUMER');

/**
 * The gateway's own transaction events, consumed durably a second time (beside the transactions
 * context's consumer) to queue webhook deliveries. Its own durable name, so its progress and
 * redeliveries are its own; queuing is one short transaction, the sending is the worker's.
 */
export const transactionWebhookConsumer: ConsumerDefinition = {
  name: 'payment-gateway-webhooks',
  subject: GATEWAY_TRANSACTION_UPDATED_V1,
  deadLetterSubject: `dlq.${GATEWAY_TRANSACTION_UPDATED_V1}.webhooks`,
  maxDeliveries: 5,
  jetStream: { stream: EVENT_STREAM, deadLetterStream: DEAD_LETTER_STREAM, concurrency: 4 },
};
