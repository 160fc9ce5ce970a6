import { openContextDataSource } from '@app/database';
import { createTestDatabase } from '@app/testing';
import { hostConnectorDatabase } from '../database';
import { WorkingKeyGroup1764447000000 } from './1764447000000-working-key-group';

describe('migration 1764447000000 (working keys per PBO)', () => {
  it('should keep the keys stored before it in the legacy scope, and roll back to one key per terminal', async () => {
    const db = await createTestDatabase('wkgroup');
    const migrations = hostConnectorDatabase.migrations as unknown[];
    const before = migrations.slice(0, migrations.indexOf(WorkingKeyGroup1764447000000));
    const old = await openContextDataSource(db.url, { ...hostConnectorDatabase, entities: [], migrations: before as never });
    try {
      await old.query(
        `INSERT INTO working_key (format, endpoint, tid, sealed_key, key_check_value, source, received_at) VALUES ('ISO8583', 'acq:8583', 'T1', 'v1.sealed', 'ABC123', 'SIGNON', now())`,
      );
    } finally {
      await old.destroy();
    }
    const current = await openContextDataSource(db.url, hostConnectorDatabase);
    try {
      expect(await current.query(`SELECT group_id, tid, key_check_value FROM working_key`)).toEqual([{ group_id: '', tid: 'T1', key_check_value: 'ABC123' }]);
      await current.query(
        `INSERT INTO working_key (group_id, format, endpoint, tid, sealed_key, key_check_value, source, received_at) VALUES ('grp_b', 'ISO8583', 'acq:8583', 'T1', 'v1.other', 'DEF456', 'SIGNON', now())`,
      );

      await current.undoLastMigration();

      expect(await current.query(`SELECT tid, key_check_value FROM working_key`)).toEqual([{ tid: 'T1', key_check_value: 'ABC123' }]);
    } finally {
      await current.destroy();
      await db.drop();
    }
  });
});
