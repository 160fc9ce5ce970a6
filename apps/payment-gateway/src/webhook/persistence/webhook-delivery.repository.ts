import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { AttemptRecord, DeliveryState } from '../delivery/retry-policy';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/** A delivery as it is written first. */
export type NewDelivery = Pick<WebhookDeliveryEntity, 'id' | 'groupId' | 'tranId' | 'version' | 'tranStatus' | 'callbackUrl' | 'body'>;

/** A delivery a worker has claimed: what an attempt needs. `attempts` counts this one, and fences its record. */
export type ClaimedDelivery = Pick<WebhookDeliveryEntity, 'id' | 'groupId' | 'tranId' | 'version' | 'callbackUrl' | 'body' | 'attempts'> & {
  firstAttemptAt: Date;
};

/** A delivery as the PBO's list shows it. */
export type DeliveryRow = Omit<WebhookDeliveryEntity, 'body'>;

export interface DeliveryFilter {
  tranId?: string;
  state?: DeliveryState;
  /** Only deliveries older than this one (the cursor). */
  before?: string;
  limit: number;
}

/** Every column but the body, which the list never shows. */
const LISTED_COLUMNS: ReadonlyArray<keyof DeliveryRow> = [
  'id',
  'groupId',
  'tranId',
  'version',
  'tranStatus',
  'callbackUrl',
  'state',
  'attempts',
  'nextAttemptAt',
  'firstAttemptAt',
  'lastAttemptAt',
  'lastStatus',
  'lastError',
  'finishedAt',
  'createdAt',
];

interface ClaimedRow {
  id: string;
  group_id: string;
  tran_id: string;
  version: number;
  callback_url: string;
  body: string;
  attempts: number;
  first_attempt_at: Date;
}

/** Deliveries of webhooks. Statements join the caller's unit of work. */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  /**
   * Serialises the deliveries of one transaction until the unit of work ends, so two versions
   * arriving at once (two replicas) are ordered: the later one sees the earlier one's row.
   */
  async lockTransaction(tranId: string): Promise<void> {
    // The two-key form: its own key space, apart from the migrations' single-key lock.
    await this.uow.manager.query(`SELECT pg_advisory_xact_lock(hashtext('webhook_delivery'), hashtext($1))`, [tranId]);
  }

  /** The highest version queued for the transaction, with the group it was queued for and the body it sends. */
  async newestOf(tranId: string): Promise<{ version: number; groupId: string; body: string } | null> {
    const rows: Array<{ version: number; group_id: string; body: string }> = await this.uow.manager.query(
      `SELECT version, group_id, body FROM webhook_delivery WHERE tran_id = $1 ORDER BY version DESC LIMIT 1`,
      [tranId],
    );
    return rows.length === 0 ? null : { version: rows[0].version, groupId: rows[0].group_id, body: rows[0].body };
  }

  /** Queues a delivery, due at once. */
  async insert(delivery: NewDelivery): Promise<void> {
    await this.uow.manager.getRepository(WebhookDeliveryEntity).insert({ ...delivery, state: 'PENDING', attempts: 0, nextAttemptAt: () => 'now()' });
  }

  /** Ends the pending deliveries of older versions of the transaction: the new one carries the whole transaction. */
  async supersedeOlder(tranId: string, version: number): Promise<number> {
    const [, affected] = (await this.uow.manager.query(
      `UPDATE webhook_delivery SET state = 'SUPERSEDED', next_attempt_at = NULL, finished_at = now(), last_error = $3
        WHERE tran_id = $1 AND version < $2 AND state = 'PENDING'`,
      [tranId, version, `superseded by version ${version}`],
    )) as [unknown, number];
    return affected;
  }

  /**
   * Claims the next due delivery that no one else is claiming (FOR UPDATE SKIP LOCKED), in one
   * statement: its attempt is counted and its next_attempt_at moved to the end of a lease, so no
   * other worker or replica takes it while the attempt runs, and a worker that dies mid-attempt
   * only delays it until the lease ends. The attempt itself runs outside any transaction.
   */
  async claimNextDue(leaseMs: number): Promise<ClaimedDelivery | null> {
    // An UPDATE comes back from TypeORM's postgres driver as [rows, affected].
    const [rows] = (await this.uow.manager.query(
      `UPDATE webhook_delivery d
          SET attempts = d.attempts + 1, last_attempt_at = now(), first_attempt_at = COALESCE(d.first_attempt_at, now()),
              next_attempt_at = now() + make_interval(secs => $1::double precision / 1000)
        WHERE d.id = (SELECT id FROM webhook_delivery WHERE state = 'PENDING' AND next_attempt_at <= now()
                       ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING d.id, d.group_id, d.tran_id, d.version, d.callback_url, d.body, d.attempts, d.first_attempt_at`,
      [leaseMs],
    )) as [ClaimedRow[], number];
    if (rows.length === 0) return null;
    const [row] = rows;
    return {
      id: row.id,
      groupId: row.group_id,
      tranId: row.tran_id,
      version: row.version,
      callbackUrl: row.callback_url,
      body: row.body,
      attempts: row.attempts,
      firstAttemptAt: row.first_attempt_at,
    };
  }

  /**
   * Records an attempt's outcome, unless the delivery moved on meanwhile (superseded, or its lease
   * ran out and another attempt was claimed): answers whether it was recorded.
   */
  async recordAttempt(id: string, attempts: number, record: AttemptRecord): Promise<boolean> {
    const [, affected] = (await this.uow.manager.query(
      `UPDATE webhook_delivery SET state = $3, next_attempt_at = $4, last_status = $5, last_error = $6, finished_at = $7
        WHERE id = $1 AND attempts = $2 AND state = 'PENDING'`,
      [id, attempts, record.state, record.nextAttemptAt, record.lastStatus, record.lastError, record.finishedAt],
    )) as [unknown, number];
    return affected === 1;
  }

  /** The group's deliveries, newest first. */
  list(groupId: string, filter: DeliveryFilter): Promise<DeliveryRow[]> {
    const query = this.uow.manager
      .getRepository(WebhookDeliveryEntity)
      .createQueryBuilder('d')
      .select(LISTED_COLUMNS.map((column) => `d.${column}`))
      .where('d.groupId = :groupId', { groupId })
      .orderBy('d.id', 'DESC')
      .limit(filter.limit);
    if (filter.tranId !== undefined) query.andWhere('d.tranId = :tranId', { tranId: filter.tranId });
    if (filter.state !== undefined) query.andWhere('d.state = :state', { state: filter.state });
    if (filter.before !== undefined) query.andWhere('d.id < :before', { before: filter.before });
    return query.getMany();
  }

  /** Whether another group has deliveries of this transaction (it is theirs). */
  async ownedByOther(tranId: string, groupId: string): Promise<boolean> {
    const rows: unknown[] = await this.uow.manager.query(`SELECT 1 FROM webhook_delivery WHERE tran_id = $1 AND group_id <> $2 LIMIT 1`, [tranId, groupId]);
    return rows.length > 0;
  }
}
