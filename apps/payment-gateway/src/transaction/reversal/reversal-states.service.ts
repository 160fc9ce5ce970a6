import { Clock } from '@app/common';
import { UnitOfWork } from '@app/database';
import { HostReversalUpdatedV1 } from '@app/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { FollowUpService } from '../follow-up/follow-up.service';
import { TransactionRepository } from '../persistence/transaction.repository';
import { TransactionChangeWriter } from '../transaction-change-writer';
import type { ActionReversal, Transaction, TransactionAction } from '../transaction';
import { acknowledgedVoidOpen, actionReversalOf, consequenceOf, ReversalConsequence, supersedes } from './reversal-state';

export type ReversalStateOutcome = 'applied' | 'stale' | 'no-such-action';

/**
 * Puts the connector's reversal states (`host.reversal.updated.v1`) on the action whose host
 * request was reversed, through the transaction's change path: the action's `reversal`, the
 * transaction's next version and its `gateway.transaction.updated.v1`. The acknowledged repeat of a
 * void sent as a reversal completes the void ({@link consequenceOf}): recorded as an approved void
 * is (FollowUpService.writeOutcome), or, when the transaction can no longer take it, kept on the
 * action with why and logged as an error for an operator. Idempotent without an inbox: a state
 * already shown (a redelivery) or older than it changes nothing.
 */
@Injectable()
export class ReversalStates {
  private readonly logger = new Logger('ReversalStates');

  constructor(
    private readonly transactions: TransactionRepository,
    private readonly followUps: FollowUpService,
    private readonly writer: TransactionChangeWriter,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  apply(update: HostReversalUpdatedV1): Promise<ReversalStateOutcome> {
    return this.uow.run(async () => {
      const found = await this.transactions.findActionById(update.requestId);
      // A request of another caller of the connector (not a gateway action): nothing of ours to show it on.
      if (found === null) return 'no-such-action';
      const unlocked = await this.transactions.findById(found.tranId);
      if (unlocked === null) return 'no-such-action';
      // Settlement's lock order (the terminal's batch row shared, then the transaction): a void completed here cannot slip into a batch being closed.
      const { transaction, actions, openBatchNo } = await this.followUps.lock(unlocked);
      const action = actions.find((each) => each.id === found.id)!;
      if (!supersedes(update, action.reversal)) return 'stale';
      await this.enact(transaction, actions, action, actionReversalOf(update), consequenceOf(update, action, transaction), openBatchNo);
      return 'applied';
    });
  }

  /**
   * A settle of the transaction's batch ended (`outcome`), in the settle's unit of work, its
   * transactions locked: a void whose acknowledgement came while the batch was SETTLING
   * (`after-settle`) is recorded now, as a void if the settle failed, as not recorded if it
   * settled (docs/decisions.md, "A void acknowledged while its batch settles"). Answers whether it
   * wrote the transaction (its version moved on).
   */
  async settleEnded(transaction: Transaction, actions: TransactionAction[], outcome: 'SETTLED' | 'SETTLE_FAILED'): Promise<boolean> {
    const action = actions.find(acknowledgedVoidOpen);
    if (!action?.reversal) return false;
    const consequence = consequenceOf(action.reversal, action, { ...transaction, settleState: outcome });
    if (consequence.kind !== 'complete-void' && consequence.kind !== 'not-recorded') return false;
    await this.enact(transaction, actions, action, action.reversal, consequence, undefined);
    return true;
  }

  private async enact(
    transaction: Transaction,
    actions: TransactionAction[],
    action: TransactionAction,
    reversal: ActionReversal,
    consequence: ReversalConsequence,
    openBatchNo: string | undefined,
  ): Promise<void> {
    switch (consequence.kind) {
      case 'after-settle':
        this.logger.warn(`void ${action.id} of ${transaction.id}: the host acknowledged its repeat while its batch settles; recorded when that settle ends`);
        await this.writer.write(transaction, {}, actions, { id: action.id, changes: { reversal, updatedAt: this.clock.now() } });
        break;
      case 'show': {
        // An operator abandoned it: the action's message, which says it is repeated, says so after (review r16f).
        const abandoned = reversal.state === 'ABANDONED' && action.reversal?.state !== 'ABANDONED';
        const hostRespMessage = abandoned
          ? `${action.hostRespMessage ?? ''}; then an operator abandoned its reversal, having checked with the acquirer (${reversal.operatorNote ?? ''})`.slice(0, 256)
          : undefined;
        await this.writer.write(transaction, {}, actions, {
          id: action.id,
          changes: { reversal, updatedAt: this.clock.now(), ...(hostRespMessage === undefined ? {} : { hostRespMessage }) },
        });
        break;
      }
      case 'not-recorded':
        this.logger.error(`void ${action.id} of ${transaction.id}: ${consequence.why}; NOT recorded here: reconcile it with the acquirer (the cardholder has the money back)`);
        await this.writer.write(transaction, {}, actions, {
          id: action.id,
          changes: { reversal: { ...reversal, notRecorded: consequence.why.slice(0, 256) }, updatedAt: this.clock.now() },
        });
        break;
      case 'complete-void': {
        // An operator's end carries no code of the host's: the last one may be a refusal (review r16f).
        const byOperator = reversal.operatorNote !== undefined;
        const code = byOperator ? null : (reversal.lastResponseCode ?? '00');
        const message = byOperator
          ? `no answer in time; an operator recorded it as done, having checked with the acquirer (${reversal.operatorNote}): voided`
          : `no answer in time; its repeat was acknowledged by the host (${code}): voided`;
        await this.followUps.writeOutcome(
          transaction,
          actions,
          action,
          openBatchNo,
          { tranStatus: 'APPROVED', actionStatus: 'SUCCESS', reason: 'HostSuccess', hostRespMessage: message, response: null },
          // The references it was sent with stay (the repeat is the same message); the host's code is the acknowledgement's.
          {
            trace: action.trace,
            hostRespCode: code,
            rrn: action.rrn,
            approvalCode: action.approvalCode,
            hostMti: action.hostMti,
            hostStan: action.hostStan,
            hostTransmittedAt: action.hostTransmittedAt,
            hostOrderId: action.hostOrderId ?? null,
            reversal,
          },
        );
        this.logger.log(`void ${action.id} of ${transaction.id} completed ${byOperator ? 'by an operator' : `by its acknowledged repeat (${code})`}: VOIDED`);
        break;
      }
    }
  }
}
