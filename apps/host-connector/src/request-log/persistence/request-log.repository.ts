import type { HostFollowUpRequestV1, HostResponseV1 } from '@app/contracts';
import { queryNamed } from '@app/database';
import { transmissionTimeOf } from '@app/host-protocol';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SentMessage } from '../../hosts/host-exchange';
import { formatStan } from '../../protocol/wire';
import { InjectHostConnectorDataSource } from '../../shared/inject';
import { NEXT_STAN_ON_CONFLICT, StanKey } from '../../stan/persistence/stan.repository';
import { Statement, withAlongside } from '../../shared/statement';

/** Whether this replica owns a request (and the STAN it took with the claim, when asked), or someone handled (or is handling) it already. */
export type RequestClaim = { kind: 'new'; stan?: string } | { kind: 'done'; response: HostResponseV1 } | { kind: 'in-progress' };

/**
 * The reversal a reversible request would need, and, when the request went out as that reversal
 * itself (a caller's `host.reverse.v1`, a void sent as a reversal), what it was sent as: the
 * reversal owed is then a repeat of that message.
 */
export interface OwedReversal {
  reversal: HostFollowUpRequestV1;
  sent?: Pick<SentMessage, 'mti' | 'stan' | 'transmittedAt' | 'at'>;
}

/** A reversible request whose handler stopped after sending and before recording the outcome. */
export interface AbandonedRequest {
  operation: string;
  requestId: string;
  format: string;
  /** Null for the MOCK host. */
  hostUrl: string | null;
  pendingReversal: HostFollowUpRequestV1;
  /** Set when the request was the reversal itself: what it went out as (recovery repeats it). */
  sentReversal?: OwedReversal['sent'];
}

/** A reversible request that went on the wire, as a late answer to it finds it. */
export interface SentRequest {
  operation: string;
  requestId: string;
  response: HostResponseV1;
  pendingReversal: HostFollowUpRequestV1;
}

interface AbandonedRow {
  reversal_mti: string | null;
  reversal_stan: string | null;
  reversal_sent_at: Date | null;
}

function sentReversalOf(row: AbandonedRow): Pick<AbandonedRequest, 'sentReversal'> {
  if (row.reversal_mti === null || row.reversal_stan === null || row.reversal_sent_at === null) return {};
  const at = row.reversal_sent_at;
  return { sentReversal: { mti: row.reversal_mti, stan: row.reversal_stan, transmittedAt: transmissionTimeOf(at), at } };
}

const COMPLETE_SQL = `UPDATE request_log SET result = $3, mti = $4, stan = $5, host_resp_code = $6, response = $7, completed_at = now()
  WHERE operation = $1 AND request_id = $2 AND response IS NULL`;

function completeParams(operation: string, response: HostResponseV1): unknown[] {
  return [operation, response.requestId, response.result, response.mti, response.stan, response.hostRespCode, JSON.stringify(response)];
}

/** {@link COMPLETE_SQL} for several requests at once: one statement (and one commit), answering which rows it completed. */
const COMPLETE_MANY_SQL = `UPDATE request_log AS r SET result = c.result, mti = c.mti, stan = c.stan, host_resp_code = c.host_resp_code, response = c.response, completed_at = now()
  FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::varchar[], $7::jsonb[]) AS c(operation, request_id, result, mti, stan, host_resp_code, response)
  WHERE r.operation = c.operation AND r.request_id = c.request_id AND r.response IS NULL
  RETURNING r.operation, r.request_id`;

/** The most completions one merged statement writes. */
const MAX_MERGED_COMPLETIONS = 64;

/** A completion waiting for its statement: settled once that statement has committed (or failed). */
interface WaitingCompletion {
  operation: string;
  response: HostResponseV1;
  /** Whether the statement completed this request's row (false: recovery had recorded a reply first). */
  resolve: (completed: boolean) => void;
  reject: (error: unknown) => void;
}

const completionKey = (operation: string, requestId: string) => `${operation}\u0000${requestId}`;

@Injectable()
export class RequestLogRepository {
  /** Completions not yet handed to a statement (group commit: see {@link complete}). */
  private waiting: WaitingCompletion[] = [];
  /** A statement of completions is being written, or one is scheduled. */
  private writing = false;

  constructor(@InjectHostConnectorDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims (operation, requestId) for this handler, or tells what became of the earlier one. With
   * `stanOf`, a new claim also takes the next STAN of that counter in the same statement (one round
   * trip and one commit instead of two); an earlier request's repeat takes none.
   */
  async claim(operation: string, requestId: string, format: string, tid: string, deadlineAt: number, stanOf?: StanKey): Promise<RequestClaim> {
    const params = [operation, requestId, format, tid, new Date(deadlineAt)];
    const claimSql = `INSERT INTO request_log (operation, request_id, format, tid, deadline_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING request_id`;
    const { rows: inserted } = stanOf
      ? await queryNamed<{ request_id: string; last_stan: number | null }>(
          this.dataSource,
          `WITH claim AS (${claimSql}),
                stan AS (INSERT INTO stan_counter AS c (format, endpoint, tid, last_stan) SELECT $6, $7, $8, 1 FROM claim ${NEXT_STAN_ON_CONFLICT})
           SELECT claim.request_id, stan.last_stan FROM claim LEFT JOIN stan ON true`,
          [...params, stanOf.format, stanOf.endpoint, stanOf.tid],
        )
      : await queryNamed<{ request_id: string; last_stan?: number | null }>(this.dataSource, claimSql, params);
    if (inserted.length === 1) {
      const taken = inserted[0].last_stan;
      return taken === undefined || taken === null ? { kind: 'new' } : { kind: 'new', stan: formatStan(taken) };
    }
    const response = await this.responseOf(operation, requestId);
    return response ? { kind: 'done', response } : { kind: 'in-progress' };
  }

  async responseOf(operation: string, requestId: string): Promise<HostResponseV1 | null> {
    const rows: Array<{ response: HostResponseV1 | null }> = await this.dataSource.query(
      `SELECT response FROM request_log WHERE operation = $1 AND request_id = $2`,
      [operation, requestId],
    );
    return rows[0]?.response ?? null;
  }

  /**
   * Records the reply, unless recovery recorded one first (this handler outlived its deadline by
   * the grace period): then that reply stands and is answered, since its reversal is under way.
   *
   * Group commit: the completions that come while one statement of them is being written (and
   * those of the same turn of the event loop) are written together by the next, one statement and
   * one commit for all of them; each caller is answered only once the statement that wrote its row
   * has committed, as before. Should a merged statement fail, each of its completions is written
   * again alone, so one bad reply fails only its own request (and a database that is down fails
   * each).
   */
  async complete(operation: string, response: HostResponseV1): Promise<HostResponseV1> {
    const completed = await new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ operation, response, resolve, reject });
      if (this.writing) return;
      this.writing = true;
      setImmediate(() => void this.writeWaiting());
    });
    if (completed) return response;
    return (await this.responseOf(operation, response.requestId)) ?? response;
  }

  /** Writes the waiting completions, a statement at a time, until none waits. */
  private async writeWaiting(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_MERGED_COMPLETIONS);
        if (batch.length === 1) {
          await this.completeAlone(batch[0]);
          continue;
        }
        let completed: Set<string>;
        try {
          completed = await this.completeMany(batch);
        } catch {
          for (const entry of batch) await this.completeAlone(entry);
          continue;
        }
        for (const entry of batch) entry.resolve(completed.has(completionKey(entry.operation, entry.response.requestId)));
      }
    } finally {
      this.writing = false;
    }
  }

  private async completeAlone(entry: WaitingCompletion): Promise<void> {
    try {
      const { rowCount } = await queryNamed(this.dataSource, COMPLETE_SQL, completeParams(entry.operation, entry.response));
      entry.resolve(rowCount === 1);
    } catch (error) {
      entry.reject(error);
    }
  }

  private async completeMany(batch: WaitingCompletion[]): Promise<Set<string>> {
    // completeParams' columns, each as an array over the batch.
    const params = batch.map((entry) => completeParams(entry.operation, entry.response));
    const columns = params[0].map((_, column) => params.map((row) => row[column]));
    const { rows } = await queryNamed<{ operation: string; request_id: string }>(this.dataSource, COMPLETE_MANY_SQL, columns);
    return new Set(rows.map((row) => completionKey(row.operation, row.request_id)));
  }

  /**
   * The latest finished reversible request sent to `hostUrl` for terminal `tid` with STAN `stan`
   * as one of `mtis`, within `withinMs`: what a late answer (MTI, 11, 41) answers. Null when none
   * (a request still at work has no MTI and STAN recorded yet: its handler, which got no answer,
   * queues its own reversal).
   */
  async findSent(where: { format: string; hostUrl: string; tid: string; stan: string; mtis: string[]; withinMs: number }): Promise<SentRequest | null> {
    const rows: { operation: string; request_id: string; response: HostResponseV1; pending_reversal: HostFollowUpRequestV1 }[] = await this.dataSource.query(
      `SELECT operation, request_id, response, pending_reversal FROM request_log
        WHERE format = $1 AND host_url = $2 AND tid = $3 AND stan = $4 AND mti = ANY($5) AND pending_reversal IS NOT NULL
          AND started_at > now() - $6 * interval '1 millisecond'
        ORDER BY started_at DESC LIMIT 1`,
      [where.format, where.hostUrl, where.tid, where.stan, where.mtis, where.withinMs],
    );
    const row = rows[0];
    if (!row) return null;
    return { operation: row.operation, requestId: row.request_id, response: row.response, pendingReversal: row.pending_reversal };
  }

  /**
   * Written just before a reversible request goes on the wire (write-ahead): should this process
   * stop before the outcome is recorded, {@link recoverAbandoned} finds the request and reverses it.
   * `alongside` (the card kept for the request's follow-ups) is written in the same statement: one
   * round trip and one commit before sending instead of two.
   */
  async markSending(operation: string, requestId: string, owed: OwedReversal, hostUrl: string | null, alongside?: Statement): Promise<void> {
    const { sql, params } = withAlongside(
      {
        sql: `UPDATE request_log SET pending_reversal = $3, host_url = $4, reversal_mti = $5, reversal_stan = $6, reversal_sent_at = $7 WHERE operation = $1 AND request_id = $2`,
        params: [operation, requestId, JSON.stringify(owed.reversal), hostUrl, owed.sent?.mti ?? null, owed.sent?.stan ?? null, owed.sent?.at ?? null],
      },
      alongside,
    );
    await queryNamed(this.dataSource, sql, params);
  }

  /**
   * Lets a request be tried again: after a refusal (nothing was sent), or after this handler
   * failed unexpectedly (`afterError`), when it keeps a request that may have reached the host:
   * recovery reverses that one.
   */
  async release(operation: string, requestId: string, afterError = false): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM request_log WHERE operation = $1 AND request_id = $2 AND response IS NULL${afterError ? ' AND pending_reversal IS NULL' : ''}`,
      [operation, requestId],
    );
  }

  /**
   * Finds reversible requests still unfinished `graceMs` after their deadline (their handler
   * stopped: a crash, a kill, a lost database connection), hands each to `recover`, which queues
   * its reversal and answers the reply to record, and records it, each in its own transaction
   * with the row locked (other replicas skip it). Answers how many were recovered.
   */
  async recoverAbandoned(graceMs: number, limit: number, recover: (request: AbandonedRequest) => Promise<HostResponseV1>): Promise<number> {
    let recovered = 0;
    for (let i = 0; i < limit; i++) {
      const done = await this.dataSource.transaction(async (manager) => {
        const rows: (AbandonedRow & { operation: string; request_id: string; format: string; host_url: string | null; pending_reversal: HostFollowUpRequestV1 })[] =
          await manager.query(
            `SELECT operation, request_id, format, host_url, pending_reversal, reversal_mti, reversal_stan, reversal_sent_at FROM request_log
              WHERE response IS NULL AND pending_reversal IS NOT NULL AND deadline_at < now() - $1 * interval '1 millisecond'
              ORDER BY deadline_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
            [graceMs],
          );
        const row = rows[0];
        if (!row) return false;
        const response = await recover({
          operation: row.operation,
          requestId: row.request_id,
          format: row.format,
          hostUrl: row.host_url,
          pendingReversal: row.pending_reversal,
          ...sentReversalOf(row),
        });
        await manager.query(COMPLETE_SQL, completeParams(row.operation, response));
        return true;
      });
      if (!done) break;
      recovered += 1;
    }
    return recovered;
  }
}
