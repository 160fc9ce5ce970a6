import { EVENT_STREAM, GATEWAY_PROFILE_OUTCOME_V1 } from '@app/contracts';
import { ConsumerDefinition, DEAD_LETTER_STREAM, deadLetterSubjectOf } from '@app/messaging/consumer';

/** Nest injection token of the profile-outcome {@link ConsumerDefinition} (tests override it). */
export const PROFILE_OUTCOME_CONSUMER = Symbol('PROFILE_OUTCOME_CONSUMER');

/** The gateway's outcomes of profile upserts (docs/decisions.md, "Profile sync state"), consumed durably by every merchant-management replica. */
export const profileOutcomeConsumer: ConsumerDefinition = {
  name: 'merchant-management-profile-outcome',
  subject: GATEWAY_PROFILE_OUTCOME_V1,
  deadLetterSubject: deadLetterSubjectOf(GATEWAY_PROFILE_OUTCOME_V1),
  maxDeliveries: 5,
  // Outcomes at once per replica: below the context's pool, leaving room for the HTTP API.
  jetStream: { stream: EVENT_STREAM, deadLetterStream: DEAD_LETTER_STREAM, concurrency: 4 },
};
