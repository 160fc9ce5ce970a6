import { itChecksContextMigrations } from '@app/testing';
import { transactionsDatabase } from '../database';

describe('transactions migrations', () => {
  itChecksContextMigrations(transactionsDatabase);
});
