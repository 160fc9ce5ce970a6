import { openContextDataSource } from '@app/database';
import { createTestDatabase } from '@app/testing';
import { hostConnectorDatabase } from '../database';
import { NewWorkingKey, WorkingKeyRepository } from '../keys/persistence/working-key.repository';
import { WorkingKeyGroup1764447000000 } from './1764447000000-working-key-group';

describe('working keys per PBO: migration 1764447000000 and the repository', () => {
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

      // Back down to before this migration, through those that came after it.
      for (let index = migrations.length - 1; index >= migrations.indexOf(WorkingKeyGroup1764447000000); index -= 1) await current.undoLastMigration();

      expect(await current.query(`SELECT tid, key_check_value FROM working_key`)).toEqual([{ tid: 'T1', key_check_value: 'ABC123' }]);
    } finally {
      await current.destroy();
      await db.drop();
    }
  });

  it("should retire the legacy key of a terminal once a PBO's key is stored for it, and keep every other terminal's and PBO's", async () => {
    const db = await createTestDatabase('wkretire');
    const dataSource = await openContextDataSource(db.url, hostConnectorDatabase);
    try {
      const keys = new WorkingKeyRepository(dataSource);
      const key = (groupId: string, tid: string, keyCheckValue: string): NewWorkingKey => ({
        groupId,
        format: 'ISO8583',
        endpoint: 'acq:8583',
        tid,
        sealedKey: `v1.${keyCheckValue}`,
        keyCheckValue,
        source: 'SIGNON',
        hostUrl: 'tcp://acq:8583',
        mid: 'MID1',
        acptId: 'acpt_1',
        acquirerId: null,
        exchangeInMs: 60_000,
      });
      await keys.store(key('', 'T1', 'AAAAAA'));
      await keys.store(key('', 'T2', 'BBBBBB'));
      await keys.store(key('grp_a', 'T9', 'CCCCCC'));

      await keys.store(key('grp_a', 'T1', 'DDDDDD'));
      await keys.store(key('grp_b', 'T1', 'EEEEEE'));

      expect(await dataSource.query(`SELECT group_id, tid, key_check_value FROM working_key ORDER BY tid, group_id`)).toEqual([
        { group_id: 'grp_a', tid: 'T1', key_check_value: 'DDDDDD' },
        { group_id: 'grp_b', tid: 'T1', key_check_value: 'EEEEEE' },
        { group_id: '', tid: 'T2', key_check_value: 'BBBBBB' },
        { group_id: 'grp_a', tid: 'T9', key_check_value: 'CCCCCC' },
      ]);
    } finally {
      await dataSource.destroy();
      await db.drop();
    }
  });
});
