import { itChecksContextMigrations } from '@app/testing';
import { hostConnectorDatabase } from '../database';

describe('host-connector migrations', () => {
  itChecksContextMigrations(hostConnectorDatabase);
});
