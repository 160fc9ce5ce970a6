import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectHostConnectorDataSource } from '../../shared/inject';
import { WorkingKeyEntity, WorkingKeySource } from './working-key.entity';

/** A terminal's key as sign-on or key exchange delivered it. */
export interface NewWorkingKey {
  /** The PBO scope ({@link LEGACY_GROUP_SCOPE} for callers that name none). */
  groupId: string;
  format: string;
  endpoint: string;
  tid: string;
  sealedKey: string;
  keyCheckValue: string;
  source: WorkingKeySource;
  /** Where the key came from, and who signed on; null for the MOCK host. */
  hostUrl: string | null;
  mid: string | null;
  acptId: string | null;
  acquirerId: string | null;
  /** Milliseconds until its key exchange is due; null: none scheduled. */
  exchangeInMs: number | null;
}

/** A key whose exchange is due, as the scheduler needs it to send 0800/101; `keyCheckValue` null: the terminal has no key yet. */
export type DueKeyExchange = Pick<WorkingKeyEntity, 'groupId' | 'format' | 'endpoint' | 'tid' | 'keyCheckValue'> & { hostUrl: string; mid: string; acptId: string; acquirerId: string | null };

/** A terminal whose key exchange failed: where to send the next one, and when. */
export type FailedKeyExchange = Pick<NewWorkingKey, 'groupId' | 'format' | 'endpoint' | 'tid' | 'hostUrl' | 'mid' | 'acptId' | 'acquirerId'> & { retryInMs: number };

@Injectable()
export class WorkingKeyRepository {
  constructor(@InjectHostConnectorDataSource() private readonly dataSource: DataSource) {}

  /**
   * Replaces the terminal's key and schedules its next exchange. A PBO's key retires the legacy
   * scope's key of the same terminal (stored before keys were kept per PBO): its scheduled
   * exchange would otherwise go on replacing the terminal's key at the host.
   */
  async store(key: NewWorkingKey): Promise<void> {
    await this.dataSource.query(
      `WITH legacy AS (DELETE FROM working_key WHERE $12 <> '' AND group_id = '' AND format = $1 AND endpoint = $2 AND tid = $3)
       INSERT INTO working_key (group_id, format, endpoint, tid, sealed_key, key_check_value, source, received_at, host_url, mid, acpt_id, acquirer_id, next_exchange_at)
       VALUES ($12, $1, $2, $3, $4, $5, $6, now(), $7, $8, $9, $11, now() + $10 * interval '1 millisecond')
       ON CONFLICT (group_id, format, endpoint, tid) DO UPDATE
         SET sealed_key = excluded.sealed_key, key_check_value = excluded.key_check_value, source = excluded.source,
             received_at = excluded.received_at, host_url = excluded.host_url, mid = excluded.mid, acpt_id = excluded.acpt_id,
             acquirer_id = excluded.acquirer_id, next_exchange_at = excluded.next_exchange_at`,
      [key.format, key.endpoint, key.tid, key.sealedKey, key.keyCheckValue, key.source, key.hostUrl, key.mid, key.acptId, key.exchangeInMs, key.acquirerId, key.groupId],
    );
  }

  /**
   * After a failed key exchange: the exchange comes due again in `retryInMs`. A terminal with a
   * key keeps it; one without (signed on without a key) gets a row with no key, so the scheduler
   * finds it and tries again instead of leaving the terminal keyless until its next sign-on.
   */
  async scheduleRetry(failed: FailedKeyExchange): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO working_key (group_id, format, endpoint, tid, sealed_key, key_check_value, source, received_at, host_url, mid, acpt_id, acquirer_id, next_exchange_at)
       VALUES ($9, $1, $2, $3, NULL, NULL, 'SIGNON', now(), $4, $5, $6, $7, now() + $8 * interval '1 millisecond')
       ON CONFLICT (group_id, format, endpoint, tid) DO UPDATE
         SET host_url = excluded.host_url, mid = excluded.mid, acpt_id = excluded.acpt_id, acquirer_id = excluded.acquirer_id,
             next_exchange_at = excluded.next_exchange_at`,
      [failed.format, failed.endpoint, failed.tid, failed.hostUrl, failed.mid, failed.acptId, failed.acquirerId, failed.retryInMs, failed.groupId],
    );
  }

  /** Drops one PBO's key of a terminal (another PBO's terminal: docs/decisions.md, "One owner per terminal, whatever the spelling"). */
  async remove(groupId: string, format: string, endpoint: string, tid: string): Promise<void> {
    await this.dataSource.getRepository(WorkingKeyEntity).delete({ groupId, format, endpoint, tid });
  }

  /**
   * Drops a PBO's keys of a terminal the gateway released (docs/decisions.md, "A released terminal
   * reaches the connector", review r14k): at `endpoint`, or at every endpoint when the host cannot be
   * told (null). Its exchanges stop, so none claims the terminal back. Answers how many went.
   */
  async removeReleased(groupId: string, format: string, mid: string, tid: string, endpoint: string | null): Promise<number> {
    const [, count]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM working_key WHERE group_id = $1 AND format = $2 AND btrim(tid, ' ') = $3 AND btrim(mid, ' ') = $4 AND ($5::text IS NULL OR endpoint = $5)`,
      [groupId, format, tid, mid, endpoint],
    );
    return count;
  }

  async find(groupId: string, format: string, endpoint: string, tid: string): Promise<WorkingKeyEntity | null> {
    return this.dataSource.getRepository(WorkingKeyEntity).findOneBy({ groupId, format, endpoint, tid });
  }

  /**
   * Takes the key whose exchange is most overdue and moves its due time `leaseMs` ahead in the
   * same statement: the exchange then runs outside any transaction, another replica skips the
   * key, and a failed exchange comes due again after the lease. Null when nothing is due.
   */
  async claimDueExchange(leaseMs: number): Promise<DueKeyExchange | null> {
    // UPDATE … RETURNING comes back from TypeORM's postgres driver as [rows, affected].
    const [rows] = (await this.dataSource.query(
      `UPDATE working_key SET next_exchange_at = now() + $1 * interval '1 millisecond'
        WHERE (group_id, format, endpoint, tid) = (
          SELECT group_id, format, endpoint, tid FROM working_key
           WHERE next_exchange_at <= now() AND host_url IS NOT NULL AND mid IS NOT NULL AND acpt_id IS NOT NULL
           ORDER BY next_exchange_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING group_id, format, endpoint, tid, key_check_value, host_url, mid, acpt_id, acquirer_id`,
      [leaseMs],
    )) as [{ group_id: string; format: string; endpoint: string; tid: string; key_check_value: string | null; host_url: string; mid: string; acpt_id: string; acquirer_id: string | null }[], number];
    const row = rows[0];
    if (!row) return null;
    return {
      groupId: row.group_id,
      format: row.format,
      endpoint: row.endpoint,
      tid: row.tid,
      keyCheckValue: row.key_check_value,
      hostUrl: row.host_url,
      mid: row.mid,
      acptId: row.acpt_id,
      acquirerId: row.acquirer_id,
    };
  }
}
