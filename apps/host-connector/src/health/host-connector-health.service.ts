import { Injectable } from '@nestjs/common';
import { ReversalRepository } from '../reversal/persistence/reversal.repository';
import { IsoSessionPool, SessionView } from '../sessions/iso-session-pool';
import { DatabaseProbe } from '@app/database';

export interface ReadinessView {
  status: 'ok' | 'database is not reachable';
  database: 'up' | 'down';
  pendingReversals: number | null;
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
    const pendingReversals = up ? await this.reversals.pendingCount().catch(() => null) : null;
    return { status: up ? 'ok' : 'database is not reachable', database: up ? 'up' : 'down', pendingReversals, hosts: this.pool.views() };
  }
}
