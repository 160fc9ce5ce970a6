/**
 * bench:sale's SQL counter (`--count-sql`): wraps pg's `Client.prototype.query` in the sale server's
 * process (bench only) and counts every statement sent to PostgreSQL by its text (whitespace folded,
 * parameters excluded) and every commit: an explicit COMMIT, or a statement sent outside BEGIN…COMMIT
 * (autocommit). On SIGWINCH (ignored by default, and not among the signals Nest's shutdown hooks take, as SIGUSR2 is) it writes the counts so far to <dir>/sql-<label>-<n>.json; the bench
 * signals before and after the measured load and reads the difference over the approved sales.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

export interface SqlCounts {
  statements: Record<string, number>;
  commits: number;
}

const IN_TRANSACTION = Symbol('benchInTransaction');

/** The statement's text as counted: whitespace folded, cut at 160 characters. */
export function statementKey(text: string): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  return folded.length > 160 ? `${folded.slice(0, 160)}…` : folded;
}

export function countSql(dir: string, label: string): void {
  const counts: SqlCounts = { statements: {}, commits: 0 };
  // The same texts come again and again: folded once each, so that counting costs the measured process little.
  const keys = new Map<string, string>();
  const prototype = Client.prototype as unknown as { query: (...args: unknown[]) => unknown; [IN_TRANSACTION]?: boolean };
  const query = prototype.query;
  prototype.query = function (this: { [IN_TRANSACTION]?: boolean }, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : first && typeof first === 'object' && 'text' in first ? String((first as { text: unknown }).text) : undefined;
    if (text !== undefined) {
      let key = keys.get(text);
      if (key === undefined) keys.set(text, (key = statementKey(text)));
      counts.statements[key] = (counts.statements[key] ?? 0) + 1;
      const verb = key.split(' ')[0].toUpperCase();
      if (verb === 'BEGIN' || verb === 'START') this[IN_TRANSACTION] = true;
      else if ((verb === 'COMMIT' || verb === 'ROLLBACK') && !/^ROLLBACK TO/i.test(key)) {
        if (verb === 'COMMIT') counts.commits++;
        this[IN_TRANSACTION] = false;
      } else if (!this[IN_TRANSACTION]) counts.commits++;
    }
    return query.apply(this, args);
  };
  let n = 0;
  process.on('SIGWINCH', () => writeFileSync(join(dir, `sql-${label}-${n++}.json`), JSON.stringify(counts)));
}

/** `after − before`, per statement (those sent at least once in between), most frequent first. */
export function sqlDelta(before: SqlCounts, after: SqlCounts): SqlCounts {
  const statements: Record<string, number> = {};
  for (const [key, count] of Object.entries(after.statements).sort((a, b) => b[1] - a[1])) {
    const delta = count - (before.statements[key] ?? 0);
    if (delta > 0) statements[key] = delta;
  }
  return { statements, commits: after.commits - before.commits };
}
