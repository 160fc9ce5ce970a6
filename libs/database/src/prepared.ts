import { DataSource } from 'typeorm';

interface PgPool {
  query<T>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[] }>;
}

/**
 * Runs a named prepared statement on a DataSource's pool: PostgreSQL parses and plans it once
 * per connection instead of on every call. For hot, fixed-shape reads (a merchant by id) whose
 * planning costs more than their execution.
 */
export async function queryPrepared<T>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master: PgPool }).master;
  const result = await pool.query<T>({ name, text, values });
  return result.rows;
}
