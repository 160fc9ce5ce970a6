import { EVENT_STREAM, GATEWAY_TRANSACTION_UPDATED_V1 } from '@app/contracts';
import { ConsumerDefinition, DEAD_LETTER_STREAM, deadLetterSubjectOf } from '@app/messaging/consumer';

/** Nest injection token of the order-updates {@link ConsumerDefinition} (tests override it). */
export const ORDER_UPDATES_CONSUMER = Symbol('ORDER_UPDATES_CONSUMER');

/**
 * The gateway's transaction changes (docs/architecture.md, flow 5), consumed durably by every
 * transactions replica under a durable name of its own (the gateway's webhook sender consumes
 * the same subject under another).
 */
export const orderUpdatesConsumer: ConsumerDefinition = {
  name: 'transactions-orders',
  subject: GATEWAY_TRANSACTION_UPDATED_V1,
  deadLetterSubject: deadLetterSubjectOf(GATEWAY_TRANSACTION_UPDATED_V1),
  maxDeliveries: 5,
  // Under load the events arrive faster than one transaction each can take them: what has arrived, up to 64, is applied set-based in one.
  batchSize: 64,
  // Batches at once per replica: below the context's pool of 10 connections, leaving room for the HTTP API.
  jetStream: { stream: EVENT_STREAM, deadLetterStream: DEAD_LETTER_STREAM, concurrency: 4 },
};
