import { uuidV7 } from '@app/messaging';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InjectHostConnectorDataSource } from '../../shared/inject';
import { ReversalEntity } from './reversal.entity';

export type NewReversal = Pick<ReversalEntity, 'requestId' | 'format' | 'hostUrl' | 'tid' | 'stan' | 'transmittedAt' | 'request' | 'reason' | 'transmissions'>;

/** What one attempt came to. */
export type ReversalAttemptOutcome =
  | { kind: 'acknowledged'; respCode: string }
  /** `respCode`: the host's code when it answered without acknowledging; null when it did not answer. */
  | { kind: 'failed'; error: string; transmitted: boolean; respCode: string | null; nextAttemptAt: Date };

/** A row as the worker reads it. */
export type DueReversal = Pick<
  ReversalEntity,
  'id' | 'requestId' | 'format' | 'hostUrl' | 'tid' | 'stan' | 'transmittedAt' | 'request' | 'attempts' | 'transmissions' | 'createdAt' | 'lastRespCode'
>;

interface DueRow {
  id: string;
  request_id: string;
  format: string;
  host_url: string;
  tid: string;
  stan: string;
  transmitted_at: Date;
  request: ReversalEntity['request'];
  attempts: number;
  transmissions: number;
  created_at: Date;
  last_resp_code: string | null;
}

@Injectable()
export class ReversalRepository {
  constructor(@InjectHostConnectorDataSource() private readonly dataSource: DataSource) {}

  /** Queues a reversal, due at once. */
  async enqueue(reversal: NewReversal): Promise<string> {
    const id = uuidV7();
    await this.dataSource.getRepository(ReversalEntity).insert({ id, ...reversal, status: 'PENDING', nextAttemptAt: new Date() });
    return id;
  }

  /** Records a reversal that is acknowledged already (the in-process MOCK host). */
  async recordAcknowledged(reversal: NewReversal, respCode: string): Promise<string> {
    const id = uuidV7();
    const now = new Date();
    await this.dataSource.getRepository(ReversalEntity).insert({
      id,
      ...reversal,
      status: 'ACKNOWLEDGED',
      attempts: 1,
      nextAttemptAt: now,
      lastAttemptAt: now,
      ackRespCode: respCode,
      lastRespCode: respCode,
      acknowledgedAt: now,
    });
    return id;
  }

  /**
   * Takes the next due reversal that no one else holds (FOR UPDATE SKIP LOCKED), runs `attempt`
   * on it while holding its row lock, and records the outcome in the same transaction: two
   * workers, in one process or two, never send the same reversal at the same time. Answers false
   * when nothing was due.
   */
  async workNextDue(attempt: (reversal: DueReversal) => Promise<ReversalAttemptOutcome>): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const rows: DueRow[] = await manager.query(
        `SELECT id, request_id, format, host_url, tid, stan, transmitted_at, request, attempts, transmissions, created_at, last_resp_code FROM reversal
          WHERE status = 'PENDING' AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      if (rows.length === 0) return false;
      const row = rows[0];
      const outcome = await attempt({
        id: row.id,
        requestId: row.request_id,
        format: row.format,
        hostUrl: row.host_url,
        tid: row.tid,
        stan: row.stan,
        transmittedAt: row.transmitted_at,
        request: row.request,
        attempts: row.attempts,
        transmissions: row.transmissions,
        createdAt: row.created_at,
        lastRespCode: row.last_resp_code,
      });
      await this.record(manager, row.id, outcome);
      return true;
    });
  }

  private async record(manager: EntityManager, id: string, outcome: ReversalAttemptOutcome): Promise<void> {
    if (outcome.kind === 'acknowledged') {
      await manager.query(
        `UPDATE reversal SET status = 'ACKNOWLEDGED', attempts = attempts + 1, transmissions = transmissions + 1, last_attempt_at = now(),
           ack_resp_code = $2, last_resp_code = $2, acknowledged_at = now(), last_error = NULL WHERE id = $1`,
        [id, outcome.respCode],
      );
      return;
    }
    await manager.query(
      `UPDATE reversal SET attempts = attempts + 1, transmissions = transmissions + $2, last_attempt_at = now(), next_attempt_at = $3, last_error = $4,
         last_resp_code = COALESCE($5, last_resp_code) WHERE id = $1`,
      [id, outcome.transmitted ? 1 : 0, outcome.nextAttemptAt, outcome.error.slice(0, 500), outcome.respCode],
    );
  }

  /** Whether a reversal of this request is queued (or done) already. */
  async existsFor(requestId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM reversal WHERE request_id = $1 LIMIT 1`, [requestId]);
    return rows.length > 0;
  }

  /** Whether a reversal of this request is queued and not yet acknowledged: it will undo whatever the host approved. */
  async pendingFor(requestId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM reversal WHERE request_id = $1 AND status = 'PENDING' LIMIT 1`, [requestId]);
    return rows.length > 0;
  }

  /** Reversals not yet acknowledged, and those of them created more than `overdueMs` ago. */
  async pendingCounts(overdueMs: number): Promise<{ pending: number; overdue: number }> {
    const rows: Array<{ pending: number; overdue: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS pending, (count(*) FILTER (WHERE created_at < now() - make_interval(secs => $1)))::int AS overdue
         FROM reversal WHERE status = 'PENDING'`,
      [overdueMs / 1000],
    );
    return rows[0];
  }
}
