import { TypeOrmUnitOfWork } from '@app/database';
import { windowStartOf } from '../fixed-window';
import { previousWindowStartOf, slidingCount } from '../sliding-window';

/**
 * Failures counted per key per fixed window in one table (`<key columns>, window_start, failures`,
 * primary key on the key columns and the window), in the database so that every replica sees one
 * count and a restart forgets nothing. An attempt is counted before it is checked
 * ({@link reserve}) and given back when it was no failure ({@link release}): parallel guesses
 * cannot all read a count that none of them has raised yet.
 */
export class FailureWindowTable {
  private readonly keyMatch: string;
  private readonly windowParameter: string;

  constructor(
    private readonly uow: TypeOrmUnitOfWork,
    private readonly table: string,
    private readonly keyColumns: readonly string[],
  ) {
    this.keyMatch = keyColumns.map((column, index) => `${column} = $${index + 1}`).join(' AND ');
    this.windowParameter = `$${keyColumns.length + 1}`;
  }

  /** Counts an attempt and answers the window's total, in one statement. Windows older than a day are pruned on the way. */
  async reserve(key: readonly string[], windowStart: Date): Promise<number> {
    const columns = [...this.keyColumns, 'window_start'];
    const rows: { failures: number }[] = await this.uow.manager.query(
      `INSERT INTO ${this.table} (${columns.join(', ')}, failures) VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')}, 1)
       ON CONFLICT (${columns.join(', ')}) DO UPDATE SET failures = ${this.table}.failures + 1
       RETURNING failures`,
      [...key, windowStart],
    );
    await this.uow.manager.query(`DELETE FROM ${this.table} WHERE window_start < now() - interval '1 day'`);
    return rows[0].failures;
  }

  /**
   * Counts an attempt in the window `now` falls in and answers the failures of the sliding window
   * of `windowMs` that ends at `now` ({@link slidingCount}): the current window's count and the
   * previous one's, read in the statement that counts.
   */
  async reserveSliding(key: readonly string[], now: Date, windowMs: number): Promise<number> {
    const current = await this.reserve(key, windowStartOf(now, windowMs));
    const previous: { failures: number }[] = await this.uow.manager.query(
      `SELECT failures FROM ${this.table} WHERE ${this.keyMatch} AND window_start = ${this.windowParameter}`,
      [...key, previousWindowStartOf(now, windowMs)],
    );
    return slidingCount(current, previous[0]?.failures ?? 0, now, windowMs);
  }

  /** {@link release} for {@link reserveSliding}. */
  releaseSliding(key: readonly string[], now: Date, windowMs: number): Promise<void> {
    return this.release(key, windowStartOf(now, windowMs));
  }

  /** Gives back an attempt that turned out not to be a failure (a success, or one refused unchecked). */
  async release(key: readonly string[], windowStart: Date): Promise<void> {
    // A window whose only attempt is given back disappears; otherwise it counts one less.
    const where = `${this.keyMatch} AND window_start = ${this.windowParameter}`;
    const [, deleted] = (await this.uow.manager.query(`DELETE FROM ${this.table} WHERE ${where} AND failures <= 1`, [...key, windowStart])) as [
      unknown,
      number,
    ];
    if (deleted === 0) await this.uow.manager.query(`UPDATE ${this.table} SET failures = failures - 1 WHERE ${where}`, [...key, windowStart]);
  }
}
