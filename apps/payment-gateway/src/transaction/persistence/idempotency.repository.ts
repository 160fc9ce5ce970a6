import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { IdempotencyKeyEntity } from './idempotency-key.entity';

/** Whose key: a device of a PBO, and the key it sent. */
export interface IdempotencyScope {
  groupId: string;
  deviceId: string;
  idempotencyKey: string;
}

/** A key's row as the rules read it. */
export interface IdempotencyRecord {
  requestHash: string;
  tranId: string | null;
  responseStatus: number | null;
  responseBody: Record<string, unknown> | null;
  createdAt: Date;
  claimedAt: Date;
}

const SCOPE = 'group_id = $1 AND device_id = $2 AND idempotency_key = $3';
const scopeParams = (scope: IdempotencyScope): string[] => [scope.groupId, scope.deviceId, scope.idempotencyKey];

/** `Idempotency-Key` rows (pruned after 24 h by the retention rule of the gateway module). */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  /** Claims the key for a new request; false when a row for it exists. */
  async insert(scope: IdempotencyScope, requestHash: string, now: Date): Promise<boolean> {
    const rows: unknown[] = await this.uow.manager.query(
      `INSERT INTO idempotency_key (group_id, device_id, idempotency_key, request_hash, created_at, claimed_at) VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT DO NOTHING RETURNING idempotency_key`,
      [...scopeParams(scope), requestHash, now],
    );
    return rows.length === 1;
  }

  /** The key's row, locked until the unit of work ends. */
  lock(scope: IdempotencyScope): Promise<IdempotencyRecord | null> {
    return this.uow.manager
      .getRepository(IdempotencyKeyEntity)
      .createQueryBuilder('k')
      .where('k.groupId = :groupId AND k.deviceId = :deviceId AND k.idempotencyKey = :idempotencyKey', scope)
      .setLock('pessimistic_write')
      .getOne();
  }

  /** Hands the key to a new request: a key older than its 24 hours starts again (`renewed`), one whose request died keeps its age. */
  async reclaim(scope: IdempotencyScope, requestHash: string, now: Date, renewed: boolean): Promise<void> {
    await this.uow.manager.query(
      `UPDATE idempotency_key SET request_hash = $4, claimed_at = $5, tran_id = NULL, response_status = NULL, response_body = NULL${renewed ? ', created_at = $5' : ''} WHERE ${SCOPE}`,
      [...scopeParams(scope), requestHash, now],
    );
  }

  async attachTransaction(scope: IdempotencyScope, tranId: string): Promise<void> {
    await this.uow.manager.query(`UPDATE idempotency_key SET tran_id = $4 WHERE ${SCOPE}`, [...scopeParams(scope), tranId]);
  }

  async storeAnswer(scope: IdempotencyScope, status: number, body: object): Promise<void> {
    await this.uow.manager.query(`UPDATE idempotency_key SET response_status = $4, response_body = $5 WHERE ${SCOPE}`, [
      ...scopeParams(scope),
      status,
      JSON.stringify(body),
    ]);
  }

  /** Frees a key whose request failed before it created anything, so that a retry is decided anew. */
  async release(scope: IdempotencyScope): Promise<void> {
    await this.uow.manager.query(`DELETE FROM idempotency_key WHERE ${SCOPE} AND tran_id IS NULL AND response_status IS NULL`, scopeParams(scope));
  }
}
