import { Clock } from '@app/common';
import { UnitOfWork } from '@app/database';
import { HostReversalUpdatedV1 } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { TransactionRepository } from '../persistence/transaction.repository';
import { TransactionChangeWriter } from '../transaction-change-writer';
import { actionReversalOf, supersedes } from './reversal-state';

export type ReversalStateOutcome = 'applied' | 'stale' | 'no-such-action';

/**
 * Puts the connector's reversal states (`host.reversal.updated.v1`) on the action whose host
 * request was reversed, through the transaction's change path: the action's `reversal`, the
 * transaction's next version and its `gateway.transaction.updated.v1`. Idempotent without an
 * inbox: a state already shown (a redelivery) or older than it changes nothing.
 */
@Injectable()
export class ReversalStates {
  constructor(
    private readonly transactions: TransactionRepository,
    private readonly writer: TransactionChangeWriter,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  apply(update: HostReversalUpdatedV1): Promise<ReversalStateOutcome> {
    return this.uow.run(async () => {
      const found = await this.transactions.findActionById(update.requestId);
      // A request of another caller of the connector (not a gateway action): nothing of ours to show it on.
      if (found === null) return 'no-such-action';
      const transaction = await this.transactions.lockById(found.tranId);
      if (transaction === null) return 'no-such-action';
      const actions = await this.transactions.actionsOf(transaction.id);
      const action = actions.find((each) => each.id === found.id)!;
      if (!supersedes(update, action.reversal)) return 'stale';
      await this.writer.write(transaction, {}, actions, { id: action.id, changes: { reversal: actionReversalOf(update), updatedAt: this.clock.now() } });
      return 'applied';
    });
  }
}
