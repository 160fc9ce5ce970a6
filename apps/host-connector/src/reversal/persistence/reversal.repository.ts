import { HOST_REVERSAL_UPDATED_V1, HostReversalUpdatedV1 } from '@app/contracts';
import { OutboxWriter, uuidV7 } from '@app/messaging';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InjectHostConnectorDataSource } from '../../shared/inject';
import { ReversalEntity } from './reversal.entity';
import { SettleHoldEntity } from './settle-hold.entity';

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

/** A reversal no settle of its terminal holds: the worker leaves held ones to the settle (docs/decisions.md, "A terminal's reversals go before its 0500"). */
const NOT_HELD = `NOT EXISTS (SELECT 1 FROM settle_hold h WHERE h.tid = reversal.tid AND reversal.host_url = ANY (h.host_urls) AND h.expires_at > now())`;

/** Postgres' lock_not_available: a lock wait ran past lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

const DUE_COLUMNS = `id, request_id, format, host_url, tid, stan, transmitted_at, request, attempts, transmissions, created_at, last_resp_code`;

function dueReversalOf(row: DueRow): DueReversal {
  return {
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
  };
}

/** The reversal's state after a change, as `host.reversal.updated.v1` tells it, from the row the change left (RETURNING). */
const STATE_COLUMNS = `id, request_id, status, attempts, last_resp_code, created_at`;

interface StateRow {
  id: string;
  request_id: string;
  status: HostReversalUpdatedV1['state'];
  attempts: number;
  last_resp_code: string | null;
  created_at: Date;
}

/**
 * The reversal queue. Every change of a reversal's state (queued, an attempt answered or not,
 * acknowledged) writes its `host.reversal.updated.v1` to the connector's outbox in the same
 * transaction: the gateway shows on the action what the queue holds, never more, never less.
 */
@Injectable()
export class ReversalRepository {
  constructor(
    @InjectHostConnectorDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxWriter,
  ) {}

  /** Queues a reversal, due at once. */
  async enqueue(reversal: NewReversal): Promise<string> {
    return this.insert({ ...reversal, status: 'PENDING', nextAttemptAt: new Date() });
  }

  /** Records a reversal that is acknowledged already (the in-process MOCK host). */
  async recordAcknowledged(reversal: NewReversal, respCode: string): Promise<string> {
    const now = new Date();
    return this.insert({
      ...reversal,
      status: 'ACKNOWLEDGED',
      attempts: 1,
      nextAttemptAt: now,
      lastAttemptAt: now,
      ackRespCode: respCode,
      lastRespCode: respCode,
      acknowledgedAt: now,
    });
  }

  private async insert(row: Omit<Partial<ReversalEntity>, 'id'> & NewReversal): Promise<string> {
    const id = uuidV7();
    await this.dataSource.transaction(async (manager) => {
      await manager.getRepository(ReversalEntity).insert({ id, ...row });
      await this.announce(manager, (await manager.query(`SELECT ${STATE_COLUMNS} FROM reversal WHERE id = $1`, [id])) as StateRow[]);
    });
    return id;
  }

  /** The event of the change that left `rows` (one row), into the outbox of `manager`'s open transaction. */
  private async announce(manager: EntityManager, rows: StateRow[]): Promise<void> {
    const [row] = rows;
    const event: HostReversalUpdatedV1 = {
      requestId: row.request_id,
      reversalId: row.id,
      state: row.status,
      attempts: row.attempts,
      lastResponseCode: row.last_resp_code,
      queuedAt: row.created_at.toISOString(),
    };
    await this.outbox.enqueue(manager, HOST_REVERSAL_UPDATED_V1, event);
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
          WHERE status = 'PENDING' AND next_attempt_at <= now() AND ${NOT_HELD}
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
      const [acknowledged] = (await manager.query(
        `UPDATE reversal SET status = 'ACKNOWLEDGED', attempts = attempts + 1, transmissions = transmissions + 1, last_attempt_at = now(),
           ack_resp_code = $2, last_resp_code = $2, acknowledged_at = now(), last_error = NULL WHERE id = $1 RETURNING ${STATE_COLUMNS}`,
        [id, outcome.respCode],
      )) as [StateRow[], number];
      await this.announce(manager, acknowledged);
      return;
    }
    const [failed] = (await manager.query(
      `UPDATE reversal SET attempts = attempts + 1, transmissions = transmissions + $2, last_attempt_at = now(), next_attempt_at = $3, last_error = $4,
         last_resp_code = COALESCE($5, last_resp_code) WHERE id = $1 RETURNING ${STATE_COLUMNS}`,
      [id, outcome.transmitted ? 1 : 0, outcome.nextAttemptAt, outcome.error.slice(0, 500), outcome.respCode],
    )) as [StateRow[], number];
    await this.announce(manager, failed);
  }

  /**
   * Holds the reversals of terminal `tid` queued for one of `hostUrls` from every worker, in any
   * replica, until {@link releaseSettleHold} or `expiresAt`. Answers the hold's id. Holds long
   * expired are cleared on the way.
   */
  async holdForSettle(format: string, tid: string, hostUrls: string[], expiresAt: Date): Promise<string> {
    const id = uuidV7();
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`DELETE FROM settle_hold WHERE expires_at < now() - interval '1 hour'`);
      await manager.getRepository(SettleHoldEntity).insert({ id, format, tid, hostUrls, expiresAt });
    });
    return id;
  }

  async releaseSettleHold(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM settle_hold WHERE id = $1`, [id]);
  }

  /** The PENDING reversals of terminal `tid` in `format`, oldest first, due or not. */
  async pendingOfTerminal(format: string, tid: string): Promise<Array<{ id: string; hostUrl: string; stan: string }>> {
    const rows: Array<{ id: string; host_url: string; stan: string }> = await this.dataSource.query(
      `SELECT id, host_url, stan FROM reversal WHERE status = 'PENDING' AND format = $1 AND tid = $2 ORDER BY created_at, id`,
      [format, tid],
    );
    return rows.map((row) => ({ id: row.id, hostUrl: row.host_url, stan: row.stan }));
  }

  /**
   * Runs `attempt` on reversal `id` now, due or not, and records its outcome as the worker does
   * ({@link workNextDue}): under the row's lock, waiting up to `lockWaitMs` for an attempt another
   * worker has in flight. Answers null when the reversal is no longer PENDING (that attempt
   * acknowledged it) or the wait ran out.
   */
  async workNow(id: string, lockWaitMs: number, attempt: (reversal: DueReversal) => Promise<ReversalAttemptOutcome>): Promise<ReversalAttemptOutcome | null> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        await manager.query(`SELECT set_config('lock_timeout', $1, true)`, [`${Math.max(1, Math.ceil(lockWaitMs))}ms`]);
        const rows: DueRow[] = await manager.query(`SELECT ${DUE_COLUMNS} FROM reversal WHERE id = $1 AND status = 'PENDING' FOR UPDATE`, [id]);
        if (rows.length === 0) return null;
        // The attempt may take longer than the lock wait: the limit was for the wait only.
        await manager.query(`SELECT set_config('lock_timeout', '0', true)`);
        const outcome = await attempt(dueReversalOf(rows[0]));
        await this.record(manager, id, outcome);
        return outcome;
      });
    } catch (error) {
      if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return null;
      throw error;
    }
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

  async isPending(id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM reversal WHERE id = $1 AND status = 'PENDING'`, [id]);
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
