import { Clock, DomainError, IdGenerator } from '@app/common';
import {
  currencyExponent,
  currencyInfo,
  decimalToMinor,
  describeTerminal,
  GatewayRefusalV1,
  GatewayTransactionReplyV1,
  HOST_CAPTURE_V1,
  HOST_REFUND_V1,
  HOST_VOID_V1,
  HostFollowUpRequestV1,
  HostTargetV1,
  legacyIdempotencyKeyOf,
  minorToDecimal,
  REVERSAL_QUEUED_CLAUSE,
  terminalIdentityOf,
  TRAN_ID_PATTERN,
} from '@app/contracts';
import { TypeOrmUnitOfWork, UnitOfWork } from '@app/database';
import { HostClient, refusingWith } from '@app/messaging';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { merchantNowOf } from '../../profile/host-target';
import type { ProfileEntity } from '../../profile/persistence/profile.entity';
import { requireOwned } from '../../shared/ownership';
import { askConnector, askUntilKnown, HostAsk, notDeliveredOutcome, outcomeOfReply, SaleOutcome, settlesRepeat } from '../host-outcome';
import { isHeld, TerminalBatchRepository } from '../persistence/terminal-batch.repository';
import { TerminalHeldError, waitingWhileSettling } from '../settlement/terminal-hold';
import { ActionChanges, LeasedAction, TransactionRepository } from '../persistence/transaction.repository';
import { hostOriginalOf } from '../host-reference';
import { isKeptAuthorization, pendingAction, terminalKeyOf, type Transaction, type TransactionAction } from '../transaction';
import { completingRepeatPending } from '../reversal/reversal-state';
import { TerminalIdentityRepository } from '../../profile/persistence/terminal-identity.repository';
import { SaleProfiles } from '../sale-profiles';
import { TransactionChangeWriter, WrittenTransaction } from '../transaction-change-writer';
import { firstCheckAt, requestAskingMs, secondsUntil, TRANSACTION_SETTINGS, TransactionSettings } from '../transaction-settings';
import { toGatewayTransaction } from '../transaction.mapping';
import { changesOfApproval, FollowUpKind, FollowUpPlan, planCapture, planRefund, planVoid } from './follow-up-rules';

/** Who asks, for which transaction, under which request id (the caller's idempotency key on this transaction). */
export interface FollowUpTarget {
  groupId: string;
  tranId: string;
  requestId: string;
  /** The service request asking (`req_…`, its x-service-request-id over HTTP): the new action's spec 3 `requestId`. Absent: a new one. */
  serviceRequestId?: string;
}

/** A follow-up as its caller asks it: the amount (decimal, in the transaction's currency) where the kind takes one. */
export interface FollowUpCommand extends FollowUpTarget {
  kind: FollowUpKind;
  amount?: string;
  /** A refund's reason, kept on its action (`extraData.reason`). */
  reason?: string;
}

const NOUN: Record<FollowUpKind, string> = { VOID: 'void', REFUND: 'refund', CAPTURE: 'capture' };
const SUBJECT: Record<FollowUpKind, string> = { VOID: HOST_VOID_V1, REFUND: HOST_REFUND_V1, CAPTURE: HOST_CAPTURE_V1 };

/** A transaction locked for a follow-up, with its actions and its terminal's open batch (share-locked). */
export interface LockedTransaction {
  transaction: Transaction;
  actions: TransactionAction[];
  openBatchNo: string | undefined;
  /** Until when a settlement holds the terminal (no new host request may start), if one does. */
  heldUntil: Date | undefined;
}

type Started = { kind: 'started'; action: TransactionAction; hostRequest: HostFollowUpRequestV1 } | { kind: 'answered'; reply: GatewayTransactionReplyV1 };

function isFollowUpKind(type: TransactionAction['actionType']): type is FollowUpKind {
  return type === 'VOID' || type === 'REFUND' || type === 'CAPTURE';
}

/** How a refusal names the caller's request id: an /api/v2 one by the Idempotency-Key its caller sent. */
function requestNameOf(requestId: string): string {
  const legacyKey = legacyIdempotencyKeyOf(requestId);
  return legacyKey === undefined ? `requestId ${requestId}` : `Idempotency-Key ${legacyKey}`;
}

/** A reply without a transaction: the request was refused before any action was made. */
export function refusedReply(refusal: GatewayRefusalV1): GatewayTransactionReplyV1 {
  return { transaction: null, version: null, actionId: null, refusal };
}

/**
 * What became of an action's unanswered (or unusable) request, as far as the gateway knows: a
 * reversal queued and not yet acknowledged says the request is being undone, not that it was; the
 * repeat of a void sent as a reversal completes the void rather than undoing it.
 */
function reversalText(action: TransactionAction): string {
  const reversal = action.reversal;
  if (completingRepeatPending(action)) return 'it is being repeated until the host acknowledges it, which completes it (the transaction is then VOIDED)';
  if (reversal?.effect === 'COMPLETES_REQUEST' && reversal.state === 'ACKNOWLEDGED')
    return reversal.notRecorded === undefined ? 'its repeat was acknowledged by the host, which completed it' : `its repeat was acknowledged by the host: ${reversal.notRecorded}`;
  if (reversal?.state === 'ACKNOWLEDGED') return 'the host acknowledged its reversal: it is undone';
  return 'a reversal is queued and repeated until the host acknowledges it (not yet acknowledged)';
}

/**
 * What an action's state answers its request (the first time, and every repeat of its requestId):
 * nothing to refuse once the host answered it, approved or declined (a decline is the host's
 * business answer: the request is complete and the transaction shows the action FAILED
 * `HostDeclined` with the host's code, as a declined sale is answered 201); a host that could not
 * be reached (unavailable, nothing sent, request rejected before sending) 502, one that did not
 * answer in time (reversed) 504; still in flight 409; an outcome not known yet 504 (the gateway
 * keeps asking the connector, as for sales).
 */
export function refusalOfAction(action: TransactionAction, inFlight: { now: Date; askingMs: number }): GatewayRefusalV1 | null {
  const noun = NOUN[action.actionType as FollowUpKind] ?? action.actionType.toLowerCase();
  // Where the reversal stands is said once, by reversalText: the connector's own clause is cut off.
  const message = action.hostRespMessage?.endsWith(REVERSAL_QUEUED_CLAUSE) ? action.hostRespMessage.slice(0, -REVERSAL_QUEUED_CLAUSE.length) : action.hostRespMessage;
  const host = [action.hostRespCode, message].filter((part) => part !== null && part !== '').join(' ');
  switch (action.actionStatus) {
    case 'SUCCESS':
      return null;
    case 'PENDING':
      return action.hostRespMessage === null
        ? {
            status: 409,
            detail: `the ${noun} ${action.id} of this request is still in flight; ask again later`,
            // Its request has its outcome, or hands it to the resolver, by then: a repeat is answered.
            retryAfterSeconds: secondsUntil(action.createdAt.getTime() + inFlight.askingMs, inFlight.now),
          }
        : { status: 504, detail: `the outcome of the ${noun} ${action.id} is not known yet: ${action.hostRespMessage}`.slice(0, 512) };
    case 'FAILED':
      if (action.reason === 'HostDeclined') return null;
      if (action.reason === 'HostTimeout') return { status: 504, detail: `the host did not answer the ${noun} ${action.id} in time; ${reversalText(action)}: ${host}`.slice(0, 512) };
      if (action.reason === 'HostOutcomeUnknown')
        return { status: 504, detail: `the host answered the ${noun} ${action.id} without an outcome; ${reversalText(action)}: ${host}`.slice(0, 512) };
      if (action.reason === 'HostApprovalReversed')
        return { status: 502, detail: `the host approved the ${noun} ${action.id} for an amount that cannot be taken; ${reversalText(action)}: ${host}`.slice(0, 512) };
      return { status: 502, detail: `the ${noun} ${action.id} did not reach the host (${action.reason}): ${host}`.slice(0, 512) };
  }
}

/**
 * Void, refund and capture of a gateway transaction (issue 13), for the back office over HTTP and
 * for the transactions context over NATS. Each: the transaction locked (after its terminal's batch
 * row, shared: the order settlement locks in), the money rules checked, a PENDING action appended
 * and committed; the host asked through the connector (`actionId` is the connector's requestId);
 * then the answer recorded on the action with the transaction's sums and status and its
 * `gateway.transaction.updated.v1`, in one database transaction. A PENDING action refuses every
 * other follow-up of the transaction (409), so the rules hold while the host is asked. An outcome
 * the request cannot learn stays PENDING and is finished by the resolver, as a sale's is.
 */
@Injectable()
export class FollowUpService {
  private readonly logger = new Logger('FollowUp');

  constructor(
    private readonly transactions: TransactionRepository,
    private readonly batches: TerminalBatchRepository,
    private readonly writer: TransactionChangeWriter,
    private readonly host: HostClient,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(TRANSACTION_SETTINGS) private readonly settings: TransactionSettings,
    private readonly profiles: SaleProfiles,
    private readonly identities: TerminalIdentityRepository,
    private readonly typeOrm: TypeOrmUnitOfWork,
  ) {}

  void(target: FollowUpTarget): Promise<GatewayTransactionReplyV1> {
    return this.perform({ ...target, kind: 'VOID' });
  }

  refund(target: FollowUpTarget, amount: string, reason?: string): Promise<GatewayTransactionReplyV1> {
    return this.perform({ ...target, kind: 'REFUND', amount, ...(reason === undefined ? {} : { reason }) });
  }

  capture(target: FollowUpTarget, amount?: string): Promise<GatewayTransactionReplyV1> {
    return this.perform({ ...target, kind: 'CAPTURE', ...(amount === undefined ? {} : { amount }) });
  }

  /** Business refusals are answered (`refusal`), never thrown; what is no refusal (a failure) is thrown. */
  perform(command: FollowUpCommand): Promise<GatewayTransactionReplyV1> {
    return refusingWith(async () => {
      // A settlement holding the terminal is waited for (its batch must not change while it reconciles with the host).
      const started = await waitingWhileSettling(() => this.start(command), this.settings.settleWaitMs, this.clock);
      if (started.kind === 'answered') return started.reply;
      const { action, hostRequest } = started;
      const { hostTimeoutMs, replyMarginMs, reaskWaitMs } = this.settings;
      const asked = await askUntilKnown(
        (waitMs) => this.ask(command.kind, hostRequest, waitMs),
        { firstWaitMs: hostTimeoutMs + replyMarginMs, repeatWaitMs: reaskWaitMs },
        (detail) => this.logger.warn(`${NOUN[command.kind]} ${action.id} of ${command.tranId}: ${detail}; asking again`),
      );
      if (asked.kind === 'unknown') return this.keepPending(command.tranId, action.id, asked.detail);
      return this.record(command.tranId, action.id, asked.kind === 'reply' ? outcomeOfReply(asked.response) : notDeliveredOutcome(asked.detail));
    }, refusedReply);
  }

  /**
   * The resolver's check of a follow-up whose outcome is unknown: asks the connector again under
   * the same requestId and records what settles it (HOST_UNAVAILABLE only once nothing can still
   * be in flight). Answers whether it is settled.
   */
  async resolvePending(leased: LeasedAction, nothingInFlight: boolean): Promise<boolean> {
    if (!isFollowUpKind(leased.actionType) || !leased.hostRequest || isKeptAuthorization(leased.hostRequest)) return false;
    const request = leased.hostRequest;
    const asked = await this.ask(leased.actionType, request, (request.timeoutMs ?? this.settings.hostTimeoutMs) + this.settings.replyMarginMs);
    if (asked.kind !== 'reply' || !settlesRepeat(asked.response, nothingInFlight)) {
      const why = asked.kind === 'reply' ? `${asked.response.result}: ${asked.response.hostRespMessage}` : asked.detail;
      this.logger.warn(`${NOUN[leased.actionType]} ${leased.actionId} of ${leased.tranId} still unknown after check ${leased.attempts + 1}: ${why}`);
      return false;
    }
    await this.record(leased.tranId, leased.actionId, outcomeOfReply(asked.response));
    this.logger.log(`${NOUN[leased.actionType]} ${leased.actionId} of ${leased.tranId} resolved: ${asked.response.result}`);
    return true;
  }

  private ask(kind: FollowUpKind, request: HostFollowUpRequestV1, waitMs: number): Promise<HostAsk> {
    const options = { timeoutMs: waitMs };
    return askConnector(SUBJECT[kind], request.requestId, () => {
      switch (kind) {
        case 'VOID':
          return this.host.void(request, options);
        case 'REFUND':
          return this.host.refund(request, options);
        case 'CAPTURE':
          return this.host.capture(request, options);
      }
    });
  }

  /** Locks and checks, then appends the PENDING action (committed before the host is asked); a repeated requestId is answered at once. */
  private start(command: FollowUpCommand): Promise<Started> {
    return this.uow.run(async () => {
      // An id that cannot be a transaction id names none: 404, not 400.
      if (!TRAN_ID_PATTERN.test(command.tranId)) throw DomainError.notFound(`transaction ${command.tranId} does not exist`);
      const found = requireOwned(await this.transactions.findById(command.tranId), command.groupId, `transaction ${command.tranId}`);
      const amountMinor = command.amount === undefined ? undefined : this.minorOf(command.amount, found.currency);
      // The merchant's zone as it is now (fields 12/13), read before the lock: a profile read, not part of the transaction's state.
      const profile = (await this.profiles.get(found.profileId))?.profile ?? null;
      const { transaction, actions, openBatchNo, heldUntil } = await this.lock(found);
      // A retry of an /api/v2 request sent before the namespaces finds its action by the id it had then.
      // An /api/v2 key reused for another kind on this transaction finds that request, and is refused 422 as another request.
      const legacyKey = legacyIdempotencyKeyOf(command.requestId);
      const repeat =
        actions.find((action) => action.clientRequestId === command.requestId) ??
        actions.find((action) => action.legacyRequestId === command.requestId) ??
        (legacyKey === undefined
          ? undefined
          : actions.find((action) => legacyIdempotencyKeyOf(action.clientRequestId) === legacyKey || legacyIdempotencyKeyOf(action.legacyRequestId) === legacyKey));
      if (repeat) {
        this.requireSameRequest(command, amountMinor, repeat, transaction.currency);
        return { kind: 'answered', reply: this.replyOf(transaction, actions, repeat, transaction.version) };
      }
      if (heldUntil) throw new TerminalHeldError(terminalKeyOf(transaction), heldUntil);
      const now = this.clock.now();
      const context = { openBatchNo, now, authorizationValidityMs: this.settings.authorizationValidityMs, askingMs: requestAskingMs(this.settings) };
      const plan = this.plan(command.kind, transaction, actions, amountMinor, context);
      const actionId = `act_${this.ids.bytes(16).toString('base64url')}`;
      const built = this.hostRequestOf(transaction, actions, plan, actionId, profile);
      // To the terminal's host as its acceptance names it now: an acquirer address edit moves it (review r14n).
      const target = await this.identities.targetNow(this.typeOrm.manager, built.target, transaction.groupId, transaction.profileId);
      const hostRequest: HostFollowUpRequestV1 = { ...built, target };
      const terminal = [this.typeOrm.manager, transaction.groupId, target.hostMessageFormat, target.connUrl, target.mid, target.tid] as const;
      // A void takes back what is in the PBO's own batch: not on a terminal another PBO holds now (review r14o).
      if (command.kind === 'VOID' && (await this.identities.heldByAnother(...terminal)))
        throw DomainError.conflict(
          `transaction ${transaction.id} cannot be voided here: its terminal (${terminalNameOf(target)}) is another PBO's now, and a void on it would act on that PBO's batch at the host; nothing was sent; take it up with the acquirer`,
        );
      // A refund or capture books money in the terminal's batch at the host: not once the PBO gave the terminal up (review r14k).
      if (command.kind !== 'VOID' && !(await this.identities.holds(...terminal)))
        throw DomainError.conflict(
          `transaction ${transaction.id} cannot be ${command.kind === 'REFUND' ? 'refunded' : 'captured'} here: its terminal (${terminalNameOf(target)}) was given up (no live device of this PBO uses it at that host, where its acquirer is now), and what it books would go into that terminal's batch at the host; take it up with the acquirer`,
        );
      const action = pendingAction({
        id: actionId,
        tranId: transaction.id,
        actionType: command.kind,
        requestId: command.serviceRequestId ?? `req_${this.ids.bytes(16).toString('base64url')}`,
        amountMinor: plan.amountMinor,
        currency: transaction.currency,
        posReference: transaction.posReference,
        extraData: command.reason === undefined ? null : { reason: command.reason },
        hostRequest,
        clientRequestId: command.requestId,
        nextCheckAt: firstCheckAt(this.settings, now),
        createdAt: now,
      });
      await this.transactions.insertAction(action);
      return { kind: 'started', action, hostRequest };
    });
  }

  private plan(
    kind: FollowUpKind,
    transaction: Transaction,
    actions: TransactionAction[],
    amountMinor: string | undefined,
    context: Parameters<typeof planVoid>[2],
  ): FollowUpPlan {
    switch (kind) {
      case 'VOID':
        return planVoid(transaction, actions, context);
      case 'REFUND':
        if (amountMinor === undefined) throw DomainError.validation('amount is required for a refund');
        return planRefund(transaction, actions, amountMinor, context);
      case 'CAPTURE':
        return planCapture(transaction, actions, amountMinor, context);
    }
  }

  /** The amount in minor units of the transaction's currency, or a 400 naming it. */
  private minorOf(amount: string, currency: string): string {
    const exponent = currencyExponent(currency);
    const minor = decimalToMinor(amount, exponent);
    if (minor === null)
      throw DomainError.validation(`amount must be a decimal amount with at most ${exponent} decimals in ${currency}, the transaction's currency`);
    if (BigInt(minor) === 0n) throw DomainError.validation('amount must be more than zero');
    return minor;
  }

  /** A repeated requestId must repeat its request: the same kind, reason (absent and absent alike) and amount (when one is given); otherwise 422. */
  private requireSameRequest(command: FollowUpCommand, amountMinor: string | undefined, earlier: TransactionAction, currency: string): void {
    const requested =
      typeof earlier.extraData?.requestedAmount === 'string'
        ? earlier.extraData.requestedAmount
        : minorToDecimal(earlier.amountMinor, currencyExponent(currency));
    const sameAmount = amountMinor === undefined || minorToDecimal(amountMinor, currencyExponent(currency)) === requested;
    const earlierReason = typeof earlier.extraData?.reason === 'string' ? earlier.extraData.reason : undefined;
    if (earlier.actionType !== command.kind || !sameAmount || earlierReason !== command.reason)
      throw DomainError.unprocessable(
        `${requestNameOf(command.requestId)} was used for another request on transaction ${command.tranId} (${earlier.actionType} ${requested})`,
      );
  }

  /**
   * What the host is sent: the original's references, the amount, and the terminal and merchant
   * the sale was sent with, in the merchant's time zone as the profile has it now ({@link merchantNowOf}).
   */
  private hostRequestOf(
    transaction: Transaction,
    actions: TransactionAction[],
    plan: FollowUpPlan,
    actionId: string,
    profile: Pick<ProfileEntity, 'timeZone'> | null,
  ): HostFollowUpRequestV1 {
    const sale = actions.find((action) => action.actionType === 'NEW');
    const kept = sale?.hostRequest;
    const hostOriginal = hostOriginalOf(plan.original, plan.originalKind);
    if (!kept || !isKeptAuthorization(kept) || !hostOriginal)
      throw DomainError.conflict(`transaction ${transaction.id} cannot be followed up: what the host was sent for it is not known`);
    return {
      requestId: actionId,
      // A sale sent before targets named their PBO gets it from its transaction.
      target: { ...kept.target, groupId: transaction.groupId },
      timeoutMs: this.settings.hostTimeoutMs,
      amount: { minor: plan.amountMinor, currency: currencyInfo(transaction.currency)!.numeric },
      original: hostOriginal,
      merchant: merchantNowOf(kept.merchant, profile),
      ...(plan.final === true ? { finalRefund: true } : {}),
    };
  }

  /**
   * Records the host's outcome on a PENDING follow-up, with its transaction's change and event;
   * one already recorded (the resolver or the request came first) is answered as it is.
   */
  private record(tranId: string, actionId: string, outcome: SaleOutcome): Promise<GatewayTransactionReplyV1> {
    return this.uow.run(async () => {
      const locked = await this.lock(await this.requireTransaction(tranId));
      const { transaction, actions } = locked;
      const action = actions.find((each) => each.id === actionId);
      if (!action || !isFollowUpKind(action.actionType)) throw new Error(`follow-up ${actionId} of ${tranId} does not exist`);
      if (action.actionStatus !== 'PENDING') return this.replyOf(transaction, actions, action, transaction.version);
      const written = await this.writeOutcome(transaction, actions, action, locked.openBatchNo, outcome);
      return this.replyOf(written.transaction, written.actions, written.actions.find((each) => each.id === action.id)!, written.version);
    });
  }

  /**
   * Writes the host's outcome of a follow-up on its transaction (locked by the caller, batch row
   * first, in its open unit of work): the action, the transaction's sums and status and batch
   * effects ({@link changesOfApproval}), one new version and its `gateway.transaction.updated.v1`.
   * `overrides` replaces what the outcome's reply would set on the action (a void completed by its
   * acknowledged repeat keeps the references it was sent with, and shows the reversal's state).
   */
  async writeOutcome(
    transaction: Transaction,
    actions: TransactionAction[],
    action: TransactionAction,
    openBatchNo: string | undefined,
    outcome: SaleOutcome,
    overrides: ActionChanges = {},
  ): Promise<WrittenTransaction> {
    if (!isFollowUpKind(action.actionType)) throw new Error(`action ${action.id} of ${transaction.id} is not a follow-up`);
    const kind = action.actionType;
    const now = this.clock.now();
    const response = outcome.response;
    const approved = outcome.actionStatus === 'SUCCESS';
    const exponent = currencyExponent(transaction.currency);
    // A partial approval books what the host approved, never more than was asked.
    const partial = approved && response?.partial === true && response.approvedAmount ? response.approvedAmount.minor : null;
    const bookedMinor = partial !== null && BigInt(partial) < BigInt(action.amountMinor) ? partial : action.amountMinor;
    const extraData: Record<string, unknown> = { ...(action.extraData ?? {}) };
    if (bookedMinor !== action.amountMinor) extraData.requestedAmount = minorToDecimal(action.amountMinor, exponent);
    if (approved && kind === 'CAPTURE') {
      // A partial capture releases the rest of the authorisation.
      const released = BigInt(transaction.approvedMinor ?? transaction.amountMinor) - BigInt(bookedMinor);
      if (released > 0n) extraData.releasedAmount = minorToDecimal(released, exponent);
    }
    const actionChanges: ActionChanges = {
      actionStatus: outcome.actionStatus,
      reason: outcome.reason,
      trace: response?.stan ?? '',
      hostRespCode: response?.hostRespCode ?? null,
      hostRespMessage: outcome.hostRespMessage.slice(0, 256),
      rrn: response?.rrn?.slice(0, 64) ?? null,
      approvalCode: response?.approvalCode?.slice(0, 16) ?? null,
      hostMti: response?.mti ?? null,
      hostStan: response?.stan ?? null,
      hostTransmittedAt: response?.transmittedAt ?? null,
      hostOrderId: response?.orderId ?? null,
      amountMinor: bookedMinor,
      extraData: Object.keys(extraData).length === 0 ? null : extraData,
      // Refunds and captures book money in the terminal's open batch; a void books none.
      batchNo: approved && kind !== 'VOID' ? (openBatchNo ?? null) : null,
      nextCheckAt: null,
      updatedAt: now,
      ...overrides,
    };
    const changes = approved ? changesOfApproval(transaction, kind, bookedMinor, openBatchNo) : {};
    return this.writer.write(transaction, { ...changes, updatedAt: now }, actions, { id: action.id, changes: actionChanges });
  }

  /** A follow-up whose outcome the request could not learn stays PENDING, published and answered 504; the resolver finishes it. */
  private keepPending(tranId: string, actionId: string, detail: string): Promise<GatewayTransactionReplyV1> {
    return this.uow.run(async () => {
      const { transaction, actions } = await this.lock(await this.requireTransaction(tranId));
      const action = actions.find((each) => each.id === actionId);
      if (!action) throw new Error(`follow-up ${actionId} of ${tranId} does not exist`);
      if (action.actionStatus !== 'PENDING') return this.replyOf(transaction, actions, action, transaction.version);
      const now = this.clock.now();
      const message = `outcome unknown (${detail}); the gateway asks the host connector again until it knows`.slice(0, 256);
      const changes: ActionChanges = { hostRespMessage: message, updatedAt: now };
      const written = await this.writer.write(transaction, { updatedAt: now }, actions, { id: action.id, changes });
      return this.replyOf(written.transaction, written.actions, { ...action, ...changes }, written.version);
    });
  }

  private async requireTransaction(tranId: string): Promise<Transaction> {
    const transaction = await this.transactions.findById(tranId);
    if (!transaction) throw new Error(`transaction ${tranId} disappeared`);
    return transaction;
  }

  /**
   * Locks in settlement's order: the terminal's batch row (shared) first, then the transaction
   * (exclusive). The terminal of a transaction never changes, so it is read before the lock.
   */
  async lock(found: Transaction): Promise<LockedTransaction> {
    const terminal = await this.batches.lockShared(terminalKeyOf(found));
    const transaction = await this.transactions.lockById(found.id);
    if (!transaction) throw new Error(`transaction ${found.id} disappeared`);
    return {
      transaction,
      actions: await this.transactions.actionsOf(found.id),
      openBatchNo: terminal?.batchNo,
      heldUntil: isHeld(terminal, this.clock.now()) ? terminal.settleHoldUntil : undefined,
    };
  }

  private replyOf(transaction: Transaction, actions: readonly TransactionAction[], action: TransactionAction, version: number): GatewayTransactionReplyV1 {
    const refusal = refusalOfAction(action, { now: this.clock.now(), askingMs: requestAskingMs(this.settings) });
    return { transaction: toGatewayTransaction(transaction, actions), version, acquirerKey: transaction.acquirerKey, actionId: action.id, refusal };
  }
}

/** A follow-up's terminal as a refusal names it: MID, TID and host (`describeTerminal`). */
function terminalNameOf(target: HostTargetV1): string {
  const identity = terminalIdentityOf(target.hostMessageFormat, target.connUrl, target.mid, target.tid);
  return identity === null ? `MID ${target.mid} / TID ${target.tid}` : describeTerminal(identity);
}
