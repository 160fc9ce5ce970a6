import { EVENT_STREAM, HOST_REVERSAL_UPDATED_V1 } from '@app/contracts';
import { ConsumerDefinition, DEAD_LETTER_STREAM, deadLetterSubjectOf } from '@app/messaging/consumer';

/** Nest injection token of the reversal-state {@link ConsumerDefinition}. */
export const REVERSAL_STATE_CONSUMER = Symbol('REVERSAL_STATE_CONSUMER');

/** The host connector's reversal states, consumed durably by every gateway replica (one durable consumer shared). */
export const reversalStateConsumer: ConsumerDefinition = {
  name: 'payment-gateway-reversal-state',
  subject: HOST_REVERSAL_UPDATED_V1,
  deadLetterSubject: deadLetterSubjectOf(HOST_REVERSAL_UPDATED_V1),
  maxDeliveries: 5,
  jetStream: { stream: EVENT_STREAM, deadLetterStream: DEAD_LETTER_STREAM },
};
