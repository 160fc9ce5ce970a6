import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectMmDataSource } from '../../shared/inject';

@Injectable()
export class ActivationThrottleRepository {
  constructor(@InjectMmDataSource() private readonly dataSource: DataSource) {}

  async failures(clientKey: string, windowStart: Date): Promise<number> {
    const rows: { failures: number }[] = await this.dataSource.query('SELECT failures FROM activation_throttle WHERE client_key = $1 AND window_start = $2', [clientKey, windowStart]);
    return rows[0]?.failures ?? 0;
  }

  /** Counts one failure and answers the window's total; old windows are pruned on the way. */
  async recordFailure(clientKey: string, windowStart: Date): Promise<number> {
    const rows: { failures: number }[] = await this.dataSource.query(
      `INSERT INTO activation_throttle (client_key, window_start, failures) VALUES ($1, $2, 1)
       ON CONFLICT (client_key, window_start) DO UPDATE SET failures = activation_throttle.failures + 1
       RETURNING failures`,
      [clientKey, windowStart],
    );
    await this.dataSource.query(`DELETE FROM activation_throttle WHERE window_start < now() - interval '1 day'`);
    return rows[0].failures;
  }
}
