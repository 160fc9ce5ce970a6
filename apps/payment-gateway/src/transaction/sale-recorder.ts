import { Clock } from '@app/common';
import { GatewayTransactionV1 } from '@app/contracts';
import { UnitOfWork } from '@app/database';
import { OutboxRelay, uuidV7 } from '@app/messaging';
import { Injectable } from '@nestjs/common';
import { SaleOutcome } from './host-outcome';
import { actionReversalOf, supersedes } from './reversal/reversal-state';
import { IdempotencyScope } from './persistence/idempotency.repository';
import { IdempotencyService } from './idempotency.service';
import { TerminalBatchRepository } from './persistence/terminal-batch.repository';
import { ActionChanges, TransactionChanges, TransactionRepository } from './persistence/transaction.repository';
import { terminalKeyOf, type Transaction, type TransactionAction } from './transaction';
import { eventOf, TransactionChangeWriter } from './transaction-change-writer';
import { toGatewayTransaction } from './transaction.mapping';

/**
 * What the host's outcome of a PENDING sale changes: status and sums, and its NEW action. An
 * approval is in `batchNo` (the terminal's open batch); a sale books it on its action too, a
 * pre-authorisation books nothing until its capture.
 */
function outcomeChanges(
  transaction: Transaction,
  action: Pick<TransactionAction, 'reversal'>,
  outcome: SaleOutcome,
  batchNo: string | null,
  now: Date,
): { changes: TransactionChanges; actionChanges: ActionChanges } {
  const response = outcome.response;
  // A REVERSED reply carries the reversal the connector queued: shown at once, as GET shows it once its event is in (unless the event came first with a later state).
  const queued = response?.reversal;
  const reversal = queued && supersedes(queued, action.reversal) ? { reversal: actionReversalOf(queued) } : {};
  const approvedMinor = outcome.tranStatus === 'APPROVED' ? (response?.approvedAmount?.minor ?? transaction.amountMinor) : null;
  const hostFields = {
    trace: response?.stan ?? '',
    rrn: response?.rrn?.slice(0, 64) ?? null,
    approvalCode: response?.approvalCode?.slice(0, 16) ?? null,
  };
  return {
    changes: {
      ...hostFields,
      tranStatus: outcome.tranStatus,
      approvedMinor,
      // A sale captures what was approved; an authorisation captures later.
      capturedMinor: transaction.tranType === 'SALE' && approvedMinor !== null ? approvedMinor : '0',
      batchNo,
      iccResponse: response?.iccResponse ?? null,
      updatedAt: now,
    },
    actionChanges: {
      ...hostFields,
      actionStatus: outcome.actionStatus,
      reason: outcome.reason,
      hostRespCode: response?.hostRespCode ?? null,
      hostRespMessage: outcome.hostRespMessage.slice(0, 256),
      hostMti: response?.mti ?? null,
      hostStan: response?.stan ?? null,
      hostTransmittedAt: response?.transmittedAt ?? null,
      hostOrderId: response?.orderId ?? null,
      // A sale books its approval in the batch; a pre-authorisation books nothing until its capture.
      batchNo: transaction.tranType === 'SALE' ? batchNo : null,
      nextCheckAt: null,
      ...reversal,
      updatedAt: now,
    },
  };
}

/** The answers of a sale request, as the Idempotency-Key keeps them. */
export const SALE_CREATED_STATUS = 201;

/**
 * Writes what became of a pending sale, each time in one database transaction with its
 * `gateway.transaction.updated.v1` (outbox) and, for a request with an Idempotency-Key, the answer
 * it keeps. The sale path and the resolver of unknown outcomes both write through here; the
 * transaction row is locked first, so only one of them writes the outcome.
 */
@Injectable()
export class SaleRecorder {
  constructor(
    private readonly transactions: TransactionRepository,
    private readonly writer: TransactionChangeWriter,
    private readonly batches: TerminalBatchRepository,
    private readonly idempotency: IdempotencyService,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly relay: OutboxRelay,
  ) {}

  /**
   * Records the host's outcome of a PENDING sale: status and sums, its NEW action, the batch of an
   * approval (taken under a share lock of the terminal's batch row). A sale no longer PENDING
   * (the other writer came first) is answered as it is.
   */
  record(tranId: string, outcome: SaleOutcome, scope?: IdempotencyScope): Promise<GatewayTransactionV1> {
    return this.uow.run(async () => {
      const { transaction, actions, first } = await this.lockPending(tranId);
      if (transaction.tranStatus !== 'PENDING' || !first) return this.answer(transaction, actions, scope);
      const approved = outcome.tranStatus === 'APPROVED';
      const batchNo = approved ? await this.batches.openBatchNo(terminalKeyOf(transaction)) : null;
      const { changes, actionChanges } = outcomeChanges(transaction, first, outcome, batchNo, this.clock.now());
      return this.write(transaction, changes, actions, first, actionChanges, scope);
    });
  }

  /**
   * {@link record} for the sale path, which has just written `written` (PENDING, version 1, its
   * NEW action pending) and knows its rows: one statement, atomic without a transaction around
   * it, takes the terminal's batch and writes the outcome, its event and the kept answer while the
   * sale is still as written, without reading it back. When it is not (the resolver came first)
   * or the terminal has no batch row yet (its first approval), {@link record} decides as before.
   */
  async recordWritten(written: { transaction: Transaction; action: TransactionAction }, outcome: SaleOutcome, scope?: IdempotencyScope): Promise<GatewayTransactionV1> {
    const { transaction, action } = written;
    const approved = outcome.tranStatus === 'APPROVED';
    // The rows and the event as they will be, but for the batch number, which the statement takes and sets in the event (the answer is the event's transaction).
    const { changes, actionChanges } = outcomeChanges(transaction, action, outcome, null, this.clock.now());
    const { event } = eventOf({ ...transaction, ...changes, version: transaction.version + 1 }, [{ ...action, ...actionChanges }]);
    const { batchNo: _tranBatch, ...rowChanges } = changes;
    const { batchNo: _actionBatch, ...actionRowChanges } = actionChanges;
    const booked = await this.transactions.writeFirstOutcome({
      tranId: transaction.id,
      changes: rowChanges,
      actionId: action.id,
      actionChanges: actionRowChanges,
      batchOf: approved ? { terminal: terminalKeyOf(transaction), actionBooks: transaction.tranType === 'SALE' } : undefined,
      event: { id: uuidV7(), payload: event },
      answer: scope && { scope, status: SALE_CREATED_STATUS },
    });
    if (!booked) return this.record(transaction.id, outcome, scope);
    this.relay.notify();
    return booked.transaction;
  }

  /**
   * A sale whose outcome the request could not learn stays PENDING: its state is published (so
   * orders show it) and answered; the resolver finishes it. `detail` says why, on its action.
   */
  keepPending(tranId: string, detail: string, scope?: IdempotencyScope): Promise<GatewayTransactionV1> {
    return this.uow.run(async () => {
      const { transaction, actions, first } = await this.lockPending(tranId);
      if (transaction.tranStatus !== 'PENDING' || !first) return this.answer(transaction, actions, scope);
      const now = this.clock.now();
      const message = `outcome unknown (${detail}); the gateway asks the host connector again until it knows`;
      return this.write(transaction, { updatedAt: now }, actions, first, { hostRespMessage: message.slice(0, 256), updatedAt: now }, scope);
    });
  }

  private async lockPending(tranId: string): Promise<{ transaction: Transaction; actions: TransactionAction[]; first: TransactionAction | undefined }> {
    const transaction = await this.transactions.lockById(tranId);
    if (!transaction) throw new Error(`transaction ${tranId} does not exist`);
    const actions = await this.transactions.actionsOf(tranId);
    return { transaction, actions, first: actions.find((action) => action.actionType === 'NEW' && action.actionStatus === 'PENDING') };
  }

  private async write(
    transaction: Transaction,
    changes: TransactionChanges,
    actions: TransactionAction[],
    action: TransactionAction,
    actionChanges: ActionChanges,
    scope: IdempotencyScope | undefined,
  ): Promise<GatewayTransactionV1> {
    const written = await this.writer.write(transaction, changes, actions, { id: action.id, changes: actionChanges });
    return this.answer(written.transaction, written.actions, scope, written.view);
  }

  private async answer(
    transaction: Transaction,
    actions: TransactionAction[],
    scope: IdempotencyScope | undefined,
    view = toGatewayTransaction(transaction, actions),
  ): Promise<GatewayTransactionV1> {
    if (scope) await this.idempotency.answer(scope, SALE_CREATED_STATUS, view);
    return view;
  }
}
