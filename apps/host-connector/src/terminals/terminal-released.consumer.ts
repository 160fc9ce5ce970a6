import { EVENT_STREAM, GATEWAY_TERMINAL_RELEASED_V1 } from '@app/contracts';
import { ConsumerDefinition, DEAD_LETTER_STREAM, deadLetterSubjectOf } from '@app/messaging/consumer';

/** Nest injection token of the terminal-released {@link ConsumerDefinition} (tests and benchmarks override it). */
export const TERMINAL_RELEASED_CONSUMER = Symbol('TERMINAL_RELEASED_CONSUMER');

/** The gateway's released terminals, consumed durably by every connector replica (one durable consumer shared). */
export const terminalReleasedConsumer: ConsumerDefinition = {
  name: 'host-connector-terminal-released',
  subject: GATEWAY_TERMINAL_RELEASED_V1,
  deadLetterSubject: deadLetterSubjectOf(GATEWAY_TERMINAL_RELEASED_V1),
  maxDeliveries: 5,
  // Rare (a device retired), one DELETE each: little room taken from the connector's pool.
  jetStream: { stream: EVENT_STREAM, deadLetterStream: DEAD_LETTER_STREAM, concurrency: 2 },
};
