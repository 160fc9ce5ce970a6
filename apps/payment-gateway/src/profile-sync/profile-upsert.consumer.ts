import { EVENT_STREAM, GATEWAY_PROFILE_UPSERT_V1 } from '@app/contracts';
import { ConsumerDefinition, DEAD_LETTER_STREAM, deadLetterSubjectOf } from '@app/messaging/consumer';

export { DEAD_LETTER_STREAM };

/** Nest injection token of the profile-upsert {@link ConsumerDefinition} (tests override it). */
export const PROFILE_UPSERT_CONSUMER = Symbol('PROFILE_UPSERT_CONSUMER');

/** Dead letters of the upsert consumer. */
export const PROFILE_UPSERT_DEAD_LETTER_SUBJECT = deadLetterSubjectOf(GATEWAY_PROFILE_UPSERT_V1);

/** merchant-management's profile upserts (docs/architecture.md, flows 2 and 3), consumed durably by every gateway replica. */
export const profileUpsertConsumer: ConsumerDefinition = {
  name: 'payment-gateway-profile-upsert',
  subject: GATEWAY_PROFILE_UPSERT_V1,
  deadLetterSubject: PROFILE_UPSERT_DEAD_LETTER_SUBJECT,
  maxDeliveries: 5,
  // A re-push of a merchant with many devices arrives as a burst: applied set-based, 64 at a time.
  batchSize: 64,
  // Batches in flight: below the context's pool of 10 connections, leaving room for the HTTP API.
  jetStream: { stream: EVENT_STREAM, deadLetterStream: DEAD_LETTER_STREAM, concurrency: 4 },
};
