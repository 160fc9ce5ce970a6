import { createTestDatabase, TestDatabase } from '@app/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { contextDataSourceOptions } from '@app/database';
import { OutboxMessage } from './outbox-message.entity';
import { createOutboxMigration } from './outbox.migration';

const SCHEMA = 'msg_test';

describe('outbox migration', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('msg');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    await client.query(`CREATE SCHEMA "${SCHEMA}"`);
    await client.end();
    dataSource = await new DataSource(
      contextDataSourceOptions(database.url, {
        name: 'outbox-migration-test',
        schema: SCHEMA,
        entities: [OutboxMessage],
        migrations: [createOutboxMigration(SCHEMA, 1763800000000)],
      }),
    ).initialize();
    await dataSource.runMigrations();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('should leave no difference between the entity and the migrated schema', async () => {
    const log = await dataSource.driver.createSchemaBuilder().log();

    expect(log.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('should create the partial index of unpublished rows in the given schema', async () => {
    const rows: Array<{ indexdef: string }> = await dataSource.query('SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = $2', [
      SCHEMA,
      'ix_outbox_pending',
    ]);

    expect(rows).toHaveLength(1);
    expect(rows[0].indexdef).toContain('WHERE (published_at IS NULL)');
  });

  it('should drop the table when reverted', async () => {
    await dataSource.undoLastMigration();
    const rows: unknown[] = await dataSource.query('SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2', [SCHEMA, 'outbox']);
    await dataSource.runMigrations();

    expect(rows).toHaveLength(0);
  });

  it('should refuse a timestamp TypeORM cannot read back', () => {
    expect(() => createOutboxMigration(SCHEMA, 20250101)).toThrow(/13-digit/);
  });
});
