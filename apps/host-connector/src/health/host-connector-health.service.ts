import { Injectable } from '@nestjs/common';
import { ReversalRepository } from '../reversal/persistence/reversal.repository';
import { IsoSessionPool, SessionView } from '../sessions/iso-session-pool';
import { DatabaseProbe } from '@app/database';
import { REVERSAL_OVERDUE_MS } from '../reversal/reversal-worker';

export interface ReadinessView {
  status: 'ok' | 'database is not reachable';
  database: 'up' | 'down';
  pendingReversals: number | null;
  /** Pending reversals older than {@link REVERSAL_OVERDUE_MS}: money the host may still hold, for an operator to check. */
  overdueReversals: number | null;
  hosts: SessionView[];
}

/**
 * Readiness is the database: without it no STAN can be taken. Host sessions are reported (a host
 * marked down shows as such) but do not make the replica unready: another replica would reach
 * the same host no better.
 */
@Injectable()
export class HostConnectorHealth {
  constructor(
    private readonly database: DatabaseProbe,
    private readonly reversals: ReversalRepository,
    private readonly pool: IsoSessionPool,
  ) {}

  async readiness(): Promise<ReadinessView> {
    const up = await this.database.reachable();
    const counts = up ? await this.reversals.pendingCounts(REVERSAL_OVERDUE_MS).catch(() => null) : null;
    return {
      status: up ? 'ok' : 'database is not reachable',
      database: up ? 'up' : 'down',
      pendingReversals: counts?.pending ?? null,
      overdueReversals: counts?.overdue ?? null,
      hosts: this.pool.views(),
    };
  }
}
