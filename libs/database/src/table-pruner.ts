import { integer, PollingLoop, ValuesOf } from '@app/common';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Rows of one table that may go once they are old enough. */
export interface PruneRule {
  /** Table in the DataSource's schema. */
  table: string;
  /** SQL condition selecting the rows that may go, with `$1` the cutoff. */
  condition: string;
  /** The cutoff for a pass made now (a timestamp, or an id for time-ordered keys). */
  cutoff: () => unknown;
}

/** How long the platform keeps bookkeeping rows (outbox, inbox) once they have served. */
export interface RetentionConfig {
  /** MESSAGE_RETENTION_DAYS, in ms: published outbox rows and processed inbox rows. */
  messagesMs: number;
  /** RETENTION_INTERVAL_MS: how often each process prunes. */
  intervalMs: number;
}

export const DEFAULT_RETENTION: RetentionConfig = { messagesMs: 7 * 86_400_000, intervalMs: 3_600_000 };

const DAY_MS = 86_400_000;

/** The variables of {@link RetentionConfig}: MESSAGE_RETENTION_DAYS (1 to 3650) and RETENTION_INTERVAL_MS (1 s to 1 day). */
export const retentionVariables = {
  MESSAGE_RETENTION_DAYS: integer(DEFAULT_RETENTION.messagesMs / DAY_MS, 1, 3650),
  RETENTION_INTERVAL_MS: integer(DEFAULT_RETENTION.intervalMs, 1000, DAY_MS),
};

export function retentionFrom(values: ValuesOf<typeof retentionVariables>): RetentionConfig {
  return { messagesMs: values.MESSAGE_RETENTION_DAYS * DAY_MS, intervalMs: values.RETENTION_INTERVAL_MS };
}

const BATCH = 5000;

/**
 * Deletes old rows by rule, in batches of {@link BATCH} (short transactions, no long locks), on
 * start and then every `intervalMs`. Several replicas may prune at once: they delete disjoint
 * rows or nothing.
 */
export class TablePruner {
  private readonly loop: PollingLoop;

  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: readonly PruneRule[],
    intervalMs: number,
    private readonly logger: Logger,
  ) {
    this.loop = new PollingLoop(logger, intervalMs, async () => {
      await this.pruneOnce();
      return false;
    });
  }

  start(): void {
    if (this.rules.length > 0) this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass over every rule; answers the rows deleted per table. */
  async pruneOnce(): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const rule of this.rules) {
      const cutoff = rule.cutoff();
      let total = 0;
      for (;;) {
        // DELETE comes back from TypeORM's postgres driver as [rows, affected].
        const [, affected] = (await this.dataSource.query(
          `DELETE FROM ${rule.table} WHERE ctid IN (SELECT ctid FROM ${rule.table} WHERE ${rule.condition} LIMIT ${BATCH})`,
          [cutoff],
        )) as [unknown[], number];
        total += affected;
        if (affected < BATCH) break;
      }
      deleted[rule.table] = total;
      if (total > 0) this.logger.log(`pruned ${total} rows of ${rule.table}`);
    }
    return deleted;
  }
}
