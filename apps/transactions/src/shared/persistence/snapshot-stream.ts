import { DataSource, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** Rows read in chunks from one snapshot, and how many there are in it. */
export interface StreamedRows<T> {
  total: number;
  chunks: AsyncGenerator<T[]>;
}

/** How a list is ordered newest first: a time column and a unique tie-breaker, both in the query's alias. */
export interface NewestFirst<T> {
  alias: string;
  time: string;
  tie: string;
  timeOf(row: T): Date;
  tieOf(row: T): string | number;
}

/**
 * Every row of a list (`pageSize=-1`) in chunks of `chunkSize`, newest first, from one
 * REPEATABLE READ READ ONLY snapshot, so the count and the rows agree while the process holds at
 * most one chunk (docs/ARCHITECTURE "Scale": -1 streams). Keyset pagination on (time, tie), which
 * the list's index serves; the connection is held until the chunks end or the consumer stops
 * (`return()`), and released then.
 */
export async function streamNewestFirst<T extends ObjectLiteral>(
  dataSource: DataSource,
  build: (manager: EntityManager) => SelectQueryBuilder<T>,
  order: NewestFirst<T>,
  chunkSize = 500,
): Promise<StreamedRows<T>> {
  const runner = dataSource.createQueryRunner('slave');
  await runner.connect();
  let total: number;
  try {
    await runner.startTransaction('REPEATABLE READ');
    await runner.query('SET TRANSACTION READ ONLY');
    total = await build(runner.manager).getCount();
  } catch (error) {
    await end(runner.isTransactionActive ? () => runner.rollbackTransaction() : undefined, () => runner.release());
    throw error;
  }
  async function* chunks(): AsyncGenerator<T[]> {
    try {
      let last: T | undefined;
      for (;;) {
        const query = build(runner.manager);
        if (last) {
          query.andWhere(`(${order.alias}.${order.time}, ${order.alias}.${order.tie}) < (:lastTime, :lastTie)`, {
            lastTime: order.timeOf(last),
            lastTie: order.tieOf(last),
          });
        }
        const rows = await query.orderBy(`${order.alias}.${order.time}`, 'DESC').addOrderBy(`${order.alias}.${order.tie}`, 'DESC').take(chunkSize).getMany();
        if (rows.length > 0) yield rows;
        if (rows.length < chunkSize) return;
        last = rows[rows.length - 1];
      }
    } finally {
      await end(
        () => runner.rollbackTransaction(),
        () => runner.release(),
      );
    }
  }
  return { total, chunks: chunks() };
}

async function end(...steps: Array<(() => Promise<void>) | undefined>): Promise<void> {
  for (const step of steps) await step?.().catch(() => undefined);
}
