import { enumChecksMigration } from '@app/database';

/**
 * The CHECKs of enum columns as one constant array each (`oneOfCheck`), not `IN (…)`:
 * PostgreSQL reads them again at every statement that writes their tables (docs/decisions.md,
 * "CHECKs of enums are constant arrays"). The same values as before, frozen here.
 */
export const ConstantEnumChecks1795900000000 = enumChecksMigration('ConstantEnumChecks1795900000000', 'host_connector', [
  { table: 'reversal', name: 'ck_reversal_status', column: 'status', values: ['PENDING', 'ACKNOWLEDGED', 'ABANDONED'] },
  { table: 'reversal', name: 'ck_reversal_effect', column: 'effect', values: ['UNDOES_REQUEST', 'COMPLETES_REQUEST'] },
  { table: 'working_key', name: 'ck_working_key_source', column: 'source', values: ['SIGNON', 'KEY_EXCHANGE'] },
]);
