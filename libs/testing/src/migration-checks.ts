import { ContextDatabaseDefinition, openContextDataSource, pendingSchemaChanges } from '@app/database';
import { createTestDatabase } from './test-database';

/**
 * The checks every context's migrations must pass, as `it` cases of the calling `describe`:
 * entities and migrations agree, and every migration rolls back to an empty schema.
 */
export function itChecksContextMigrations(definition: ContextDatabaseDefinition): void {
  it('should leave nothing for synchronize to change once applied (entities and migrations agree)', async () => {
    const db = await createTestDatabase();
    const dataSource = await openContextDataSource(db.url, definition);
    try {
      expect(await pendingSchemaChanges(dataSource)).toEqual([]);
    } finally {
      await dataSource.destroy();
      await db.drop();
    }
  });

  it('should roll every migration back to an empty schema', async () => {
    const db = await createTestDatabase();
    const dataSource = await openContextDataSource(db.url, definition);
    try {
      for (let i = 0; i < (definition.migrations as unknown[]).length; i++) await dataSource.undoLastMigration();
      const tables: { n: number }[] = await dataSource.query(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name <> 'migrations'",
        [definition.schema],
      );
      expect(tables[0].n).toBe(0);
    } finally {
      await dataSource.destroy();
      await db.drop();
    }
  });
}
