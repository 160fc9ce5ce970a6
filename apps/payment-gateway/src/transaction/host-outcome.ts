import { ContractViolationError, HOST_AUTHORIZE_V1, HostAuthorizeRequestV1, HostResponseV1, HostResultV1, HostReversalCauseV1 } from '@app/contracts';
import { HostClient, RequestReplyError } from '@app/messaging';
import { callerHostMessage } from '../shared/host-reply';

/** What asking the host connector gave. */
export type HostAsk =
  | { kind: 'reply'; response: HostResponseV1 }
  /** Nobody received the request (no host connector serves the subject): nothing can have been sent. */
  | { kind: 'not-delivered'; detail: string }
  /** The request may have reached the connector, and the host: the outcome is unknown, never a decline. */
  | { kind: 'unknown'; detail: string };

/**
 * Asks the host connector (`call`, which names `subject` and `requestId`) and says what came of
 * it, never throwing for what the connector or the transport did: a timeout, a failed handler or
 * an unreadable reply leave the outcome unknown.
 */
export async function askConnector(subject: string, requestId: string, call: () => Promise<HostResponseV1>): Promise<HostAsk> {
  try {
    const response = await call();
    if (response.requestId !== requestId) return { kind: 'unknown', detail: `the host connector answered request ${response.requestId || '(none)'} instead` };
    return { kind: 'reply', response };
  } catch (error) {
    if (error instanceof RequestReplyError && error.code === 'NO_RESPONDERS')
      return { kind: 'not-delivered', detail: `no host connector answers ${subject}; nothing was sent` };
    if (error instanceof RequestReplyError && error.code === 'TIMEOUT') return { kind: 'unknown', detail: 'the host connector did not answer in time' };
    if (error instanceof RequestReplyError) return { kind: 'unknown', detail: `the host connector failed (${error.code})` };
    if (error instanceof ContractViolationError) return { kind: 'unknown', detail: 'the host connector gave an unreadable reply' };
    throw error;
  }
}

/** Asks `host.authorize.v1` ({@link askConnector}). */
export function askAuthorization(host: HostClient, request: HostAuthorizeRequestV1, waitMs: number): Promise<HostAsk> {
  return askConnector(HOST_AUTHORIZE_V1, request.requestId, () => host.authorize(request, { timeoutMs: waitMs }));
}

/** How long the first ask and its repeat may take. */
export interface AskTiming {
  firstWaitMs: number;
  repeatWaitMs: number;
}

/**
 * Asks (`ask` with how long it may wait); after an unknown outcome asks once more at once under
 * the same requestId (the connector answers a request it handled with its recorded reply, and
 * waits for one it is still handling). Answers the reply that settles it, a request nobody
 * received, or the first ask's unknown outcome when the repeat did not settle it either.
 */
export async function askUntilKnown(ask: (waitMs: number) => Promise<HostAsk>, timing: AskTiming, onUnknown: (detail: string) => void): Promise<HostAsk> {
  const first = await ask(timing.firstWaitMs);
  if (first.kind !== 'unknown') return first;
  onUnknown(first.detail);
  const second = await ask(timing.repeatWaitMs);
  return second.kind === 'reply' && settlesRepeat(second.response, false) ? second : first;
}

/** Why the NEW action of a sale ended as it did (`reason` of spec 3's Action). */
export type SaleReason =
  | 'HostSuccess'
  | 'HostDeclined'
  | 'HostTimeout'
  | 'HostOutcomeUnknown'
  | 'HostApprovalReversed'
  | 'HostUnavailable'
  | 'HostRejected'
  | 'HostConnectorUnavailable';

/**
 * Whether an action was reversed because its outcome is unknown: the host did not answer in time
 * (`HostTimeout`), or answered with what its format says leaves the outcome unknown
 * (`HostOutcomeUnknown`, POMELO `ERROR`). Either way the connector's reversal (or the repeat of a
 * void sent as one) decides what the host holds.
 */
export function reversedUnknown(reason: string): boolean {
  return reason === 'HostTimeout' || reason === 'HostOutcomeUnknown';
}

/** What a sale's outcome writes: the transaction's status, its first action's, and the host's answer when there was one. */
export interface SaleOutcome {
  tranStatus: 'APPROVED' | 'DECLINED' | 'REVERSED';
  actionStatus: 'SUCCESS' | 'FAILED';
  reason: SaleReason;
  hostRespMessage: string;
  /** The connector's reply; null when none reached it. */
  response: HostResponseV1 | null;
}

const OUTCOME_OF_RESULT: Record<HostResultV1, Pick<SaleOutcome, 'tranStatus' | 'actionStatus' | 'reason'>> = {
  APPROVED: { tranStatus: 'APPROVED', actionStatus: 'SUCCESS', reason: 'HostSuccess' },
  DECLINED: { tranStatus: 'DECLINED', actionStatus: 'FAILED', reason: 'HostDeclined' },
  // The host did not answer in time and the connector reverses what it sent.
  REVERSED: { tranStatus: 'REVERSED', actionStatus: 'FAILED', reason: 'HostTimeout' },
  // Nothing was sent: a decline that names why.
  HOST_UNAVAILABLE: { tranStatus: 'DECLINED', actionStatus: 'FAILED', reason: 'HostUnavailable' },
  REJECTED: { tranStatus: 'DECLINED', actionStatus: 'FAILED', reason: 'HostRejected' },
};

/** The reason of a REVERSED reply, by why the connector reversed it (absent, from an older connector: NO_ANSWER). */
const REVERSED_REASONS: Record<HostReversalCauseV1, SaleReason> = {
  NO_ANSWER: 'HostTimeout',
  UNKNOWN_OUTCOME: 'HostOutcomeUnknown',
  UNUSABLE_APPROVAL: 'HostApprovalReversed',
};

/** The outcome of a reply that settles the sale. */
export function outcomeOfReply(response: HostResponseV1): SaleOutcome {
  // The host answered: with an approval the merchant cannot be shown (0, more than asked, another currency), or without an outcome. Reversed, not timed out.
  const reason = response.result !== 'REVERSED' ? undefined : REVERSED_REASONS[response.reversedFor ?? 'NO_ANSWER'];
  return { ...OUTCOME_OF_RESULT[response.result], ...(reason === undefined ? {} : { reason }), hostRespMessage: callerHostMessage(response), response };
}

/** The outcome of a request nobody received: declined, nothing sent. */
export function notDeliveredOutcome(detail: string): SaleOutcome {
  return { tranStatus: 'DECLINED', actionStatus: 'FAILED', reason: 'HostConnectorUnavailable', hostRespMessage: detail, response: null };
}

/**
 * Whether a reply to a repeated request (same requestId, after an unknown outcome) settles the
 * sale. APPROVED, DECLINED and REVERSED are the connector's recorded outcome; REJECTED means the
 * request was refused before anything was sent. HOST_UNAVAILABLE is also the connector's answer
 * while the first request is still being handled, so it settles only once the sale is old enough
 * that nothing can still be in flight (`nothingInFlight`).
 */
export function settlesRepeat(response: HostResponseV1, nothingInFlight: boolean): boolean {
  return response.result !== 'HOST_UNAVAILABLE' || nothingInFlight;
}
