import { queryNamed } from '@app/database';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectHostConnectorDataSource } from '../../shared/inject';
import { formatStan } from '../../protocol/wire';

/** Largest STAN; the next one after it is 000001 (000000 is never used). */
export const MAX_STAN = 999_999;

/** Where a STAN comes from: the counter of one (format, host endpoint, TID). */
export interface StanKey {
  format: string;
  endpoint: string;
  tid: string;
}

/**
 * The tail of `INSERT INTO stan_counter AS c (format, endpoint, tid, last_stan) … 1`: the next STAN
 * of an existing counter (wrapping after {@link MAX_STAN}), returned as `last_stan`. Shared with the
 * request log's claim, which takes a request's STAN in the same statement.
 */
export const NEXT_STAN_ON_CONFLICT = `ON CONFLICT (format, endpoint, tid) DO UPDATE
         SET last_stan = CASE WHEN c.last_stan >= ${MAX_STAN} THEN 1 ELSE c.last_stan + 1 END, updated_at = now()
       RETURNING last_stan`;

/**
 * STANs per terminal from the database: one atomic upsert per STAN, so replicas sharing the
 * database never hand out the same STAN for the same (format, host, TID) until it wraps.
 */
@Injectable()
export class StanRepository {
  constructor(@InjectHostConnectorDataSource() private readonly dataSource: DataSource) {}

  async next(format: string, endpoint: string, tid: string): Promise<string> {
    const { rows } = await queryNamed<{ last_stan: number }>(
      this.dataSource,
      `INSERT INTO stan_counter AS c (format, endpoint, tid, last_stan) VALUES ($1, $2, $3, 1) ${NEXT_STAN_ON_CONFLICT}`,
      [format, endpoint, tid],
    );
    return formatStan(rows[0].last_stan);
  }
}
