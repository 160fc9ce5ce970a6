import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectHostConnectorDataSource } from '../../shared/inject';
import { formatStan } from '../../protocol/wire';

/** Largest STAN; the next one after it is 000001 (000000 is never used). */
export const MAX_STAN = 999_999;

/**
 * STANs per terminal from the database: one atomic upsert per STAN, so replicas sharing the
 * database never hand out the same STAN for the same (format, host, TID) until it wraps.
 */
@Injectable()
export class StanRepository {
  constructor(@InjectHostConnectorDataSource() private readonly dataSource: DataSource) {}

  async next(format: string, endpoint: string, tid: string): Promise<string> {
    const rows: Array<{ last_stan: number }> = await this.dataSource.query(
      `INSERT INTO stan_counter AS c (format, endpoint, tid, last_stan) VALUES ($1, $2, $3, 1)
       ON CONFLICT (format, endpoint, tid) DO UPDATE
         SET last_stan = CASE WHEN c.last_stan >= ${MAX_STAN} THEN 1 ELSE c.last_stan + 1 END, updated_at = now()
       RETURNING last_stan`,
      [format, endpoint, tid],
    );
    return formatStan(rows[0].last_stan);
  }
}
