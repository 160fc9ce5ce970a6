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

/**
 * Every row of every table in the schemas of the database at `url` (not PostgreSQL's own), or of
 * `schemas` only, each row as its JSON text.
 */
export async function dumpSchemas(url: string, schemas?: readonly string[]): Promise<TableDump[]> {
  const dataSource = new DataSource({ type: 'postgres', url });
  await dataSource.initialize();
  try {
    const tables = (await dataSource.query(
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg_toast%'
          AND ($1::text[] IS NULL OR table_schema = ANY($1::text[]))
        ORDER BY 1, 2`,
      [schemas === undefined ? null : [...schemas]],
    )) as Array<{ table_schema: string; table_name: string }>;
    const dumps: TableDump[] = [];
    for (const { table_schema: schema, table_name: table } of tables) {
      const rows = (await dataSource.query(`SELECT row_to_json(t)::text AS row FROM "${schema}"."${table}" t`)) as Array<{ row: string }>;
      dumps.push({ schema, table, rows: rows.map((row) => row.row) });
    }
    return dumps;
  } finally {
    await dataSource.destroy();
  }
}

/** Table dumps as the labelled texts {@link cardDataIn} reads: `schema.table (n rows)`, a row per line. */
export function textsOf(dumps: readonly TableDump[]): Array<{ label: string; text: string }> {
  return dumps.map(({ schema, table, rows }) => ({ label: `${schema}.${table} (${rows.length} rows)`, text: rows.join('\n') }));
}
