import { openContextDataSource, pendingSchemaChanges } from '@app/database';
import { createTestDatabase } from '@app/testing';
import { merchantManagementDatabase } from '../database';

describe('merchant-management migrations', () => {
  it('should leave nothing for synchronize to change once applied (entities and migrations agree)', async () => {
    const db = await createTestDatabase();
    const dataSource = await openContextDataSource(db.url, merchantManagementDatabase);
    try {
      expect(await pendingSchemaChanges(dataSource)).toEqual([]);
    } finally {
      await dataSource.destroy();
      await db.drop();
    }
  });

  it('should migrate once when several replicas start together', async () => {
    const db = await createTestDatabase();
    const sources = await Promise.all([1, 2, 3].map(() => openContextDataSource(db.url, merchantManagementDatabase)));
    try {
      const rows: { n: number }[] = await sources[0].query('SELECT count(*)::int AS n FROM merchant_management.migrations');
      expect(rows[0].n).toBe((merchantManagementDatabase.migrations as unknown[]).length);
    } finally {
      await Promise.all(sources.map((source) => source.destroy()));
      await db.drop();
    }
  });

  it('should roll every migration back to an empty schema', async () => {
    const db = await createTestDatabase();
    const dataSource = await openContextDataSource(db.url, merchantManagementDatabase);
    try {
      for (let i = 0; i < (merchantManagementDatabase.migrations as unknown[]).length; i++) await dataSource.undoLastMigration();
      const tables: { n: number }[] = await dataSource.query(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'merchant_management' AND table_name <> 'migrations'",
      );
      expect(tables[0].n).toBe(0);
    } finally {
      await dataSource.destroy();
      await db.drop();
    }
  });
});
