import { openContextDataSource, pendingSchemaChanges } from '@app/database';
import { createTestDatabase } from '@app/testing';
import { hostConnectorDatabase } from '../database';

describe('host-connector migrations', () => {
  it('should leave nothing for synchronize to change once applied (entities and migrations agree)', async () => {
    const db = await createTestDatabase();
    const dataSource = await openContextDataSource(db.url, hostConnectorDatabase);
    try {
      expect(await pendingSchemaChanges(dataSource)).toEqual([]);
    } finally {
      await dataSource.destroy();
      await db.drop();
    }
  });

  it('should roll every migration back to an empty schema', async () => {
    const db = await createTestDatabase();
    const dataSource = await openContextDataSource(db.url, hostConnectorDatabase);
    try {
      for (let i = 0; i < (hostConnectorDatabase.migrations as unknown[]).length; i++) await dataSource.undoLastMigration();
      const tables: { n: number }[] = await dataSource.query(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'host_connector' AND table_name <> 'migrations'",
      );
      expect(tables[0].n).toBe(0);
    } finally {
      await dataSource.destroy();
      await db.drop();
    }
  });
});
