import { HOST_REVERSAL_UPDATED_V1, HostOriginalV1, HostReversalUpdatedV1 } from '@app/contracts';
import { OutboxWriter, uuidV7 } from '@app/messaging';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InjectHostConnectorDataSource } from '../../shared/inject';
import { ReversalEntity } from './reversal.entity';
import { SettleHoldEntity } from './settle-hold.entity';

/** A void sent as a reversal whose repeat the host acknowledged: the reversal's STAN, the original it voided, and when. */
export interface AcknowledgedVoid {
  stan: string;
  original: HostOriginalV1;
  acknowledgedAt: Date;
}

/** A PENDING reversal of a terminal, as a settle works it: which request it completes or undoes, and its original. */
export interface PendingOfTerminal {
  id: string;
  hostUrl: string;
  stan: string;
  effect: ReversalEntity['effect'];
  original: HostOriginalV1;
}

/** What the operator's list filters on (every one given must match). */
export interface ReversalFilter {
  id?: string;
  requestId?: string;
  format?: string;
  tid?: string;
  status?: ReversalEntity['status'];
}

/** A reversal as the operator's list shows it. */
export interface OperatorReversalRow {
  id: string;
  requestId: string;
  format: string;
  tid: string;
  stan: string;
  originalStan: string | null;
  effect: ReversalEntity['effect'];
  status: ReversalEntity['status'];
  attempts: number;
  lastResponseCode: string | null;
  lastError: string | null;
  operatorNote: string | null;
  queuedAt: Date;
  nextAttemptAt: Date | null;
  acknowledgedAt: Date | null;
  abandonedAt: Date | null;
}

/** How an operator's end of a reversal went. */
export type OperatorEnd = { kind: 'ended' } | { kind: 'unknown' } | { kind: 'ended-already'; status: ReversalEntity['status'] } | { kind: 'sending' };

export type NewReversal = Pick<ReversalEntity, 'requestId' | 'format' | 'hostUrl' | 'tid' | 'stan' | 'transmittedAt' | 'request' | 'reason' | 'attempts' | 'transmissions' | 'effect'>;

/** What one attempt came to. */
export type ReversalAttemptOutcome =
  | { kind: 'acknowledged'; respCode: string }
  /** `respCode`: the host's code when it answered without acknowledging; null when it did not answer. */
  /**
   * `inconclusive`: the host answered, but not whether it took the reversal: a duplicate (94) after a
   * refusal, which acknowledgementOf does not take, yet may repeat an unanswered attempt it applied;
   * or a transient refusal (a system fault: `HostAnswer.transient`).
   */
  | { kind: 'failed'; error: string; transmitted: boolean; respCode: string | null; nextAttemptAt: Date; inconclusive?: true };

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

/** How often a settle looks again at a reversal another worker's attempt holds. */
const BUSY_POLL_MS = 50;

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
const STATE_COLUMNS = `id, request_id, status, attempts, last_resp_code, created_at, effect, operator_note`;

/** A row as its claim left it (RETURNING): what the attempt needs, and the claim's mark. */
type ClaimedRow = DueRow & StateRow & { sending_since: Date };

interface StateRow {
  id: string;
  request_id: string;
  status: HostReversalUpdatedV1['state'];
  attempts: number;
  last_resp_code: string | null;
  created_at: Date;
  effect: ReversalEntity['effect'];
  operator_note: string | null;
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

  /** Queues a reversal, due at once; answers its state as announced. */
  async enqueue(reversal: NewReversal): Promise<HostReversalUpdatedV1> {
    return this.insert({ ...reversal, status: 'PENDING', nextAttemptAt: new Date() });
  }

  /** Records a reversal that is acknowledged already (the in-process MOCK host). */
  async recordAcknowledged(reversal: NewReversal, respCode: string): Promise<HostReversalUpdatedV1> {
    const now = new Date();
    return this.insert({
      ...reversal,
      status: 'ACKNOWLEDGED',
      nextAttemptAt: now,
      lastAttemptAt: now,
      ackRespCode: respCode,
      lastRespCode: respCode,
      acknowledgedAt: now,
    });
  }

  private async insert(row: Omit<Partial<ReversalEntity>, 'id'> & NewReversal): Promise<HostReversalUpdatedV1> {
    const id = uuidV7();
    return this.dataSource.transaction(async (manager) => {
      await manager.getRepository(ReversalEntity).insert({ id, ...row });
      return this.announce(manager, (await manager.query(`SELECT ${STATE_COLUMNS} FROM reversal WHERE id = $1`, [id])) as StateRow[]);
    });
  }

  /** The event of the change that left `rows` (one row), into the outbox of `manager`'s open transaction; answers it. */
  private async announce(manager: EntityManager, rows: StateRow[]): Promise<HostReversalUpdatedV1> {
    const [row] = rows;
    const event: HostReversalUpdatedV1 = {
      requestId: row.request_id,
      reversalId: row.id,
      state: row.status,
      attempts: row.attempts,
      lastResponseCode: row.last_resp_code,
      queuedAt: row.created_at.toISOString(),
      effect: row.effect,
      ...(row.operator_note === null ? {} : { operatorNote: row.operator_note }),
    };
    await this.outbox.enqueue(manager, HOST_REVERSAL_UPDATED_V1, event);
    return event;
  }

  /**
   * Takes the next due reversal that no one else holds and works it in two transactions, so that
   * what may have been sent is never forgotten. First the claim (FOR UPDATE SKIP LOCKED): the row
   * is marked `sending_since` and its `next_attempt_at` pushed `leaseMs` ahead (longer than an
   * exchange may take), and committed BEFORE anything is sent: no other lane or replica takes it
   * while the lease runs. A row found still marked was claimed by a worker that stopped after it
   * may have sent: that attempt counts as made and transmitted (and is announced), so this one
   * goes as a repeat (0401) and a duplicate acknowledgement (94) may stand for it. Then `attempt`
   * runs without a lock, and its outcome is recorded (and the mark cleared) in a second
   * transaction. Answers false when nothing was due.
   */
  async workNextDue(attempt: (reversal: DueReversal) => Promise<ReversalAttemptOutcome>, leaseMs: number): Promise<boolean> {
    const claimed = await this.dataSource.transaction(async (manager) => {
      const due: Array<{ id: string; sending_since: Date | null }> = await manager.query(
        `SELECT id, sending_since FROM reversal WHERE status = 'PENDING' AND next_attempt_at <= now() AND ${NOT_HELD}
          ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      return due.length === 0 ? undefined : this.claim(manager, due[0].id, due[0].sending_since, leaseMs);
    });
    if (claimed === undefined) return false;
    await this.attemptClaimed(claimed, attempt);
    return true;
  }

  /**
   * The claim of {@link workNextDue} on a row locked by the caller: `sending_since` marked and the
   * lease taken, committed before anything is sent. A row still marked (`sendingSince`) was claimed
   * by a worker that stopped after it may have sent: that attempt counts as made and transmitted.
   */
  private async claim(manager: EntityManager, id: string, sendingSince: Date | null, leaseMs: number): Promise<ClaimedRow> {
    const interrupted = sendingSince !== null ? 1 : 0;
    const [rows] = (await manager.query(
      `UPDATE reversal SET sending_since = now(), next_attempt_at = now() + make_interval(secs => $2),
         attempts = attempts + $3, transmissions = transmissions + $3,
         last_attempt_at = CASE WHEN $3 = 1 THEN sending_since ELSE last_attempt_at END,
         last_error = CASE WHEN $3 = 1 THEN $4 ELSE last_error END
       WHERE id = $1
       RETURNING ${STATE_COLUMNS}, format, host_url, tid, stan, transmitted_at, request, transmissions, sending_since`,
      [id, leaseMs / 1000, interrupted, 'the connector stopped during this attempt, after it may have sent it: counted as transmitted, outcome unknown'],
    )) as [ClaimedRow[], number];
    if (interrupted === 1) await this.announce(manager, rows);
    return rows[0];
  }

  /** Runs `attempt` on a claimed row, without a lock, and records its outcome (a second transaction). */
  private async attemptClaimed(claimed: ClaimedRow, attempt: (reversal: DueReversal) => Promise<ReversalAttemptOutcome>): Promise<ReversalAttemptOutcome> {
    const outcome = await attempt(dueReversalOf(claimed));
    await this.dataSource.transaction((manager) => this.record(manager, claimed.id, claimed.sending_since, outcome));
    return outcome;
  }

  /** Records an attempt's outcome on the row it claimed (`claimedAt`: its `sending_since`); a claim lost meanwhile (its lease ran out) records nothing. */
  private async record(manager: EntityManager, id: string, claimedAt: Date, outcome: ReversalAttemptOutcome): Promise<void> {
    if (outcome.kind === 'acknowledged') {
      const [acknowledged] = (await manager.query(
        `UPDATE reversal SET status = 'ACKNOWLEDGED', attempts = attempts + 1, transmissions = transmissions + 1, last_attempt_at = now(),
           ack_resp_code = $2, last_resp_code = $2, acknowledged_at = now(), last_error = NULL, sending_since = NULL
         WHERE id = $1 AND sending_since = $3 RETURNING ${STATE_COLUMNS}`,
        [id, outcome.respCode, claimedAt],
      )) as [StateRow[], number];
      if (acknowledged.length > 0) await this.announce(manager, acknowledged);
      return;
    }
    const [failed] = (await manager.query(
      `UPDATE reversal SET attempts = attempts + 1, transmissions = transmissions + $2, last_attempt_at = now(), next_attempt_at = $3, last_error = $4,
         last_resp_code = COALESCE($5, last_resp_code), sending_since = NULL WHERE id = $1 AND sending_since = $6 RETURNING ${STATE_COLUMNS}`,
      [id, outcome.transmitted ? 1 : 0, outcome.nextAttemptAt, outcome.error.slice(0, 500), outcome.respCode, claimedAt],
    )) as [StateRow[], number];
    if (failed.length > 0) await this.announce(manager, failed);
  }

  /**
   * Holds the reversals of terminal `tid` queued for one of `hostUrls` from every worker, in any
   * replica, until {@link releaseSettleHold} or `expiresAt`. Answers the hold's id. Holds long
   * expired are cleared on the way.
   */
  async holdForSettle(format: string, tid: string, hostUrls: string[], expiresAt: Date): Promise<{ id: string; since: Date }> {
    const id = uuidV7();
    const since = await this.dataSource.transaction(async (manager) => {
      await manager.query(`DELETE FROM settle_hold WHERE expires_at < now() - interval '1 hour'`);
      await manager.getRepository(SettleHoldEntity).insert({ id, format, tid, hostUrls, expiresAt });
      const [row] = (await manager.query(`SELECT now() AS now`)) as Array<{ now: Date }>;
      return row.now;
    });
    return { id, since };
  }

  /**
   * The voids of terminal `tid` at one of `hostUrls` that went out as reversals and whose repeat
   * the host acknowledged (effect COMPLETES_REQUEST, ACKNOWLEDGED): the host voided each one's
   * original. A settle checks its totals against them (docs/decisions.md, "A void acknowledged
   * while its batch settles").
   */
  async acknowledgedVoidsOfTerminal(format: string, tid: string, hostUrls: string[]): Promise<AcknowledgedVoid[]> {
    const rows: Array<{ stan: string; original: HostOriginalV1; acknowledged_at: Date }> = await this.dataSource.query(
      `SELECT stan, request->'original' AS original, acknowledged_at FROM reversal
       WHERE status = 'ACKNOWLEDGED' AND effect = 'COMPLETES_REQUEST' AND format = $1 AND tid = $2 AND host_url = ANY($3) ORDER BY acknowledged_at, id`,
      [format, tid, hostUrls],
    );
    return rows.map((row) => ({ stan: row.stan, original: row.original, acknowledgedAt: row.acknowledged_at }));
  }

  /**
   * The operator's list (CLI `reversals list`): the reversals matching every filter given, newest
   * first, at most `limit`; what an operator needs to take them up with the acquirer, never the
   * request's amounts or card references beyond the STANs.
   */
  async listForOperator(filter: ReversalFilter, limit = 200): Promise<OperatorReversalRow[]> {
    const conditions: string[] = [];
    const parameters: unknown[] = [];
    const add = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      parameters.push(value);
      conditions.push(`${column} = $${parameters.length}`);
    };
    add('id::text', filter.id);
    add('request_id', filter.requestId);
    add('format', filter.format);
    add('tid', filter.tid);
    add('status', filter.status);
    const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
    return this.dataSource.query(
      `SELECT id, request_id AS "requestId", format, tid, stan, request->'original'->>'stan' AS "originalStan", effect, status, attempts,
         last_resp_code AS "lastResponseCode", last_error AS "lastError", operator_note AS "operatorNote", created_at AS "queuedAt",
         CASE WHEN status = 'PENDING' THEN next_attempt_at END AS "nextAttemptAt", acknowledged_at AS "acknowledgedAt", abandoned_at AS "abandonedAt"
       FROM reversal ${where} ORDER BY created_at DESC, id DESC LIMIT ${Math.max(1, Math.floor(limit))}`,
      parameters,
    );
  }

  /**
   * An operator ends a PENDING reversal (CLI `reversals end`; docs/decisions.md, "An operator ends a
   * reversal the host keeps refusing"): ACKNOWLEDGED (the acquirer says the host did it) or
   * ABANDONED (the acquirer says it is not needed), with their note, announced like any change of
   * state. Not while an attempt of it may be on the wire (its lease runs), nor once it has ended.
   */
  async endByOperator(id: string, as: 'ACKNOWLEDGED' | 'ABANDONED', note: string): Promise<OperatorEnd> {
    return this.dataSource.transaction(async (manager) => {
      const rows: Array<{ status: ReversalEntity['status']; sending: boolean }> = await manager.query(
        `SELECT status, (sending_since IS NOT NULL AND next_attempt_at > now()) AS sending FROM reversal WHERE id::text = $1 FOR UPDATE`,
        [id],
      );
      if (rows.length === 0) return { kind: 'unknown' };
      if (rows[0].status !== 'PENDING') return { kind: 'ended-already', status: rows[0].status };
      if (rows[0].sending) return { kind: 'sending' };
      const [ended] = (await manager.query(
        `UPDATE reversal SET status = $2::varchar, operator_note = $3, sending_since = NULL,
           acknowledged_at = CASE WHEN $2::varchar = 'ACKNOWLEDGED' THEN now() END, abandoned_at = CASE WHEN $2::varchar = 'ABANDONED' THEN now() END
         WHERE id::text = $1 RETURNING ${STATE_COLUMNS}`,
        [id, as, note],
      )) as [StateRow[], number];
      await this.announce(manager, ended);
      return { kind: 'ended' };
    });
  }

  async releaseSettleHold(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM settle_hold WHERE id = $1`, [id]);
  }

  /** The PENDING reversals of terminal `tid` in `format`, oldest first, due or not. */
  async pendingOfTerminal(format: string, tid: string): Promise<PendingOfTerminal[]> {
    const rows: Array<{ id: string; host_url: string; stan: string; effect: ReversalEntity['effect']; original: HostOriginalV1 }> = await this.dataSource.query(
      `SELECT id, host_url, stan, effect, request->'original' AS original FROM reversal WHERE status = 'PENDING' AND format = $1 AND tid = $2 ORDER BY created_at, id`,
      [format, tid],
    );
    return rows.map((row) => ({ id: row.id, hostUrl: row.host_url, stan: row.stan, effect: row.effect, original: row.original }));
  }

  /**
   * Runs `attempt` on reversal `id` now, due or not, through the worker's own claim and record
   * ({@link workNextDue}): when another worker's attempt holds it (its lease runs), waits up to
   * `waitMs` for that attempt to end. Answers null when the reversal is no longer PENDING (that
   * attempt acknowledged it) or the wait ran out.
   */
  async workNow(id: string, waitMs: number, leaseMs: number, attempt: (reversal: DueReversal) => Promise<ReversalAttemptOutcome>): Promise<ReversalAttemptOutcome | null> {
    const until = Date.now() + waitMs;
    for (;;) {
      const claimed = await this.dataSource.transaction(async (manager) => {
        const rows: Array<{ sending_since: Date | null; leased: boolean }> = await manager.query(
          `SELECT sending_since, next_attempt_at > now() AS leased FROM reversal WHERE id = $1 AND status = 'PENDING' FOR UPDATE`,
          [id],
        );
        if (rows.length === 0) return 'done' as const;
        if (rows[0].sending_since !== null && rows[0].leased) return 'busy' as const;
        return this.claim(manager, id, rows[0].sending_since, leaseMs);
      });
      if (claimed === 'done') return null;
      if (claimed !== 'busy') return this.attemptClaimed(claimed, attempt);
      const left = until - Date.now();
      if (left <= 0) return null;
      await new Promise((resolve) => setTimeout(resolve, Math.min(BUSY_POLL_MS, left)));
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
