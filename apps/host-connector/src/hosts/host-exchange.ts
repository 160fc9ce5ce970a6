import { EarlierAttempts, HostAnswer, HostOperation, HostRequestOf } from '@app/host-protocol';
import { HostAddress } from '../routing/host-address';
import { Statement } from '../shared/statement';

/** What the connector sent, as a follow-up will reference it. */
export interface SentMessage {
  mti: string;
  stan: string;
  transmittedAt: string;
  /**
   * The instant the message was built at: field 7 (`transmittedAt`), 12/13 and the JSON formats'
   * transaction ids all come from it, so sending again at this instant with this STAN sends the
   * same message (a reversal's repeat).
   */
  at: Date;
  /** The host order it was filed under, for a format that has them (MPGS_AP; `JsonDialect.buildHttpRequest`). */
  orderId?: string;
}

/** What became of one request to a host, whatever the transport. */
export type HostExchange =
  | { kind: 'answered'; sent: SentMessage; answer: HostAnswer }
  /** Nothing reached the host. */
  | { kind: 'not-sent'; reason: string }
  /**
   * Sent (or possibly sent) and no usable answer: the outcome at the host is unknown. `unreadable`:
   * the host did answer, but the answer could not be read (a field the operation needs broke its
   * rule; `reason` names it): the host acted, we cannot say how. `outcomeUnknown`: the host
   * answered, readably, with what its format's spec file says leaves the outcome unknown (POMELO
   * `ERROR`): not unreadable, not unanswered, and no outcome all the same.
   */
  | { kind: 'no-answer'; sent: SentMessage; reason: string; unreadable?: true; outcomeUnknown?: true }
  /** The format cannot express this request (e.g. EMV data without a PAN). */
  | { kind: 'unexpressible'; reason: string };

export interface ExchangeOptions {
  /** Send with this STAN instead of a new one: a reversal's repeats, and an authorisation's, taken with its request log claim. */
  stan?: string;
  /** A repeat (0401 rather than 0400). */
  repeat?: boolean;
  /** A repeat of a reversal by the reversal worker: what its earlier transmissions got ({@link acknowledgementOf}); absent on every first transmission. */
  earlier?: EarlierAttempts;
  /**
   * Transmission time to send (field 7 and what JSON formats build their transaction ids from)
   * instead of now: a reversal keeps the one it was queued with on every attempt, so a repeat is
   * the same message and the host can recognise it.
   */
  at?: Date;
  /**
   * Called with what is about to be sent, after the last check and just before the message goes
   * on the wire; if it throws, nothing is sent. The request log writes its recovery record here,
   * with `alongside` in the same statement when given (the card kept for the message's follow-ups,
   * which must be written before sending too): one round trip, one commit.
   */
  beforeSend?: (sent: SentMessage, alongside?: Statement) => Promise<void>;
  /** Send even when the host is marked down (echoes, reversals). */
  ignoreDown?: boolean;
}

/** Where a request goes: the in-process MOCK host or an address. */
export type HostRoute = { kind: 'mock' } | { kind: 'remote'; address: HostAddress };

/** One transport's way to exchange an operation with a host. */
export type AnyOperationRequest = HostRequestOf[HostOperation];

/** What a caller reads of an answer that came but could not be read: the host was reached (never "could not be reached"). */
export const UNREADABLE = 'the host answered, but its answer could not be read';

/** Why an exchange other than an answer ended, as a reply says it (an unreadable answer says the host answered; one without an outcome says what the host answered). */
export function unansweredWhy(exchange: Exclude<HostExchange, { kind: 'answered' }>): string {
  return exchange.kind === 'no-answer' && exchange.unreadable ? `${UNREADABLE}: ${exchange.reason}` : exchange.reason;
}
