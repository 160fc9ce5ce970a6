import { enumChecksMigration } from '@app/database';

/**
 * The CHECKs of enum columns as one constant array each (`oneOfCheck`), not `IN (…)`:
 * PostgreSQL reads them again at every statement that writes their tables (docs/decisions.md,
 * "CHECKs of enums are constant arrays"). The same values as before, frozen here.
 */
export const ConstantEnumChecks1795900000000 = enumChecksMigration('ConstantEnumChecks1795900000000', 'payment_gateway', [
  { table: 'webhook_delivery', name: 'ck_webhook_delivery_state', column: 'state', values: ['PENDING', 'DELIVERED', 'FAILED', 'SUPERSEDED'] },
  { table: 'profile', name: 'ck_profile_entity_status', column: 'entity_status', values: ['ACTIVE', 'DISABLED'] },
  { table: 'acceptance', name: 'ck_acceptance_entity_status', column: 'entity_status', values: ['ACTIVE', 'DISABLED'] },
  { table: 'payment_transaction', name: 'ck_payment_transaction_tran_type', column: 'tran_type', values: ['SALE', 'AUTH', 'CAPTURE', 'VOID', 'REFUND', 'REVERSAL'] },
  { table: 'payment_transaction', name: 'ck_payment_transaction_tran_status', column: 'tran_status', values: ['PENDING', 'APPROVED', 'DECLINED', 'REVERSED', 'VOIDED', 'REFUNDED', 'CLOSED'] },
  { table: 'payment_transaction', name: 'ck_payment_transaction_settle_state', column: 'settle_state', values: ['OPEN', 'SETTLING', 'SETTLED', 'SETTLE_FAILED'] },
  { table: 'transaction_action', name: 'ck_transaction_action_type', column: 'action_type', values: ['NEW', 'CAPTURE', 'VOID', 'REFUND', 'REVERSAL'] },
  { table: 'transaction_action', name: 'ck_transaction_action_status', column: 'action_status', values: ['PENDING', 'SUCCESS', 'FAILED'] },
  { table: 'batch_settlement', name: 'ck_batch_settlement_state', column: 'state', values: ['SETTLING', 'SETTLED', 'SETTLE_FAILED'] },
]);
