import { HostOperation } from '@app/host-protocol';

/** The operations callers ask for by subject (key exchange and the batch upload's messages are the connector's own). */
export type SubjectOperation = Exclude<HostOperation, 'keyexchange' | 'batchupload' | 'settleclose'>;

/** The queue group every replica answers `host.*` in: one replica gets each request. */
export const HOST_CONNECTOR_QUEUE_GROUP = 'host-connector';

/**
 * Operations that make a terminal the PBO's at the connector (its first use claims it, refused
 * when another PBO holds it): a sale or pre-authorisation, a sign-on, an echo, and a refund or a
 * capture, which book new money in the terminal's batch at the host. The gateway sends a refund or
 * capture only on a terminal the PBO holds there now, at the address its acceptance names now
 * (reviews r14k, r14m, r14n): after an acquirer address edit the first one may claim the terminal at
 * the new address. A void and a settle take back or close what is already in the PBO's batch: they
 * only check that no other PBO holds the terminal, and claim nothing, so after a release (a
 * decommission) the old owner's void or last settle goes through while the terminal is free and the
 * next owner can take it (docs/decisions.md, "A released terminal reaches the connector", review r14j).
 */
export const CLAIMING_OPERATIONS: ReadonlySet<SubjectOperation> = new Set(['authorize', 'signon', 'echo', 'refund', 'capture']);

/** How a request may use a terminal at the connector (TerminalOwners.mayUse). */
export function terminalUseOf(operation: SubjectOperation): 'claim' | 'check' {
  return CLAIMING_OPERATIONS.has(operation) ? 'claim' : 'check';
}

/** Operations whose unanswered request may have moved money: they are reversed. */
export const REVERSIBLE_OPERATIONS: ReadonlySet<HostOperation> = new Set(['authorize', 'void', 'refund', 'capture', 'reverse']);
