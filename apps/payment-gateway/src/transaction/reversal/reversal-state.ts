import type { HostQueuedReversalV1, HostReversalUpdatedV1 } from '@app/contracts';
import { reversedUnknown } from '../host-outcome';
import type { ActionReversal, Transaction, TransactionAction } from '../transaction';

/**
 * Whether a reported reversal state replaces the one an action shows: any state when it shows
 * none; of the same reversal, a later one (its attempts only grow, so a redelivered or reordered
 * event never takes a state back; an operator's end of it, which sends nothing, ends a PENDING
 * one at the same attempts); of another reversal of the same request, the one queued later (a
 * late approval's reversal after the timeout's was acknowledged).
 */
export function supersedes(update: HostQueuedReversalV1, current: ActionReversal | null | undefined): boolean {
  if (!current) return true;
  if (update.reversalId === current.reversalId)
    return update.attempts > current.attempts || (update.attempts === current.attempts && current.state === 'PENDING' && update.state !== 'PENDING');
  return update.queuedAt > current.queuedAt;
}

export function actionReversalOf(update: HostQueuedReversalV1): ActionReversal {
  return {
    reversalId: update.reversalId,
    state: update.state,
    attempts: update.attempts,
    lastResponseCode: update.lastResponseCode,
    queuedAt: update.queuedAt,
    ...(update.effect === undefined ? {} : { effect: update.effect }),
    ...(update.operatorNote === undefined ? {} : { operatorNote: update.operatorNote }),
  };
}

/** What a reported reversal state does beyond being shown on its action. */
export type ReversalConsequence =
  /** Only shown: a reversal pending or undoing its request, an action already recorded, or not one a repeat completes. */
  | { kind: 'show' }
  /** The host acknowledged the repeat of a void sent as a reversal: the void is done, record it as an approved void. */
  | { kind: 'complete-void' }
  /**
   * The host acknowledged it while the transaction's batch is being settled: shown, and recorded
   * when that settle ends (BatchSettlementService.record): a void if the settle failed (the
   * connector refuses a settle whose totals count the voided sale), not recorded if it settled.
   */
  | { kind: 'after-settle' }
  /** The host acknowledged it, but the transaction can no longer be voided here: shown on the action with why, for an operator. */
  | { kind: 'not-recorded'; why: string };

/**
 * The gateway's rule for an acknowledgement that completes its request (docs/decisions.md, "A void
 * sent as a reversal, completed by its repeat"): the acknowledged repeat (0401) of a void that
 * went out as a reversal and got no answer means the host voided the original. The void is
 * recorded when it is still open here (the action FAILED HostTimeout or PENDING) and the
 * transaction can still be voided (APPROVED, nothing refunded, its batch open or its settle
 * failed: a failed batch is counted again when it is settled again); while its batch is being
 * settled it waits for the settle's end (docs/decisions.md, "A void acknowledged while its batch
 * settles"); otherwise it is not recorded, and why is kept on the action. Everything else is only
 * shown.
 */
export function consequenceOf(
  update: Pick<HostReversalUpdatedV1, 'state' | 'effect' | 'operatorNote'>,
  action: Pick<TransactionAction, 'actionType' | 'actionStatus' | 'reason'>,
  transaction: Pick<Transaction, 'id' | 'tranStatus' | 'settleState' | 'refundedMinor'>,
): ReversalConsequence {
  if (update.state !== 'ACKNOWLEDGED' || update.effect !== 'COMPLETES_REQUEST' || action.actionType !== 'VOID') return { kind: 'show' };
  const open = action.actionStatus === 'PENDING' || (action.actionStatus === 'FAILED' && reversedUnknown(action.reason));
  if (!open) return { kind: 'show' };
  const prefix =
    update.operatorNote === undefined
      ? `the host acknowledged the repeat of this void, so it voided transaction ${transaction.id}, but`
      : `an operator recorded this void as done, having checked with the acquirer, so the host voided transaction ${transaction.id}, but`;
  if (transaction.tranStatus === 'VOIDED') return { kind: 'show' };
  if (transaction.tranStatus !== 'APPROVED') return { kind: 'not-recorded', why: `${prefix} it is ${transaction.tranStatus} here` };
  if (BigInt(transaction.refundedMinor) > 0n) return { kind: 'not-recorded', why: `${prefix} it was refunded since` };
  if (transaction.settleState === 'SETTLING') return { kind: 'after-settle' };
  if (transaction.settleState === 'SETTLED') return { kind: 'not-recorded', why: `${prefix} its batch is ${transaction.settleState}` };
  return { kind: 'complete-void' };
}

/**
 * Whether an action's request is being completed by a queued repeat the host has not
 * acknowledged yet: a void sent as a reversal (an 04xx message) that got no answer, whose repeat
 * the connector sends until the host acknowledges it. Known from the connector's reversal state
 * (`effect` COMPLETES_REQUEST, PENDING), or, before that state reaches the gateway, from the
 * message the void went out as.
 */
export function completingRepeatPending(action: Pick<TransactionAction, 'actionType' | 'actionStatus' | 'reason' | 'hostMti' | 'reversal'>): boolean {
  if (action.actionType !== 'VOID' || action.actionStatus !== 'FAILED' || !reversedUnknown(action.reason)) return false;
  const reversal = action.reversal;
  if (!reversal) return action.hostMti?.startsWith('04') === true;
  return reversal.effect === 'COMPLETES_REQUEST' && reversal.state === 'PENDING';
}

/**
 * Whether a void holds its batch's settle (docs/decisions.md, "A void sent as a reversal, completed
 * by its repeat"): one still waiting for the host (PENDING), or one sent as a reversal whose
 * repeat is pending and whose outcome is still unknown (no answer yet to its 0400 or to any
 * repeat). Once the host has answered a repeat with a refusal (`lastResponseCode` set, not
 * acknowledging), it has said the void did not take: the sale stands, the settle goes and counts
 * it, and the connector's settle names the reversal still unacknowledged. Checked by the
 * settle on the batch's locked transactions (BatchSettlementService.close).
 */
export function voidHoldsSettle(action: Pick<TransactionAction, 'actionType' | 'actionStatus' | 'reason' | 'hostMti' | 'reversal'>): boolean {
  if (action.actionType !== 'VOID') return false;
  if (action.actionStatus === 'PENDING') return true;
  return completingRepeatPending(action) && (action.reversal?.lastResponseCode ?? null) === null;
}

/**
 * Whether an action is a void whose completing repeat the host acknowledged and that is neither
 * recorded nor marked not recorded yet: what a settle that ends records ({@link consequenceOf}
 * with the batch's outcome).
 */
export function acknowledgedVoidOpen(action: Pick<TransactionAction, 'actionType' | 'actionStatus' | 'reason' | 'reversal'>): boolean {
  const reversal = action.reversal;
  if (action.actionType !== 'VOID' || !reversal || reversal.state !== 'ACKNOWLEDGED' || reversal.effect !== 'COMPLETES_REQUEST' || reversal.notRecorded) return false;
  return action.actionStatus === 'PENDING' || (action.actionStatus === 'FAILED' && reversedUnknown(action.reason));
}
