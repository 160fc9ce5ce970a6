import { HostOperation } from '@app/host-protocol';

/** The operations callers ask for by subject (key exchange and the batch upload's messages are the connector's own). */
export type SubjectOperation = Exclude<HostOperation, 'keyexchange' | 'batchupload' | 'settleclose'>;

/** The queue group every replica answers `host.*` in: one replica gets each request. */
export const HOST_CONNECTOR_QUEUE_GROUP = 'host-connector';

/**
 * Operations that make a terminal the PBO's at the connector (its first use claims it): a sale or
 * pre-authorisation, a sign-on, an echo. A follow-up of an earlier transaction and a settle only
 * check that no other PBO holds the terminal: after a release (a decommission), the old owner's
 * refunds and last settle go through while the terminal is free, and claim nothing back, so the
 * next owner can take it (docs/decisions.md, "A released terminal reaches the connector", review r14j).
 */
export const CLAIMING_OPERATIONS: ReadonlySet<SubjectOperation> = new Set(['authorize', 'signon', 'echo']);

/**
 * Follow-ups that book new money in the terminal's batch at the host (a refund, a capture): only on
 * a terminal the PBO holds at the connector (its claim at that `ip:port`). A released terminal's,
 * free or another PBO's since, is refused before anything is sent, so the booking can never land
 * in another owner's batch (review r14m). A void and a settle take back or close what is already
 * in the PBO's batch: they only check that no other PBO holds it.
 */
export const BOOKING_OPERATIONS: ReadonlySet<SubjectOperation> = new Set(['refund', 'capture']);

/** How a request may use a terminal at the connector (TerminalOwners.mayUse). */
export function terminalUseOf(operation: SubjectOperation): 'claim' | 'own' | 'check' {
  if (CLAIMING_OPERATIONS.has(operation)) return 'claim';
  return BOOKING_OPERATIONS.has(operation) ? 'own' : 'check';
}

/** Operations whose unanswered request may have moved money: they are reversed. */
export const REVERSIBLE_OPERATIONS: ReadonlySet<HostOperation> = new Set(['authorize', 'void', 'refund', 'capture', 'reverse']);
