import { openContextDataSource } from '@app/database';
import { createTestDatabase } from '@app/testing';
import { hostConnectorDatabase } from '../database';
import { KeptCardFollowUp1764460000000 } from './1764460000000-kept-card-follow-up';

describe('kept card data without track data: migration 1764460000000', () => {
  it('should delete the rows kept before it, which sealed the whole EMV data (track 2 equivalent, cryptogram), and roll back', async () => {
    const db = await createTestDatabase('keptcard');
    const migrations = hostConnectorDatabase.migrations as unknown[];
    const before = migrations.slice(0, migrations.indexOf(KeptCardFollowUp1764460000000));
    const old = await openContextDataSource(db.url, { ...hostConnectorDatabase, entities: [], migrations: before as never });
    try {
      await old.query(
        `INSERT INTO kept_card (format, endpoint, tid, stan, transmitted_at, sealed_card, expires_at) VALUES ('ISO8583', '127.0.0.1:8583', 'T1', '000001', '0102030405', 'v1.a.b.c', now() + interval '30 days')`,
      );
    } finally {
      await old.destroy();
    }
    const current = await openContextDataSource(db.url, hostConnectorDatabase);
    try {
      expect(await current.query(`SELECT * FROM kept_card`)).toEqual([]);
      await current.query(
        `INSERT INTO kept_card (group_id, format, mid, tid, stan, transmitted_at, sealed_card, expires_at) VALUES ('grp_a', 'ISO8583', 'MID1', 'T1', '000001', '0102030405', 'v1.a.b.c', now())`,
      );

      // Undone with the migrations that came after it.
      for (let i = migrations.length - 1; i >= migrations.indexOf(KeptCardFollowUp1764460000000); i--) await current.undoLastMigration();

      expect(await current.query(`SELECT * FROM kept_card`)).toEqual([]);
      const columns = (await current.query(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = 'host_connector' AND table_name = 'kept_card' ORDER BY 1`,
      )) as Array<{ column_name: string }>;
      expect(columns.map((column) => column.column_name)).toEqual(['endpoint', 'expires_at', 'format', 'sealed_card', 'stan', 'tid', 'transmitted_at']);
    } finally {
      await current.destroy();
      await db.drop();
    }
  });
});
