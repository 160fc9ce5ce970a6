import { ContextDatabaseDefinition, contextDataSourceOptions, openContextDataSource, pendingSchemaChanges } from '@app/database';
import { DataSource } from 'typeorm';
import { createTestDatabase } from './test-database';

/**
 * The checks every context's migrations must pass, as `it` cases of the calling `describe`:
 * entities and migrations agree (CHECK constraints to the expression: `synchronize` compares them by
 * name only), and every migration rolls back to an empty schema.
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

  it('should define every CHECK constraint as its entity does, validated, and enum CHECKs as constant arrays', async () => {
    const migrated = await createTestDatabase();
    const synchronized = await createTestDatabase();
    const fromMigrations = await openContextDataSource(migrated.url, definition);
    const fromEntities = new DataSource({ ...contextDataSourceOptions(synchronized.url, definition), migrations: [] });
    const checksOf = (dataSource: DataSource): Promise<Array<{ table: string; name: string; definition: string; validated: boolean }>> =>
      dataSource.query(
        `SELECT c.relname AS table, k.conname AS name, pg_get_constraintdef(k.oid) AS definition, k.convalidated AS validated
           FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND k.contype = 'c' ORDER BY 1, 2`,
        [definition.schema],
      );
    try {
      await fromEntities.initialize();
      await fromEntities.query(`CREATE SCHEMA IF NOT EXISTS "${definition.schema}"`);
      await fromEntities.synchronize();
      const checks = await checksOf(fromMigrations);
      expect(checks).toEqual(await checksOf(fromEntities));
      // `column IN ('A', …)` is stored as an array of coerced constants that every write parses again: oneOfCheck.
      expect(checks.filter((check) => check.definition.includes("ARRAY['"))).toEqual([]);
    } finally {
      await fromMigrations.destroy();
      if (fromEntities.isInitialized) await fromEntities.destroy();
      await migrated.drop();
      await synchronized.drop();
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
