import type { HostReversalUpdatedV1 } from '@app/contracts';
import type { ActionReversal } from '../transaction';

/**
 * Whether a reported reversal state replaces the one an action shows: any state when it shows
 * none; of the same reversal, a later one (its attempts only grow, so a redelivered or reordered
 * event never takes a state back); of another reversal of the same request, the one queued later
 * (a late approval's reversal after the timeout's was acknowledged).
 */
export function supersedes(update: HostReversalUpdatedV1, current: ActionReversal | null | undefined): boolean {
  if (!current) return true;
  if (update.reversalId === current.reversalId) return update.attempts > current.attempts;
  return update.queuedAt > current.queuedAt;
}

export function actionReversalOf(update: HostReversalUpdatedV1): ActionReversal {
  return { reversalId: update.reversalId, state: update.state, attempts: update.attempts, lastResponseCode: update.lastResponseCode, queuedAt: update.queuedAt };
}
