import { canonicalJson, Clock, DomainError } from '@app/common';
import { PruneRule, UnitOfWork } from '@app/database';
import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { idempotencyInFlightMs, secondsUntil, TRANSACTION_SETTINGS, TransactionSettings } from './transaction-settings';
import { IdempotencyRepository, IdempotencyScope } from './persistence/idempotency.repository';

/** How long a key is kept (DECISIONS.md, "Transactions"). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;

/** What a request with an Idempotency-Key does. */
export type IdempotencyClaim =
  /** The key is this request's: go on. */
  | { kind: 'new' }
  /** An earlier request with the same key and body answered: answer the same. */
  | { kind: 'answered'; status: number; body: Record<string, unknown>; tranId: string | null }
  /** An earlier request with the same key and body stopped after creating this transaction: answer it as it now is. */
  | { kind: 'abandoned'; tranId: string };

/** The fingerprint of a request body: SHA-256 of its canonical JSON (key order does not count). */
export function requestHashOf(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/**
 * The rules of `Idempotency-Key` (DECISIONS.md, "Transactions"), per device: the same key and
 * body get the stored answer, another body 422, a request still in flight 409; keys are kept
 * 24 hours. A request that failed before creating anything frees its key; one that died after
 * creating its transaction hands a repeat that transaction as it now is.
 */
@Injectable()
export class IdempotencyService {
  private readonly inFlightMs: number;

  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    @Inject(TRANSACTION_SETTINGS) settings: TransactionSettings,
  ) {
    this.inFlightMs = idempotencyInFlightMs(settings);
  }

  async claim(scope: IdempotencyScope, requestHash: string): Promise<IdempotencyClaim> {
    if (await this.keys.insert(scope, requestHash, this.clock.now())) return { kind: 'new' };
    return this.uow.run(async () => {
      const now = this.clock.now();
      const held = await this.keys.lock(scope);
      // Pruned since the insert found it: the key is free again.
      if (!held) return (await this.keys.insert(scope, requestHash, now)) ? { kind: 'new' } : this.inFlight(scope, now, now);
      if (now.getTime() - held.createdAt.getTime() >= IDEMPOTENCY_KEY_TTL_MS) {
        await this.keys.reclaim(scope, requestHash, now, true);
        return { kind: 'new' };
      }
      if (held.requestHash !== requestHash) throw DomainError.unprocessable(`Idempotency-Key ${scope.idempotencyKey} was used for another request body`);
      if (held.responseStatus !== null && held.responseBody !== null)
        return { kind: 'answered', status: held.responseStatus, body: held.responseBody, tranId: held.tranId };
      if (now.getTime() - held.claimedAt.getTime() < this.inFlightMs) return this.inFlight(scope, held.claimedAt, now);
      if (held.tranId !== null) return { kind: 'abandoned', tranId: held.tranId };
      await this.keys.reclaim(scope, requestHash, now, false);
      return { kind: 'new' };
    });
  }

  /** Ties the key to the transaction its request created (in the unit of work that creates it). */
  attach(scope: IdempotencyScope, tranId: string): Promise<void> {
    return this.keys.attachTransaction(scope, tranId);
  }

  /** Keeps the answer (in the unit of work that decided it). */
  answer(scope: IdempotencyScope, status: number, body: object): Promise<void> {
    return this.keys.storeAnswer(scope, status, body);
  }

  /** Frees the key of a request that failed before creating anything. */
  release(scope: IdempotencyScope): Promise<void> {
    return this.keys.release(scope);
  }

  /** 409 with `Retry-After`: the seconds until the request that claimed the key at `claimedAt` has had all its time (then a repeat gets its answer, or takes the key over). */
  private inFlight(scope: IdempotencyScope, claimedAt: Date, now: Date): never {
    throw DomainError.conflict(`a request with Idempotency-Key ${scope.idempotencyKey} is still in flight`, secondsUntil(claimedAt.getTime() + this.inFlightMs, now));
  }
}

/** The retention rule of Idempotency-Key rows: gone 24 hours after the key was first used. */
export function idempotencyKeyPruneRule(): PruneRule {
  return { table: 'idempotency_key', condition: 'created_at < $1', cutoff: () => new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS) };
}
