import { GatewayTransactionV1 } from '@app/contracts';

/**
 * What a version of a transaction tells its callbackUrl: the transaction's status and the outcome
 * of each action the host answered (the sale's, then each void, refund or capture, approved or
 * declined). Two versions with the same outcome differ only in what the merchant's server is not
 * called for: settlement steps (SETTLING, SETTLED), a batch roll-over, a follow-up still in
 * flight (docs/decisions.md, "Webhooks are outcomes").
 */
export function webhookOutcomeOf(transaction: Pick<GatewayTransactionV1, 'tranStatus' | 'actions'>): string {
  const answered = transaction.actions.filter((action) => action.actionStatus !== 'PENDING').map((action) => `${action.actionId}:${action.actionStatus}`);
  return JSON.stringify([transaction.tranStatus, answered]);
}
