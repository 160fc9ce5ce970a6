import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';

interface PgPool {
  query<T>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[]; rowCount: number | null }>;
}

function poolOf(dataSource: DataSource): PgPool {
  return (dataSource.driver as unknown as { master: PgPool }).master;
}

/**
 * Runs a named prepared statement on a DataSource's pool: PostgreSQL parses and plans it once
 * per connection instead of on every call. For hot, fixed-shape reads (a merchant by id) whose
 * planning costs more than their execution.
 */
export async function queryPrepared<T>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<T[]> {
  const result = await poolOf(dataSource).query<T>({ name, text, values });
  return result.rows;
}

/** The statement names {@link queryNamed} gave, by text (bounded: texts are built from a few shapes). */
const NAMES = new Map<string, string>();
const MAX_NAMES = 1000;

/** A name of `text` that no other text gets (a digest of it): the pg driver refuses one name for two texts on a connection. */
function statementName(text: string): string {
  let name = NAMES.get(text);
  if (name === undefined) {
    name = `s_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    if (NAMES.size < MAX_NAMES) NAMES.set(text, name);
  }
  return name;
}

/** What {@link queryNamed} answers: the rows (those RETURNING gave, for a write) and how many rows the statement touched. */
export interface StatementResult<T> {
  rows: T[];
  rowCount: number;
}

/**
 * Runs one statement of the hot paths (a sale's writes) as a prepared statement named after its
 * text: PostgreSQL parses it once per connection, and plans it once when a generic plan does
 * (docs/decisions.md, "bench:sale: CPU per approved sale"); a third of the backend's CPU of a
 * plain statement in a measure of the connector's claim. Outside a transaction, on the pool (the
 * statement commits alone, as `manager.query` would); inside one (`manager` bound to a unit of
 * work), on its connection through TypeORM, unnamed.
 */
export async function queryNamed<T>(on: DataSource | EntityManager, text: string, values: unknown[]): Promise<StatementResult<T>> {
  const runner = on instanceof DataSource ? undefined : on.queryRunner;
  if (runner !== undefined && !runner.isReleased) {
    const result = await runner.query(text, values, true);
    return { rows: result.records as T[], rowCount: result.affected ?? result.records.length };
  }
  const dataSource = on instanceof DataSource ? on : on.connection;
  const result = await poolOf(dataSource).query<T>({ name: statementName(text), text, values });
  return { rows: result.rows, rowCount: result.rowCount ?? 0 };
}
