import { GatewayTransactionUpdatedV1, GatewayTransactionV1 } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { ActionChanges, TransactionChanges, TransactionRepository } from './persistence/transaction.repository';
import type { Transaction, TransactionAction } from './transaction';
import { toGatewayTransaction } from './transaction.mapping';

/** A transaction as a change left it: its rows, what the API shows, and the version of its event. */
export interface WrittenTransaction {
  transaction: Transaction;
  actions: TransactionAction[];
  view: GatewayTransactionV1;
  version: number;
}

/** What the API shows of a transaction as a change left it, and the change's event (at the transaction's version). */
export function eventOf(updated: Transaction, updatedActions: readonly TransactionAction[]): { view: GatewayTransactionV1; event: GatewayTransactionUpdatedV1 } {
  const view = toGatewayTransaction(updated, updatedActions);
  return { view, event: { version: updated.version, groupId: updated.groupId, merchantId: updated.merchantId, transaction: view, acquirerKey: updated.acquirerKey } };
}

/**
 * Writes one change of a transaction (locked by the caller, in its open unit of work): the row,
 * optionally one of its actions, and its `gateway.transaction.updated.v1` with the next version,
 * through the outbox. Every writer of a transaction's life (sale outcome, follow-ups, settlement,
 * the authorisation close) goes through here, so no change is ever written without its event.
 */
@Injectable()
export class TransactionChangeWriter {
  constructor(private readonly transactions: TransactionRepository) {}

  async write(
    transaction: Transaction,
    changes: TransactionChanges,
    actions: readonly TransactionAction[],
    action?: { id: string; changes: ActionChanges },
  ): Promise<WrittenTransaction> {
    const version = transaction.version + 1;
    const rowChanges = { ...changes, version };
    await this.transactions.update(transaction.id, rowChanges);
    if (action) await this.transactions.updateAction(action.id, action.changes);
    return this.announce(
      { ...transaction, ...rowChanges },
      actions.map((each) => (action && each.id === action.id ? { ...each, ...action.changes } : each)),
    );
  }

  /**
   * The event of a change already written (by a writer that wrote the rows its own way, in the
   * same open unit of work): `gateway.transaction.updated.v1` at the transaction's version, through the outbox.
   */
  async announce(updated: Transaction, updatedActions: TransactionAction[]): Promise<WrittenTransaction> {
    const { view, event } = eventOf(updated, updatedActions);
    await this.transactions.enqueueUpdated(event);
    return { transaction: updated, actions: updatedActions, view, version: updated.version };
  }
}
