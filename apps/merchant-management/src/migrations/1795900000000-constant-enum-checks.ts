import { enumChecksMigration } from '@app/database';

/**
 * The CHECKs of enum columns as one constant array each (`oneOfCheck`), not `IN (…)`:
 * PostgreSQL reads them again at every statement that writes their tables (docs/decisions.md,
 * "CHECKs of enums are constant arrays"). The same values as before, frozen here.
 */
export const ConstantEnumChecks1795900000000 = enumChecksMigration('ConstantEnumChecks1795900000000', 'merchant_management', [
  { table: 'acquirer_profile', name: 'ck_acquirer_profile_acq_type', column: 'acq_type', values: ['card', 'qr'] },
]);
