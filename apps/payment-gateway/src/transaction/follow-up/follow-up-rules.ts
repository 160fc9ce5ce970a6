import { DomainError } from '@app/common';
import { currencyExponent, HostOriginalKindV1, minorToDecimal } from '@app/contracts';
import type { TransactionChanges } from '../persistence/transaction.repository';
import { completingRepeatPending } from '../reversal/reversal-state';
import type { Transaction, TransactionAction } from '../transaction';
import { secondsUntil } from '../transaction-settings';

/**
 * The money rules of void, refund and capture (DECISIONS.md "Codes and enumerations"; issue 13
 * "States and money rules"; docs/decisions.md "Void, refund, capture and settle in the gateway"),
 * as pure functions of a transaction and its actions: what a follow-up may do, and what its
 * approval changes. The services apply them under the transaction's row lock.
 */

export type FollowUpKind = 'VOID' | 'REFUND' | 'CAPTURE';

/** What a follow-up the rules allow sends to the host: the amount and the action the host knows as its original. */
export interface FollowUpPlan {
  kind: FollowUpKind;
  amountMinor: string;
  original: TransactionAction;
  originalKind: HostOriginalKindV1;
  /** A refund of all that is left to refund: approved in full, it ends the original's follow-ups (the connector deletes its kept card). */
  final?: boolean;
}

/** What the rules need to know beyond the transaction. */
export interface FollowUpContext {
  /** The terminal's open batch number (undefined: the terminal has no batch). */
  openBatchNo: string | undefined;
  now: Date;
  /** How long after its approval an AUTH may be captured. */
  authorizationValidityMs: number;
  /** How long a follow-up's request may still be asking the host after it began (`requestAskingMs`): the Retry-After of a refusal for an action in flight. */
  askingMs?: number;
}

/** What the in-flight refusal needs of the context. */
type InFlightContext = Pick<FollowUpContext, 'now' | 'askingMs'>;

const NOUN: Record<FollowUpKind, string> = { VOID: 'voided', REFUND: 'refunded', CAPTURE: 'captured' };

/** `7 days`, `90 s`: how long a validity is, as a sentence says it. */
export function durationText(ms: number): string {
  const day = 24 * 60 * 60 * 1000;
  return ms % day === 0 ? `${ms / day} days` : `${Math.round(ms / 1000)} s`;
}

function amountText(transaction: Transaction, minor: string): string {
  return `${minorToDecimal(minor, currencyExponent(transaction.currency))} ${transaction.currency}`;
}

/** The approved first action (the sale or authorisation the host knows). */
function approvedNew(actions: readonly TransactionAction[]): TransactionAction | undefined {
  return actions.find((action) => action.actionType === 'NEW' && action.actionStatus === 'SUCCESS');
}

function successful(actions: readonly TransactionAction[], type: TransactionAction['actionType']): TransactionAction[] {
  return actions.filter((action) => action.actionType === type && action.actionStatus === 'SUCCESS');
}

/** When the host approved the transaction: its NEW action's outcome was recorded then. */
export function approvedAt(actions: readonly TransactionAction[]): Date | undefined {
  const action = approvedNew(actions);
  return action ? (action.updatedAt ?? action.createdAt) : undefined;
}

/** When to ask again while a void's repeat is being sent to the host (the connector repeats it with backoff). */
export const COMPLETING_VOID_RETRY_SECONDS = 30;

/**
 * Refusals every follow-up shares: an action still in flight; a void whose repeat the host has
 * not acknowledged yet (another void would be answered 94, a refund would credit twice once it
 * is), 409 with Retry-After; a void the host acknowledged that the transaction could not take (an
 * operator reconciles it); a transaction that is not (or no longer) APPROVED.
 */
function requireActionable(transaction: Transaction, actions: readonly TransactionAction[], kind: FollowUpKind, context?: InFlightContext): void {
  const pending = actions.find((action) => action.actionStatus === 'PENDING');
  if (pending)
    throw DomainError.conflict(
      `transaction ${transaction.id} has ${pending.actionType} action ${pending.id} in flight; try again once it is done`,
      // By then its request has its outcome, or has handed it to the resolver.
      context?.askingMs === undefined ? undefined : secondsUntil(pending.createdAt.getTime() + context.askingMs, context.now),
    );
  const completing = actions.find(completingRepeatPending);
  if (completing)
    throw DomainError.conflict(
      `transaction ${transaction.id} cannot be ${NOUN[kind]} now: ${
        completing.reversal?.lastResponseCode ? `the host refused the repeat of its void ${completing.id} (${completing.reversal.lastResponseCode})` : `the host did not answer its void ${completing.id} in time`
      }, and that void is being repeated until the host acknowledges it (then the transaction is VOIDED); try again later`,
      COMPLETING_VOID_RETRY_SECONDS,
    );
  const unrecorded = actions.find((action) => action.reversal?.notRecorded !== undefined);
  if (unrecorded)
    throw DomainError.conflict(
      `transaction ${transaction.id} cannot be ${NOUN[kind]}: the host voided it (void ${unrecorded.id}) after it could no longer be voided here; an operator must reconcile it with the acquirer`,
    );
  if (transaction.tranStatus !== 'APPROVED') {
    const why: Partial<Record<Transaction['tranStatus'], string>> = {
      VOIDED: 'it is VOIDED',
      REFUNDED: 'it is REFUNDED in full',
      CLOSED: 'it is CLOSED: it was not captured in time',
      PENDING: 'its outcome is not known yet',
    };
    throw DomainError.conflict(`transaction ${transaction.id} cannot be ${NOUN[kind]}: ${why[transaction.tranStatus] ?? `it is ${transaction.tranStatus}`}`);
  }
}

/** The action the host knows a captured AUTH by: its successful capture. */
function captureOf(transaction: Transaction, actions: readonly TransactionAction[]): TransactionAction | undefined {
  return transaction.tranType === 'AUTH' ? successful(actions, 'CAPTURE')[0] : undefined;
}

function requireNew(transaction: Transaction, actions: readonly TransactionAction[]): TransactionAction {
  const first = approvedNew(actions);
  if (!first) throw DomainError.conflict(`transaction ${transaction.id} has no approved first action to follow up`);
  return first;
}

/**
 * Void: the whole transaction, before settlement. Only an APPROVED one without refunds (a
 * partly refunded one is refunded to the end instead), still OPEN in the batch that is the
 * terminal's open batch. A captured AUTH voids its capture; an uncaptured one its authorisation.
 */
export function planVoid(transaction: Transaction, actions: readonly TransactionAction[], context: FollowUpContext): FollowUpPlan {
  requireActionable(transaction, actions, 'VOID', context);
  if (BigInt(transaction.refundedMinor) > 0n || successful(actions, 'REFUND').length > 0)
    throw DomainError.conflict(`transaction ${transaction.id} cannot be voided: it has refunds; refund the rest instead`);
  if (transaction.settleState !== 'OPEN')
    throw DomainError.conflict(`transaction ${transaction.id} cannot be voided: its batch is ${transaction.settleState}; refund it instead`);
  if (transaction.batchNo === null || transaction.batchNo !== context.openBatchNo)
    throw DomainError.conflict(`transaction ${transaction.id} cannot be voided: its batch ${transaction.batchNo ?? '(none)'} is closed; refund it instead`);
  const capture = captureOf(transaction, actions);
  if (capture) return { kind: 'VOID', amountMinor: capture.amountMinor, original: capture, originalKind: 'CAPTURE' };
  return {
    kind: 'VOID',
    amountMinor: transaction.approvedMinor ?? transaction.amountMinor,
    original: requireNew(transaction, actions),
    originalKind: transaction.tranType === 'AUTH' ? 'PREAUTH' : 'SALE',
  };
}

/**
 * Refund: part or all of what was captured (a SALE captures its approval; an AUTH only once it
 * is captured), never more than is left. Settlement does not matter: a refund books in the
 * terminal's open batch.
 */
export function planRefund(transaction: Transaction, actions: readonly TransactionAction[], amountMinor: string, context?: InFlightContext): FollowUpPlan {
  requireActionable(transaction, actions, 'REFUND', context);
  const capture = captureOf(transaction, actions);
  if (transaction.tranType === 'AUTH' && !capture)
    throw DomainError.conflict(`transaction ${transaction.id} cannot be refunded: an AUTH is refunded only after its capture`);
  const left = BigInt(transaction.capturedMinor) - BigInt(transaction.refundedMinor);
  if (BigInt(amountMinor) > left)
    throw DomainError.conflict(
      `transaction ${transaction.id} cannot be refunded ${amountText(transaction, amountMinor)}: only ${amountText(transaction, left.toString())} of ${amountText(transaction, transaction.capturedMinor)} captured is left to refund`,
    );
  const final = BigInt(amountMinor) === left;
  if (capture) return { kind: 'REFUND', amountMinor, original: capture, originalKind: 'CAPTURE', final };
  return { kind: 'REFUND', amountMinor, original: requireNew(transaction, actions), originalKind: 'SALE', final };
}

/**
 * Capture: of an AUTH only, once, at most what was authorised (absent: all of it), within the
 * validity after its approval. A partial capture releases the rest.
 */
export function planCapture(
  transaction: Transaction,
  actions: readonly TransactionAction[],
  amountMinor: string | undefined,
  context: FollowUpContext,
): FollowUpPlan {
  if (transaction.tranType !== 'AUTH')
    throw DomainError.conflict(`transaction ${transaction.id} cannot be captured: it is a ${transaction.tranType}, not an AUTH`);
  requireActionable(transaction, actions, 'CAPTURE', context);
  if (BigInt(transaction.capturedMinor) > 0n || successful(actions, 'CAPTURE').length > 0)
    throw DomainError.conflict(`transaction ${transaction.id} cannot be captured: it is captured already (one capture per authorisation)`);
  const approval = approvedAt(actions);
  if (approval && context.now.getTime() - approval.getTime() >= context.authorizationValidityMs)
    throw DomainError.conflict(
      `transaction ${transaction.id} cannot be captured: its authorisation is older than ${durationText(context.authorizationValidityMs)}`,
    );
  const authorised = transaction.approvedMinor ?? transaction.amountMinor;
  const amount = amountMinor ?? authorised;
  if (BigInt(amount) > BigInt(authorised))
    throw DomainError.conflict(
      `transaction ${transaction.id} cannot be captured ${amountText(transaction, amount)}: only ${amountText(transaction, authorised)} was authorised`,
    );
  return { kind: 'CAPTURE', amountMinor: amount, original: requireNew(transaction, actions), originalKind: 'PREAUTH' };
}

/**
 * What an approved follow-up changes on its transaction: a void VOIDED; a refund its sum (REFUNDED
 * once it reaches what was captured); a capture what is captured, in the terminal's open batch.
 * `bookedMinor` is what the host approved (a partial approval books less than asked).
 */
export function changesOfApproval(transaction: Transaction, kind: FollowUpKind, bookedMinor: string, openBatchNo: string | undefined): TransactionChanges {
  switch (kind) {
    case 'VOID':
      return { tranStatus: 'VOIDED' };
    case 'REFUND': {
      const refundedMinor = (BigInt(transaction.refundedMinor) + BigInt(bookedMinor)).toString();
      return { refundedMinor, tranStatus: refundedMinor === transaction.capturedMinor ? 'REFUNDED' : 'APPROVED' };
    }
    case 'CAPTURE':
      return { capturedMinor: bookedMinor, batchNo: openBatchNo ?? transaction.batchNo, settleState: 'OPEN' };
  }
}
