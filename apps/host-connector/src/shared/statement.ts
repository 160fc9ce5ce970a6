/** A parameterised SQL statement ($1, $2, … in `sql`), to be run alone or alongside another in one round trip. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * `main` and `alongside` (a data-modifying statement: INSERT, UPDATE or DELETE, without RETURNING
 * read by `main`) as one statement, `alongside` in a WITH clause: one round trip, one commit, both
 * or neither (PostgreSQL runs a data-modifying WITH query whether or not it is read). `alongside`'s
 * parameters come after `main`'s, renumbered.
 */
export function withAlongside(main: Statement, alongside: Statement | undefined): Statement {
  if (alongside === undefined) return main;
  const shift = main.params.length;
  const sql = alongside.sql.replace(/\$(\d+)/g, (_, index: string) => `$${Number(index) + shift}`);
  return { sql: `WITH alongside AS (${sql}) ${main.sql}`, params: [...main.params, ...alongside.params] };
}
