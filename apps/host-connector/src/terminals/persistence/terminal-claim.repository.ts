import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectHostConnectorDataSource } from '../../shared/inject';

/** One terminal at one address the host is reached at. */
export interface TerminalAtAddress {
  format: string;
  address: string;
  mid: string;
  tid: string;
}

/**
 * What a claim came to: all the PBO's and answered for by the host; the PBO's, some not yet; or
 * another PBO's. A pending one with when it was made (the database's clock, as text to the
 * microsecond: a JavaScript Date keeps milliseconds, and a release in the same millisecond must
 * still tell before from after), which its {@link TerminalClaimRepository.confirm} names, and
 * whether this request made it (`made`) or found another request's of the PBO still pending.
 */
export type Claimed = { state: 'confirmed' | 'taken' } | { state: 'pending'; since: string; made: boolean };

/**
 * An unconfirmed claim older than this is a leftover (its process stopped between claiming and
 * settling): another PBO may take it. Far longer than a request's deadline (HOST_TIMEOUT_MS, at most 60 s).
 */
export const STALE_CLAIM_MS = 10 * 60_000;

/** SQL: the claim row `row` is an unconfirmed leftover older than `seconds` ({@link STALE_CLAIM_MS}): it holds nothing. */
const staleClaim = (row: string, seconds: string): string => `${row}.confirmed_at IS NULL AND ${row}.claimed_at < now() - make_interval(secs => ${seconds})`;

/** A claim as the operator lists it. */
export interface TerminalClaimRow extends TerminalAtAddress {
  groupId: string;
  claimedAt: string;
  /** When the host first answered a sign-on or approved a request of the owner; null while pending. */
  confirmedAt: string | null;
}

/** Filters of the operator's list and release (each optional, all must match). */
export interface TerminalClaimFilter {
  groupId?: string;
  format?: string;
  address?: string;
  mid?: string;
  tid?: string;
  /** true: only pending claims; false: only confirmed ones. */
  pending?: boolean;
}

const COLUMNS = `format, address, mid, tid, group_id AS "groupId",
  to_char(claimed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "claimedAt",
  to_char(confirmed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "confirmedAt"`;
const RECORDSET = `jsonb_to_recordset($1::jsonb) AS v(format text, address text, mid text, tid text)`;
const MATCHES = 'c.format = v.format AND c.address = v.address AND c.mid = v.mid AND c.tid = v.tid';

@Injectable()
export class TerminalClaimRepository {
  constructor(@InjectHostConnectorDataSource() private readonly dataSource: DataSource) {}

  /** Whether another PBO holds any of `terminals` (a pending claim gone stale holds nothing). Reads only. */
  async heldByAnother(groupId: string, terminals: readonly TerminalAtAddress[]): Promise<boolean> {
    const [row]: Array<{ taken: boolean }> = await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM terminal_claim c JOIN ${RECORDSET} ON ${MATCHES}
         WHERE c.group_id <> $2 AND NOT (${staleClaim('c', '$3')})) AS taken`,
      [JSON.stringify(sortedKeys(terminals)), groupId, STALE_CLAIM_MS / 1000],
    );
    return row.taken;
  }

  /**
   * Claims the terminals for `groupId` before a request is sent, all or none. `taken` when
   * another PBO holds any of them (confirmed, or pending and not stale: nothing is claimed then);
   * `confirmed` when each is the PBO's and confirmed; else `pending`: each is now the PBO's and
   * the caller must {@link confirm} or {@link release} once the host answered or not. The usual
   * case, all already the PBO's, is one read; otherwise the claim is one INSERT … ON CONFLICT DO
   * UPDATE in key order, whose row locks serialise two claimers (the second reads the first's
   * owner), rolled back when one row is another's.
   */
  async claim(groupId: string, terminals: readonly TerminalAtAddress[]): Promise<Claimed> {
    const parameter = JSON.stringify(sortedKeys(terminals));
    const held: Array<{ groupId: string; confirmed: boolean; stale: boolean; now: string }> = await this.dataSource.query(
      `SELECT c.group_id AS "groupId", c.confirmed_at IS NOT NULL AS confirmed,
              (${staleClaim('c', '$2')}) AS stale, now()::text AS now
         FROM terminal_claim c JOIN ${RECORDSET} ON ${MATCHES}`,
      [parameter, STALE_CLAIM_MS / 1000],
    );
    if (held.some((row) => row.groupId !== groupId && !row.stale)) return { state: 'taken' };
    if (held.length === terminals.length && held.every((row) => row.groupId === groupId))
      return held.every((row) => row.confirmed) ? { state: 'confirmed' } : { state: 'pending', since: held[0].now, made: false };
    try {
      return await this.dataSource.transaction(async (manager) => {
        const owners: Array<{ groupId: string; now: string }> = await manager.query(
          `INSERT INTO terminal_claim (format, address, mid, tid, group_id)
           SELECT v.format, v.address, v.mid, v.tid, $2 FROM ${RECORDSET} ORDER BY v.format, v.address, v.mid, v.tid
           ON CONFLICT (format, address, mid, tid) DO UPDATE SET
             group_id = CASE WHEN ${staleClaim('terminal_claim', '$3')} THEN EXCLUDED.group_id ELSE terminal_claim.group_id END,
             claimed_at = CASE WHEN ${staleClaim('terminal_claim', '$3')} THEN now() ELSE terminal_claim.claimed_at END
           RETURNING group_id AS "groupId", now()::text AS now`,
          [parameter, groupId, STALE_CLAIM_MS / 1000],
        );
        if (owners.some((row) => row.groupId !== groupId)) throw new TakenTerminal();
        return { state: 'pending', since: owners[0].now, made: true } as const;
      });
    } catch (error) {
      if (error instanceof TakenTerminal) return { state: 'taken' };
      throw error;
    }
  }

  /**
   * The host answered for the terminals (an answered sign-on, an approved request): the claim
   * stands. Claims them again if a failed request of the same PBO released them meanwhile, but not
   * where the gateway released the PBO's terminal since `since` (when this request's claim was
   * made: {@link Claimed}): a release is final for what was in flight when it ran (review r14o). A
   * row another PBO took since is left alone. True when the PBO holds every one, confirmed, now.
   */
  async confirm(groupId: string, terminals: readonly TerminalAtAddress[], since: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO terminal_claim (format, address, mid, tid, group_id, confirmed_at)
       SELECT v.format, v.address, v.mid, v.tid, $2::text, now() FROM ${RECORDSET}
       WHERE NOT EXISTS (SELECT 1 FROM terminal_release r
         WHERE r.group_id = $2::text AND r.format = v.format AND r.mid = v.mid AND r.tid = v.tid AND r.address IN (v.address, '') AND r.released_at >= $3::timestamptz)
       ORDER BY v.format, v.address, v.mid, v.tid
       ON CONFLICT (format, address, mid, tid) DO UPDATE SET confirmed_at = COALESCE(terminal_claim.confirmed_at, now())
       WHERE terminal_claim.group_id = $2::text
       RETURNING 1`,
      [JSON.stringify(sortedKeys(terminals)), groupId, since],
    );
    return rows.length === terminals.length;
  }

  /** Nothing the host accepted came of the request: the PBO's pending claims of these terminals go. Confirmed ones stay. */
  async release(groupId: string, terminals: readonly TerminalAtAddress[]): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM terminal_claim c USING ${RECORDSET} WHERE ${MATCHES} AND c.group_id = $2 AND c.confirmed_at IS NULL`,
      [JSON.stringify(sortedKeys(terminals)), groupId],
    );
  }

  /**
   * The gateway released the PBO's terminal (`gateway.terminal.released.v1`): deletes that PBO's
   * claims of format, MID and TID, pending or confirmed, at `addresses` (null: at every address).
   * Never another PBO's row; deleting what is already gone is no error. Answers the addresses of
   * the rows deleted.
   */
  async releaseTerminal(groupId: string, terminal: { format: string; mid: string; tid: string }, addresses: readonly string[] | null): Promise<string[]> {
    const rows: Array<{ address: string }> = await this.dataSource.query(
      `WITH gone AS (
         DELETE FROM terminal_claim WHERE group_id = $1 AND format = $2 AND mid = $3 AND tid = $4 AND ($5::text[] IS NULL OR address = ANY($5::text[])) RETURNING address
       ), marked AS (
         INSERT INTO terminal_release (group_id, format, address, mid, tid, released_at)
         SELECT $1, $2, at, $3, $4, clock_timestamp() FROM unnest(COALESCE($5::text[], ARRAY['']) || ARRAY(SELECT address FROM gone)) AS at GROUP BY at
         ON CONFLICT ON CONSTRAINT pk_terminal_release DO UPDATE SET released_at = EXCLUDED.released_at
       ) SELECT address FROM gone ORDER BY address`,
      [groupId, terminal.format, terminal.mid, terminal.tid, addresses === null ? null : [...addresses]],
    );
    return rows.map((row) => row.address);
  }

  /** The operator's list: the claims matching every filter given, by owner and terminal. */
  async list(filter: TerminalClaimFilter, limit = 1000): Promise<TerminalClaimRow[]> {
    const { where, parameters } = whereOf(filter);
    return this.dataSource.query(`SELECT ${COLUMNS} FROM terminal_claim ${where} ORDER BY group_id, format, address, mid, tid LIMIT ${Math.max(1, Math.floor(limit))}`, parameters);
  }

  /** The operator's release: deletes the claims matching every filter given (at least one), answering those deleted. */
  async releaseMatching(filter: TerminalClaimFilter): Promise<TerminalClaimRow[]> {
    const { where, parameters } = whereOf(filter);
    if (parameters.length === 0 && filter.pending === undefined) throw new Error('a release names at least one filter');
    return this.dataSource.query(
      `WITH gone AS (DELETE FROM terminal_claim ${where} RETURNING *) SELECT ${COLUMNS} FROM gone ORDER BY group_id, format, address, mid, tid`,
      parameters,
    );
  }
}

function whereOf(filter: TerminalClaimFilter): { where: string; parameters: string[] } {
  const conditions: string[] = [];
  const parameters: string[] = [];
  for (const [key, column] of [['groupId', 'group_id'], ['format', 'format'], ['address', 'address'], ['mid', 'mid'], ['tid', 'tid']] as const) {
    const value = filter[key];
    if (value === undefined) continue;
    parameters.push(value);
    conditions.push(`${column} = $${parameters.length}`);
  }
  if (filter.pending !== undefined) conditions.push(filter.pending ? 'confirmed_at IS NULL' : 'confirmed_at IS NOT NULL');
  return { where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, parameters };
}

const sortedKeys = (terminals: readonly TerminalAtAddress[]): TerminalAtAddress[] =>
  [...terminals].map(({ format, address, mid, tid }) => ({ format, address, mid, tid })).sort((a, b) => keyOf(a).localeCompare(keyOf(b)));

/** Rolls a claim back when one of its terminals is another PBO's. */
class TakenTerminal extends Error {}

const keyOf = (terminal: TerminalAtAddress): string => JSON.stringify([terminal.format, terminal.address, terminal.mid, terminal.tid]);
