import { Logger, LoggerService } from '@nestjs/common';
import { DataSource, EntityManager, EntitySubscriberInterface, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { MessagePublisher } from '../transport/message-publisher';
import { OutboxMessage } from './outbox-message.entity';
import { clearEnqueued, hasEnqueued } from './outbox-writer';

/** Tuning of an {@link OutboxRelay}; every field has a production default. */
export interface OutboxRelayOptions {
  /** Rows locked and published per transaction. Default 100. */
  batchSize?: number;
  /** Sleep between passes when there is nothing to do and nobody called `notify()`. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Back-off after the first failed attempt of a row; doubles with each further failure. Default 1000 ms. */
  retryBaseMs?: number;
  /** Upper bound of the back-off. Default 5 minutes. */
  retryMaxMs?: number;
  /** Shown in logs (the context's name). */
  name?: string;
  logger?: LoggerService;
}

/** What one pass of the relay did. */
export interface RelayPassResult {
  /** Rows published and marked in this pass. */
  published: number;
  /** A row failed to publish; the rest of the batch was left for the next pass. */
  failed: boolean;
  /** The pass took a full batch, so more rows may be due. */
  full: boolean;
}

const MAX_ERROR_LENGTH = 2000;

/** What a pass reads of a due row. */
type OutboxRow = Pick<OutboxMessage, 'id' | 'subject' | 'payload' | 'headers' | 'attempts'>;

/**
 * Publishes the committed rows of one DataSource's outbox, oldest first, and marks them
 * published. Each pass locks its batch with `FOR UPDATE SKIP LOCKED`, so several replicas can run
 * a relay on the same table without publishing a row twice at the same time. Delivery is
 * at-least-once: a crash between publish and commit republishes the rows, which the broker drops
 * as duplicates (msgId = row id) and consumers' inboxes absorb after the duplicate window.
 *
 * Order is kept while publishing succeeds; a row whose publish fails is retried later with
 * exponential back-off while younger rows go ahead, so consumers must rely on payload versions,
 * not arrival order.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly logger: LoggerService;
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private wakeRequested = false;
  private readonly commitListener: EntitySubscriberInterface;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: MessagePublisher,
    options: OutboxRelayOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 100;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.retryBaseMs = options.retryBaseMs ?? 1000;
    this.retryMaxMs = options.retryMaxMs ?? 5 * 60_000;
    this.logger = options.logger ?? new Logger(`OutboxRelay${options.name ? `:${options.name}` : ''}`);
    // Wakes the relay when a transaction that enqueued rows commits, so latency is not bound
    // by the poll interval and callers need not remember to call notify().
    this.commitListener = {
      afterTransactionCommit: (event: TransactionCommitEvent) => {
        if (event.queryRunner.isTransactionActive || !hasEnqueued(event.queryRunner)) return;
        clearEnqueued(event.queryRunner);
        this.notify();
      },
      afterTransactionRollback: (event: TransactionRollbackEvent) => {
        if (!event.queryRunner.isTransactionActive) clearEnqueued(event.queryRunner);
      },
    };
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts polling; idempotent. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.dataSource.subscribers.push(this.commitListener);
    this.loop = this.run();
  }

  /** Stops polling and waits for the batch in flight to commit; idempotent. */
  async stop(): Promise<void> {
    if (!this.running) return this.loop;
    this.running = false;
    const index = this.dataSource.subscribers.indexOf(this.commitListener);
    if (index >= 0) this.dataSource.subscribers.splice(index, 1);
    this.wakeUp?.();
    await this.loop;
    this.loop = undefined;
  }

  /** Runs a pass now instead of after the poll interval (call it after committing outbox rows). */
  notify(): void {
    if (!this.running) return;
    this.wakeRequested = true;
    this.wakeUp?.();
  }

  /**
   * One pass: lock a batch of due rows, publish them (issued in order), record the outcome, commit.
   * Plain SQL (a pass runs for every few messages under load, and TypeORM's entity mapping was most
   * of its cost). Its commit does not wait for the WAL flush (`synchronous_commit` off for this
   * transaction only): a crash that loses the commit loses only the marks, so the rows are
   * published again, which the broker (same msgId) and the consumers' inboxes absorb, as after
   * any crash between publish and commit.
   */
  async relayOnce(): Promise<RelayPassResult> {
    const table = this.dataSource.getMetadata(OutboxMessage).tablePath;
    return this.dataSource.transaction(async (manager) => {
      const rows: OutboxRow[] = await manager.query(
        // The id (UUIDv7) orders rows of one transaction, which share created_at.
        `SELECT id, subject, payload, headers, attempts FROM ${table} WHERE published_at IS NULL AND next_attempt_at <= now()
         ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.batchSize],
      );
      if (rows.length === 0) return { published: 0, failed: false, full: false };

      // Published all at once, in order: the transports keep the order of publishes issued on one
      // connection, and the batch waits for its acknowledgements together rather than one by one.
      const outcomes = await Promise.allSettled(rows.map((row) => this.publisher.publish(row.subject, row.payload, { msgId: row.id, headers: row.headers })));
      const published: string[] = [];
      let failed = false;
      for (const [index, outcome] of outcomes.entries()) {
        if (outcome.status === 'fulfilled') {
          published.push(rows[index].id);
        } else if (!failed) {
          failed = true;
          // The first failure is recorded (the broker is most likely unreachable); later failed
          // rows are left as they were, as if not attempted, and go in the next pass.
          await this.recordFailure(manager, rows[index], outcome.reason);
        }
      }
      if (published.length > 0) {
        // synchronous_commit off for this transaction only, set by the marking statement itself (set_config, local): one round trip, not two.
        await manager.query(
          `UPDATE ${table} SET published_at = now() FROM (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous WHERE id = ANY($1::uuid[])`,
          [published],
        );
      }
      return { published: published.length, failed, full: rows.length === this.batchSize };
    });
  }

  private async recordFailure(manager: EntityManager, row: OutboxRow, error: unknown): Promise<void> {
    const attempts = row.attempts + 1;
    const delayMs = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** (attempts - 1));
    const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);
    await manager
      .createQueryBuilder()
      .update(OutboxMessage)
      .set({ attempts, lastError: message, nextAttemptAt: () => 'now() + make_interval(secs => :delaySeconds)' })
      .setParameter('delaySeconds', delayMs / 1000)
      .where('id = :id', { id: row.id })
      .execute();
    this.logger.warn(`publishing ${row.subject} ${row.id} failed (attempt ${attempts}, next in ${delayMs} ms): ${message}`);
  }

  /**
   * Whether a row is due, read without a transaction or a lock: one statement where a pass takes
   * five (begin, the locking select, commit). A pass the poll interval wakes (nothing committed
   * here since the last one) asks this first, and opens no transaction when nothing is due,
   * which is every poll of an idle relay; a row another replica or process committed is still
   * found by it.
   */
  async hasDue(): Promise<boolean> {
    const table = this.dataSource.getMetadata(OutboxMessage).tablePath;
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM ${table} WHERE published_at IS NULL AND next_attempt_at <= now() LIMIT 1`);
    return rows.length > 0;
  }

  private async run(): Promise<void> {
    // The first pass (rows may be due from before the start), one after a full batch and one a notify() woke go straight to work.
    let straight = true;
    while (this.running) {
      const notified = this.wakeRequested;
      this.wakeRequested = false;
      let again = false;
      try {
        const idle = !straight && !notified && !(await this.hasDue());
        straight = false;
        if (idle) {
          if (this.running) await this.sleep(this.pollIntervalMs);
          continue;
        }
        const result = await this.relayOnce();
        // A full batch means more rows are due; a notify() during the pass may concern a row it missed.
        again = !result.failed && (result.full || this.wakeRequested);
        straight = again;
        // After a failure, wait the poll interval even if notified: the broker is likely down.
        if (result.failed) this.wakeRequested = false;
      } catch (error) {
        this.logger.error(`outbox pass failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (this.running && !again) await this.sleep(this.pollIntervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
      // A notify() that arrived between the pass and this sleep must not be lost.
      if (this.wakeRequested || !this.running) done();
    });
  }
}
