import { DataSource } from 'typeorm';

/**
 * Card data where none may be (DECISIONS.md, "Card data"): looks for full PANs, in every form a
 * leak would take (digits, hex of packed BCD, track 2 with its separator), in every row of every
 * table of the application's schemas, and in log lines or messages a test collected. A finding
 * names where it was, never the PAN itself.
 */

/** The forms a PAN takes when it leaks: as digits, as the hex of its packed BCD (5A, 57), as track 2 (`=` or `D` separator). */
export function leakFormsOf(pan: string): string[] {
  const bcd = pan.length % 2 === 1 ? `${pan}F` : pan;
  return [pan, bcd.toUpperCase(), bcd.toLowerCase(), `${pan}=`, `${pan}D`, `${pan}d`];
}

/** Where any of `pans` shows up in `texts` (labelled), as `label (form n)` lines; empty when nowhere. */
export function cardDataIn(texts: Iterable<{ label: string; text: string }>, pans: readonly string[]): string[] {
  const findings: string[] = [];
  for (const { label, text } of texts) {
    for (const pan of pans) {
      const forms = leakFormsOf(pan);
      const index = forms.findIndex((form) => text.includes(form));
      if (index >= 0) findings.push(`${label}: a PAN ending ${pan.slice(-4)} (form ${index})`);
    }
  }
  return findings;
}

/** The rows of one table, each as its JSON text. */
export interface TableDump {
  schema: string;
  table: string;
  rows: string[];
}

/** What {@link dumpSchemas} reads through: an initialised TypeORM DataSource (its `query` answers the rows). */
export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * Every row of every table in the schemas of the database at `target` (a URL, or a connection a
 * caller keeps open to dump often), not PostgreSQL's own, or of `schemas` only, each row as its
 * JSON text, in a stable order (a dump taken twice of unchanged tables is equal).
 */
export async function dumpSchemas(target: string | Queryable, schemas?: readonly string[]): Promise<TableDump[]> {
  if (typeof target !== 'string') return dumpThrough(target, schemas);
  const dataSource = new DataSource({ type: 'postgres', url: target });
  await dataSource.initialize();
  try {
    return await dumpThrough(dataSource, schemas);
  } finally {
    await dataSource.destroy();
  }
}

async function tablesOf(connection: Queryable, schemas?: readonly string[]): Promise<Array<{ schema: string; table: string }>> {
  const tables = (await connection.query(
    `SELECT table_schema, table_name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg_toast%'
        AND ($1::text[] IS NULL OR table_schema = ANY($1::text[]))
      ORDER BY 1, 2`,
    [schemas === undefined ? null : [...schemas]],
  )) as Array<{ table_schema: string; table_name: string }>;
  return tables.map((row) => ({ schema: row.table_schema, table: row.table_name }));
}

async function dumpThrough(connection: Queryable, schemas?: readonly string[]): Promise<TableDump[]> {
  const dumps: TableDump[] = [];
  for (const { schema, table } of await tablesOf(connection, schemas)) {
    const rows = (await connection.query(`SELECT row_to_json(t)::text AS row FROM "${schema}"."${table}" t ORDER BY 1`)) as Array<{ row: string }>;
    dumps.push({ schema, table, rows: rows.map((row) => row.row) });
  }
  return dumps;
}

/** One table's rows in short: how many, and a hash of all of them (equal hashes: equal rows). */
export interface TableFingerprint {
  schema: string;
  table: string;
  rows: number;
  md5: string;
}

/**
 * A function that takes {@link dumpSchemas}'s dump in short, every table in one statement (a test
 * that compares the database before and after each of many requests: the fuzz suite). The tables
 * are listed once, when it is made; `exclude` leaves tables out by name.
 */
export async function schemaFingerprinter(
  connection: Queryable,
  options: { schemas?: readonly string[]; exclude?: RegExp } = {},
): Promise<() => Promise<TableFingerprint[]>> {
  const tables = (await tablesOf(connection, options.schemas)).filter(({ table }) => !options.exclude?.test(table));
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const sql = tables
    .map(
      ({ schema, table }) =>
        `SELECT ${quote(schema)} AS schema, ${quote(table)} AS "table", count(*)::int AS rows, md5(coalesce(string_agg(row_to_json(t)::text, E'\\n' ORDER BY row_to_json(t)::text), '')) AS md5 FROM "${schema}"."${table}" t`,
    )
    .join(' UNION ALL ');
  return async () => (tables.length ? ((await connection.query(sql)) as TableFingerprint[]) : []);
}

/** Table dumps as the labelled texts {@link cardDataIn} reads: `schema.table (n rows)`, a row per line. */
export function textsOf(dumps: readonly TableDump[]): Array<{ label: string; text: string }> {
  return dumps.map(({ schema, table, rows }) => ({ label: `${schema}.${table} (${rows.length} rows)`, text: rows.join('\n') }));
}

/** A FieldCipher-sealed value as it sits in a row: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
const SEALED_VALUE = /v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/**
 * The sealed values in `texts` opened with `open` (the FieldCipher's, under the data key the app
 * sealed them with), labelled `label (opened)`: what a sweep reads to prove that what is kept
 * sealed holds no track data either. A value `open` refuses (sealed under another key, or not a
 * sealed value after all) is left out; a caller that expects some asserts on how many it got.
 */
export function openedSealedTexts(texts: Iterable<{ label: string; text: string }>, open: (sealed: string) => string): Array<{ label: string; text: string }> {
  const opened: Array<{ label: string; text: string }> = [];
  for (const { label, text } of texts) {
    for (const sealed of text.match(SEALED_VALUE) ?? []) {
      try {
        opened.push({ label: `${label} (opened)`, text: open(sealed) });
      } catch {
        // Not one of this key's sealed values.
      }
    }
  }
  return opened;
}

/**
 * Where track 2 of any of `pans` (its track 2 equivalent, tag 57, as text with `=` or as the hex
 * of its packed BCD with the `D` separator) shows up in `texts`, as `label: track 2 of a PAN
 * ending nnnn` lines; empty when nowhere. The PAN alone is no finding here: it is what a connector
 * may keep sealed for follow-ups (PCI DSS 3.3.1 forbids the track, not the PAN).
 */
export function trackDataIn(texts: Iterable<{ label: string; text: string }>, pans: readonly string[]): string[] {
  const findings: string[] = [];
  for (const { label, text } of texts) {
    for (const pan of pans) {
      if ([`${pan}=`, `${pan}D`, `${pan}d`].some((form) => text.includes(form))) findings.push(`${label}: track 2 of a PAN ending ${pan.slice(-4)}`);
    }
  }
  return findings;
}
