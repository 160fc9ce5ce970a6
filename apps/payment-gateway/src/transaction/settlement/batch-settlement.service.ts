import { Clock, DomainError, ErrorCode, errorMessage, IdGenerator } from '@app/common';
import {
  currencyExponent,
  currencyInfo,
  GatewayBatchSettleReplyV1,
  GatewayBatchSettleRequestV1,
  GatewayBatchTotalsV1,
  GatewayRefusalV1,
  GatewaySettleState,
  HOST_BATCH_MAX_TRANSACTIONS,
  HOST_SETTLE_V1,
  HostResponseV1,
  HostSettleRequestV1,
  HostTargetV1,
  HostTotalsV1,
  minorToDecimal,
} from '@app/contracts';
import { TypeOrmUnitOfWork, UnitOfWork } from '@app/database';
import { HostClient, refusingWith } from '@app/messaging';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { merchantNowOf } from '../../profile/host-target';
import type { ProfileEntity } from '../../profile/persistence/profile.entity';
import { requireOwned } from '../../shared/ownership';
import { askConnector } from '../host-outcome';
import { isHeld, TerminalBatchRepository, type TerminalBatchRow } from '../persistence/terminal-batch.repository';
import { TransactionRepository } from '../persistence/transaction.repository';
import { isKeptAuthorization, TerminalKey, terminalKeyOf, type Transaction, type TransactionAction } from '../transaction';
import { SaleProfiles } from '../sale-profiles';
import { TransactionChangeWriter } from '../transaction-change-writer';
import { TRANSACTION_SETTINGS, TransactionSettings } from '../transaction-settings';
import { batchContents, type BatchContents } from './batch-contents';
import type { BatchSettlement, BatchTotalsMinor } from './batch-settlement';
import { BatchSettlementRepository } from './persistence/batch-settlement.repository';
import { COMPLETING_VOID_RETRY_SECONDS } from '../follow-up/follow-up-rules';
import { voidHoldsSettle } from '../reversal/reversal-state';
import { ReversalStates } from '../reversal/reversal-states.service';
import { drained, heldByAnother } from './terminal-hold';
import { callerHostMessage } from '../../shared/host-reply';
import { TerminalIdentityRepository } from '../../profile/persistence/terminal-identity.repository';

/** A batch's transactions, locked, and the actions of each. */
interface LockedBatch {
  locked: Transaction[];
  actions: Map<string, TransactionAction[]>;
}

/** What the claim of a settlement found: a batch to reconcile with the host now, or an outcome to answer again. */
type Claim = { kind: 'claimed'; settlement: BatchSettlement } | { kind: 'answered'; reply: GatewayBatchSettleReplyV1 };

/** A settlement's hold of its terminal (`terminal_batch.settle_hold_id`). */
interface TerminalHold {
  key: TerminalKey;
  id: string;
}

/**
 * What a settlement request does with the batch it names (the terminal's row locked): `close` the
 * open batch; `answer` a closed batch's outcome again (SETTLED, or SETTLE_FAILED to its own
 * requestId); `retry` a failed one under another requestId; `take-over` one SETTLING whose request
 * ran out of time; `busy` while that request may still finish; `never-closed` an older number.
 */
type SettleStep = 'close' | 'answer' | 'retry' | 'take-over' | 'busy' | 'never-closed';

function stepOf(request: GatewayBatchSettleRequestV1, openBatchNo: string, settlement: BatchSettlement | null, now: Date): SettleStep {
  if (!settlement) return request.batchNo === openBatchNo ? 'close' : 'never-closed';
  switch (settlement.state) {
    case 'SETTLED':
      return 'answer';
    case 'SETTLE_FAILED':
      return settlement.requestId === request.requestId ? 'answer' : 'retry';
    case 'SETTLING':
      return settlement.claimedUntil !== null && settlement.claimedUntil > now ? 'busy' : 'take-over';
  }
}

/** What a settle request says of its batch: its totals, and its transactions for an upload when no more than one can carry (else the host's reconciliation alone decides). */
function hostBatchOf(contents: BatchContents): Pick<HostSettleRequestV1, 'totals' | 'transactions'> {
  const { totals, uploads } = contents;
  return {
    totals: { saleCount: totals.paymentCount, saleMinor: totals.paymentMinor, refundCount: totals.refundCount, refundMinor: totals.refundMinor },
    transactions: uploads.length <= HOST_BATCH_MAX_TRANSACTIONS ? uploads : undefined,
  };
}

/** A reply that settles nothing: the request was refused. */
export function refusedSettleReply(refusal: GatewayRefusalV1): GatewayBatchSettleReplyV1 {
  return { outcome: null, totals: null, hostTotals: null, reconciliation: null, hostRespCode: null, hostRespMessage: '', tranIds: [], refusal };
}

/** The host's totals (sales and refunds) in the gateway's shape: sales are its payments; hosts count no voids. */
function totalsOfHost(host: HostTotalsV1): BatchTotalsMinor {
  return {
    paymentCount: host.saleCount,
    paymentMinor: host.saleMinor,
    refundCount: host.refundCount,
    refundMinor: host.refundMinor,
    voidCount: 0,
    voidMinor: '0',
  };
}

function decimalTotals(totals: BatchTotalsMinor, currency: string): GatewayBatchTotalsV1 {
  const exponent = currencyExponent(currency);
  return {
    paymentCount: totals.paymentCount,
    paymentAmount: minorToDecimal(totals.paymentMinor, exponent),
    refundCount: totals.refundCount,
    refundAmount: minorToDecimal(totals.refundMinor, exponent),
    voidCount: totals.voidCount,
    voidAmount: minorToDecimal(totals.voidMinor, exponent),
  };
}

/**
 * The transaction that says where a batch is settled and for which merchant (a first close and a
 * retry alike): the newest it settles. An authorisation rolled over from an earlier batch, whose
 * acceptance the request may name, never decides it (review r14q); the terminal's newest of that
 * acceptance only when the batch settles none (refunds of earlier batches alone).
 */
function namingTransaction(contents: BatchContents, terminal: Transaction): Transaction {
  return contents.settled.reduce<Transaction | undefined>((newest, each) => (newest === undefined || each.createdAt > newest.createdAt ? each : newest), undefined) ?? terminal;
}

/**
 * Why a batch that holds authorisations not captured yet and nothing else is not closed (a close would
 * send the host an all-zero batch and roll them on into the next one, at every settle), and what would
 * let it settle. An empty batch (its only AUTH closed after 7 days, say) is closed as before.
 */
function onlyUncapturedAuthorizations(key: TerminalKey, batchNo: string, contents: BatchContents): string | undefined {
  if (contents.rolledOver.length === 0 || contents.settled.length > 0 || contents.totals.refundCount > 0) return undefined;
  const shown = contents.rolledOver.slice(0, 5).map((transaction) => transaction.id);
  const more = contents.rolledOver.length > shown.length ? ` and ${contents.rolledOver.length - shown.length} more` : '';
  return `batch ${batchNo} of terminal ${key.mid}/${key.tid} has nothing to settle: it holds only authorisations not captured yet (${shown.join(', ')}${more}), which book nothing until captured; capture them (their captures settle in this batch) or void them (the batch then closes with zero totals); nothing was sent to the host`;
}

/**
 * `gateway.batch.settle.v1` (issue 13): closes a terminal's batch and reconciles it with the host.
 *
 * 0. The terminal is held (its batch row's `settle_hold_*`): no sale or follow-up of it starts a
 *    host request until the host's answer is recorded, and the terminal's requests already with
 *    the host are waited for (docs/decisions.md, "Settling while traffic flows").
 * 1. Under the terminal's batch row locked exclusively (approvals and follow-ups hold it shared,
 *    so none is half way in the batch), with no void in flight on the batch: the batch number
 *    advances (new approvals go to the next batch), the batch's transactions become SETTLING
 *    (authorisations not captured yet roll over to the next batch), its totals and the
 *    `host.settle.v1` request are kept on a `batch_settlement` row; committed. A batch that
 *    holds authorisations not captured yet and nothing else is refused.
 * 2. The host is asked (the request carries the batch's approved sales, captures and refunds for
 *    an upload should the host find the totals out of balance).
 * 3. The outcome is recorded on the row and the transactions (SETTLED, or SETTLE_FAILED), with
 *    their events, in one database transaction.
 *
 * A settlement of a batch already closed answers from its row: its outcome once it has one (a
 * SETTLE_FAILED batch is reconciled again by a request with another requestId), 409 while another
 * request is on it, and after that request's time is up the same host request again (the
 * connector answers a requestId it handled from its log), so a batch is never settled twice.
 */
@Injectable()
export class BatchSettlementService {
  private readonly logger = new Logger('BatchSettlement');

  constructor(
    private readonly settlements: BatchSettlementRepository,
    private readonly transactions: TransactionRepository,
    private readonly batches: TerminalBatchRepository,
    private readonly writer: TransactionChangeWriter,
    private readonly host: HostClient,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(TRANSACTION_SETTINGS) private readonly settings: TransactionSettings,
    private readonly profiles: SaleProfiles,
    private readonly reversalStates: ReversalStates,
    private readonly identities: TerminalIdentityRepository,
    private readonly typeOrm: TypeOrmUnitOfWork,
  ) {}

  /** Business refusals are answered (`refusal`), never thrown. */
  settle(request: GatewayBatchSettleRequestV1): Promise<GatewayBatchSettleReplyV1> {
    return refusingWith(async () => {
      const hold = await this.hold(request);
      try {
        if (hold) await drained(hold.key, () => this.uow.run(() => this.settlements.inFlightOn(hold.key)), this.settings.settleDrainMs, this.clock);
        const claim = await this.claim(request, hold);
        if (claim.kind === 'answered') return claim.reply;
        return await this.reconcile(claim.settlement);
      } finally {
        if (hold)
          await this.uow
            .run(() => this.batches.release(hold.key, hold.id))
            .catch((error: unknown) => this.logger.warn(`terminal ${hold.key.mid}/${hold.key.tid} not let go (its hold lapses by itself): ${errorMessage(error)}`));
      }
    }, refusedSettleReply);
  }

  /** Asks the host to reconcile the claimed batch and records its answer. */
  private async reconcile(settlement: BatchSettlement): Promise<GatewayBatchSettleReplyV1> {
    const hostRequest = settlement.hostRequest;
    const asked = await askConnector(HOST_SETTLE_V1, hostRequest.requestId, () =>
      this.host.settle(hostRequest, { timeoutMs: this.settings.settleTimeoutMs + this.settings.replyMarginMs }),
    );
    if (asked.kind === 'reply') return this.record(settlement.id, asked.response);
    // Nothing learnt: the next settlement of the batch takes it over at once and asks the same request again.
    await this.uow.run(() => this.settlements.update(settlement.id, { claimedUntil: this.clock.now(), updatedAt: this.clock.now() }));
    const what = `batch ${settlement.batchNo} of terminal ${settlement.tid}`;
    this.logger.warn(`settlement of ${what}: ${asked.detail}`);
    if (asked.kind === 'not-delivered') throw new DomainError(ErrorCode.Upstream, `${asked.detail}; ${what} stays SETTLING: settle it again`);
    throw new DomainError(ErrorCode.UpstreamTimeout, `the outcome of settling ${what} is not known yet (${asked.detail}); settle it again to learn it`);
  }

  /** The terminal the request names (tenancy checked), its row locked exclusively, and the settlement of the batch it names. */
  private async lockTerminal(request: GatewayBatchSettleRequestV1): Promise<{ key: TerminalKey; terminal: Transaction; row: TerminalBatchRow; settlement: BatchSettlement | null }> {
    const newest = await this.settlements.newestOfTerminal(request);
    const terminal = requireOwned(newest, request.groupId, `terminal ${request.mid}/${request.tid} (${request.currency}) of acceptance ${request.acceptanceId}`);
    const key = terminalKeyOf(terminal);
    const row = await this.batches.lockExclusive(key);
    if (row === undefined) throw DomainError.notFound(`terminal ${request.mid}/${request.tid} (${request.currency}) has no batch`);
    return { key, terminal, row, settlement: await this.settlements.lockByBatch(key, request.batchNo) };
  }

  /**
   * Holds the terminal when the request will ask its host (it closes the open batch, or reconciles
   * a closed one again): from now until the host's answer is recorded no sale or follow-up of it
   * starts a host request (they wait, {@link TransactionSettings.settleWaitMs}). Undefined when the
   * request is answered without the host. Another settlement holding it: 409, retryable.
   */
  private hold(request: GatewayBatchSettleRequestV1): Promise<TerminalHold | undefined> {
    return this.uow.run(async () => {
      const { key, row, settlement } = await this.lockTerminal(request);
      const now = this.clock.now();
      const step = stepOf(request, row.batchNo, settlement, now);
      if (step !== 'close' && step !== 'retry' && step !== 'take-over') return undefined;
      if (isHeld(row, now)) throw heldByAnother(key, row.settleHoldUntil, now);
      const id = `hold_${this.ids.bytes(16).toString('base64url')}`;
      const { settleDrainMs, settleTimeoutMs, replyMarginMs } = this.settings;
      await this.batches.hold(key, id, new Date(now.getTime() + settleDrainMs + settleTimeoutMs + replyMarginMs));
      return { key, id };
    });
  }

  /** Under the terminal's row locked exclusively (and held by `hold`, when the host is to be asked): the batch closed or taken, or its outcome. */
  private claim(request: GatewayBatchSettleRequestV1, hold: TerminalHold | undefined): Promise<Claim> {
    return this.uow.run(async () => {
      const { key, terminal, row, settlement } = await this.lockTerminal(request);
      const now = this.clock.now();
      const step = stepOf(request, row.batchNo, settlement, now);
      const what = `batch ${request.batchNo} of terminal ${request.mid}/${request.tid}`;
      // The host is asked only under this request's hold: one that lapsed may be another's now, or another request came between.
      if (step !== 'answer' && step !== 'never-closed' && step !== 'busy' && (hold === undefined || row.settleHoldId !== hold.id))
        throw DomainError.conflict(`terminal ${request.mid}/${request.tid} is not held for settling ${what} (another request came between); settle again`);
      switch (step) {
        case 'close':
          return this.close(request, terminal, key, row.batchNo);
        case 'never-closed':
          throw DomainError.notFound(`${what} was never closed; its open batch is ${row.batchNo}`);
        case 'busy':
          throw DomainError.conflict(`${what} is being settled; ask again later`);
        case 'answer':
          return { kind: 'answered', reply: await this.replyOf(settlement!) };
        case 'retry':
          return this.retry(request, settlement!, now, terminal);
        case 'take-over': {
          // The request before did not finish: the same host request again, which the connector answers once.
          const claimedUntil = this.claimEnd(now);
          await this.settlements.update(settlement!.id, { requestId: request.requestId, claimedUntil, updatedAt: now });
          return { kind: 'claimed', settlement: { ...settlement!, requestId: request.requestId, claimedUntil } };
        }
      }
    });
  }

  /** Closes the open batch (the terminal's row is locked exclusively): the next batch opens, the closed one is kept with its totals. */
  private async close(request: GatewayBatchSettleRequestV1, terminal: Transaction, key: TerminalKey, batchNo: string): Promise<Claim> {
    const now = this.clock.now();
    const next = await this.batches.nextNumber(key);
    await this.batches.advance(key, next, now);
    const { locked, actions } = await this.lockedBatch(key, batchNo);
    // Refused (the unit of work rolls the batch's advance back): the batch could count a sale the host is voiding.
    const holding = [...actions.values()].flat().find(voidHoldsSettle);
    if (holding)
      throw DomainError.conflict(
        `batch ${batchNo} of terminal ${key.mid}/${key.tid} has a void in flight (${holding.id}: waiting for the host, or repeated until the host answers it); settle it once the host has answered the void, or an operator who learnt its outcome from the acquirer has ended its reversal (reversals end)`,
        COMPLETING_VOID_RETRY_SECONDS,
      );
    const contents = await this.contentsOf(key, batchNo, { locked, actions });
    // Refused (the advance rolls back): review r14t.
    const refusal = onlyUncapturedAuthorizations(key, batchNo, contents);
    if (refusal) throw DomainError.conflict(refusal);
    for (const transaction of contents.rolledOver) await this.writer.write(transaction, { batchNo: next, updatedAt: now }, actions.get(transaction.id) ?? []);
    for (const transaction of contents.settled)
      await this.writer.write(transaction, { settleState: 'SETTLING', updatedAt: now }, actions.get(transaction.id) ?? []);
    const named = namingTransaction(contents, terminal);
    const kept = (actions.get(named.id) ?? (await this.transactions.actionsOf(named.id))).find((action) => action.actionType === 'NEW')?.hostRequest;
    if (!kept || !isKeptAuthorization(kept)) throw new Error(`transaction ${named.id} keeps no host request to name its terminal by`);
    const id = `stl_${this.ids.bytes(16).toString('base64url')}`;
    const hostRequest: HostSettleRequestV1 = {
      requestId: `${id}-1`,
      target: await this.targetNow(kept.target, named),
      timeoutMs: this.settings.settleTimeoutMs,
      batchNo,
      currency: currencyInfo(key.currency)!.numeric,
      ...hostBatchOf(contents),
      // Fields 12/13 in the merchant's zone as it is now (a merchant that moved since the sale).
      merchant: merchantNowOf(kept.merchant, await this.currentProfile(named)),
    };
    const settlement: BatchSettlement = {
      ...key,
      id,
      batchNo,
      acceptanceId: request.acceptanceId,
      state: 'SETTLING',
      requestId: request.requestId,
      attempts: 1,
      hostRequest,
      totals: contents.totals,
      hostTotals: null,
      reconciliation: null,
      hostRespCode: null,
      hostRespMessage: '',
      claimedUntil: this.claimEnd(now),
      settledAt: null,
      createdAt: now,
      updatedAt: null,
    };
    await this.settlements.insert(settlement);
    this.logger.log(`batch ${batchNo} of terminal ${key.mid}/${key.tid} closed (${contents.settled.length} transactions); batch ${next} open`);
    return { kind: 'claimed', settlement };
  }

  /**
   * A failed batch reconciled again by another request, under a host request of its own, its
   * totals and uploads counted again: a void the host acknowledged after the failed attempt
   * counted its sale is counted as a void now (docs/decisions.md, "A void acknowledged while its
   * batch settles").
   */
  private async retry(request: GatewayBatchSettleRequestV1, settlement: BatchSettlement, now: Date, terminal: Transaction): Promise<Claim> {
    const attempts = settlement.attempts + 1;
    const contents = await this.contentsOf(settlement, settlement.batchNo, await this.lockedBatch(settlement, settlement.batchNo));
    const named = namingTransaction(contents, terminal);
    // A new host request: its 12/13 in the merchant's zone as it is now, like a first close.
    const merchant = merchantNowOf(settlement.hostRequest.merchant, await this.currentProfile(named));
    const retried: BatchSettlement = {
      ...settlement,
      state: 'SETTLING',
      requestId: request.requestId,
      attempts,
      totals: contents.totals,
      hostRequest: {
        ...settlement.hostRequest,
        ...hostBatchOf(contents),
        requestId: `${settlement.id}-${attempts}`,
        target: await this.targetNow(settlement.hostRequest.target, named),
        merchant,
      },
      claimedUntil: this.claimEnd(now),
      updatedAt: now,
    };
    await this.settlements.update(settlement.id, {
      state: retried.state,
      requestId: retried.requestId,
      attempts,
      totals: retried.totals,
      hostRequest: retried.hostRequest,
      claimedUntil: retried.claimedUntil,
      updatedAt: now,
    });
    await this.markBatch(settlement, 'SETTLE_FAILED', 'SETTLING');
    return { kind: 'claimed', settlement: retried };
  }

  /** The transactions of the terminal's batch `batchNo`, locked, with their actions. */
  private async lockedBatch(key: TerminalKey, batchNo: string): Promise<LockedBatch> {
    const locked = await this.settlements.lockBatchTransactions(key, batchNo);
    return { locked, actions: await this.settlements.actionsOfMany(locked.map((transaction) => transaction.id)) };
  }

  /** What the batch settles and rolls over, counted from its transactions and the refunds booked in it. */
  private async contentsOf(key: TerminalKey, batchNo: string, { locked, actions }: LockedBatch): Promise<BatchContents> {
    return batchContents(
      locked.map((transaction) => ({ transaction, actions: actions.get(transaction.id) ?? [] })),
      await this.settlements.refundsBookedIn(key, batchNo),
    );
  }

  /**
   * The terminal's host as the PBO's acceptances of its acquirer name it now (an acquirer address
   * edit moves it: review r14n); refused (409, the caller's unit of work rolls back) when another
   * PBO holds the terminal there: a 0500 on it would close that PBO's batch at the host (review r14o).
   */
  private async targetNow(target: HostTargetV1, terminal: Transaction): Promise<HostTargetV1> {
    const now = await this.identities.targetNow(this.typeOrm.manager, target, terminal.groupId, terminal.profileId);
    if (await this.identities.heldByAnother(this.typeOrm.manager, terminal.groupId, now.hostMessageFormat, now.connUrl, now.mid, now.tid))
      throw DomainError.conflict(
        `the batch of terminal ${now.mid}/${now.tid} cannot be settled here: the terminal is another PBO's now, and a settle on it would close that PBO's batch at the host; nothing was sent; take it up with the acquirer`,
      );
    return now;
  }

  /** The profile of the terminal's newest transaction as it is now (its time zone); null when it is gone. */
  private async currentProfile(terminal: Transaction): Promise<ProfileEntity | null> {
    return (await this.profiles.get(terminal.profileId))?.profile ?? null;
  }

  /** Records the host's answer on the batch and its transactions, unless another request recorded it first. */
  private record(id: string, response: HostResponseV1): Promise<GatewayBatchSettleReplyV1> {
    return this.uow.run(async () => {
      const settlement = await this.settlements.lockById(id);
      if (!settlement) throw new Error(`settlement ${id} disappeared`);
      if (settlement.state !== 'SETTLING' || settlement.hostRequest.requestId !== response.requestId) return this.replyOf(settlement);
      const now = this.clock.now();
      const outcome = response.result === 'APPROVED' ? 'SETTLED' : 'SETTLE_FAILED';
      const recorded: BatchSettlement = {
        ...settlement,
        state: outcome,
        hostTotals: response.hostTotals ? totalsOfHost(response.hostTotals) : null,
        reconciliation: response.reconciliation ?? null,
        hostRespCode: response.hostRespCode,
        hostRespMessage: callerHostMessage(response).slice(0, 512),
        claimedUntil: null,
        settledAt: outcome === 'SETTLED' ? now : null,
        updatedAt: now,
      };
      const { id: _id, groupId: _groupId, createdAt: _createdAt, ...changes } = recorded;
      await this.settlements.update(id, changes);
      await this.voidsAcknowledgedMeanwhile(settlement, outcome);
      await this.markBatch(settlement, 'SETTLING', outcome);
      this.logger.log(
        `batch ${settlement.batchNo} of terminal ${settlement.mid}/${settlement.tid}: ${outcome} (${response.result} ${response.hostRespCode ?? ''} ${response.reconciliation ?? ''})`,
      );
      return this.replyOf(recorded);
    });
  }

  /**
   * The voids of the batch the host acknowledged while it was SETTLING (their repeats), recorded
   * now that the settle has its outcome (ReversalStates.settleEnded): VOIDED when it failed (the
   * next settle counts the void), shown as not recorded when it settled.
   */
  private async voidsAcknowledgedMeanwhile(settlement: BatchSettlement, outcome: 'SETTLED' | 'SETTLE_FAILED'): Promise<void> {
    const locked = (await this.settlements.lockBatchTransactions(settlement, settlement.batchNo)).filter((transaction) => transaction.settleState === 'SETTLING');
    const actions = await this.settlements.actionsOfMany(locked.map((transaction) => transaction.id));
    for (const transaction of locked) await this.reversalStates.settleEnded(transaction, actions.get(transaction.id) ?? [], outcome);
  }

  /** Moves the batch's transactions from one settlement state to another, each with its event. */
  private async markBatch(settlement: BatchSettlement, from: GatewaySettleState, to: GatewaySettleState): Promise<void> {
    const now = this.clock.now();
    const locked = (await this.settlements.lockBatchTransactions(settlement, settlement.batchNo)).filter((transaction) => transaction.settleState === from);
    const actions = await this.settlements.actionsOfMany(locked.map((transaction) => transaction.id));
    for (const transaction of locked) await this.writer.write(transaction, { settleState: to, updatedAt: now }, actions.get(transaction.id) ?? []);
  }

  private async replyOf(settlement: BatchSettlement): Promise<GatewayBatchSettleReplyV1> {
    return {
      outcome: settlement.state === 'SETTLING' ? null : settlement.state,
      totals: decimalTotals(settlement.totals, settlement.currency),
      hostTotals: settlement.hostTotals ? decimalTotals(settlement.hostTotals, settlement.currency) : null,
      reconciliation: settlement.reconciliation,
      hostRespCode: settlement.hostRespCode,
      hostRespMessage: settlement.hostRespMessage,
      tranIds: await this.settlements.tranIdsOfBatch(settlement, settlement.batchNo),
      refusal: null,
    };
  }

  /** Until when a settlement request holds its batch: the host's time and the reply's margin. */
  private claimEnd(now: Date): Date {
    return new Date(now.getTime() + this.settings.settleTimeoutMs + this.settings.replyMarginMs);
  }
}
