import { Client } from 'pg';
import { DataSource, DataSourceOptions, EntitySchema, MixedList } from 'typeorm';
import { SnakeNamingStrategy } from './naming-strategy';

/** What a bounded context declares about its own schema. */
export interface ContextDatabaseDefinition {
  /** Connection name, also the Nest injection name (`merchant-management`). */
  name: string;
  /** The PostgreSQL schema the context owns (`merchant_management`). */
  schema: string;
  entities: MixedList<Function | string | EntitySchema>;
  migrations: MixedList<Function | string>;
  /** Pool size of this context's connections. */
  poolSize?: number;
}

/** TypeORM options of a context: its schema, its migrations, never `synchronize`. */
export function contextDataSourceOptions(url: string, definition: ContextDatabaseDefinition): DataSourceOptions {
  return {
    type: 'postgres',
    name: definition.name,
    url,
    schema: definition.schema,
    entities: definition.entities,
    migrations: definition.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    namingStrategy: new SnakeNamingStrategy(),
    // Raw SQL in repositories names tables unqualified: they resolve in the context's own schema.
    extra: { max: definition.poolSize ?? 10, application_name: definition.name, options: `-c search_path=${definition.schema} -c jit=off` },
  };
}

/** Runs `work` holding a PostgreSQL advisory lock, so replicas starting together migrate one at a time. */
async function withAdvisoryLock<T>(url: string, key: string, work: () => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
    }
  } finally {
    await client.end();
  }
}

/** Creates the context's schema if needed, initialises the DataSource and applies pending migrations. */
export async function openContextDataSource(url: string, definition: ContextDatabaseDefinition): Promise<DataSource> {
  const dataSource = new DataSource(contextDataSourceOptions(url, definition));
  await withAdvisoryLock(url, `migrate:${definition.schema}`, async () => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${definition.schema}"`);
    } finally {
      await client.end();
    }
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  });
  return dataSource;
}

/**
 * SQL that `synchronize` would run to make the database match the entities. Empty when the
 * migrations and the entities agree; anything else is drift.
 */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return log.upQueries.map((query) => query.query);
}

/** Creates a database on the server of `url` if it does not exist; answers the URL of it. */
export async function ensureDatabase(url: string, database: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
  const target = new URL(url);
  target.pathname = `/${database}`;
  return target.toString();
}
