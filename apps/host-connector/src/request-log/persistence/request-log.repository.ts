import type { HostResponseV1 } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectHostConnectorDataSource } from '../../shared/inject';

/** Whether this replica owns a request, or someone handled (or is handling) it already. */
export type RequestClaim = { kind: 'new' } | { kind: 'done'; response: HostResponseV1 } | { kind: 'in-progress' };

@Injectable()
export class RequestLogRepository {
  constructor(@InjectHostConnectorDataSource() private readonly dataSource: DataSource) {}

  /** Claims (operation, requestId) for this handler, or tells what became of the earlier one. */
  async claim(operation: string, requestId: string, format: string, tid: string): Promise<RequestClaim> {
    const inserted: unknown[] = await this.dataSource.query(
      `INSERT INTO request_log (operation, request_id, format, tid) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING request_id`,
      [operation, requestId, format, tid],
    );
    if (inserted.length === 1) return { kind: 'new' };
    const response = await this.responseOf(operation, requestId);
    return response ? { kind: 'done', response } : { kind: 'in-progress' };
  }

  async responseOf(operation: string, requestId: string): Promise<HostResponseV1 | null> {
    const rows: Array<{ response: HostResponseV1 | null }> = await this.dataSource.query(
      `SELECT response FROM request_log WHERE operation = $1 AND request_id = $2`,
      [operation, requestId],
    );
    return rows[0]?.response ?? null;
  }

  async complete(operation: string, response: HostResponseV1): Promise<void> {
    await this.dataSource.query(
      `UPDATE request_log SET result = $3, mti = $4, stan = $5, host_resp_code = $6, response = $7, completed_at = now() WHERE operation = $1 AND request_id = $2`,
      [operation, response.requestId, response.result, response.mti, response.stan, response.hostRespCode, JSON.stringify(response)],
    );
  }

  /** Lets a request be tried again after this handler failed unexpectedly. */
  async release(operation: string, requestId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM request_log WHERE operation = $1 AND request_id = $2 AND response IS NULL`, [operation, requestId]);
  }
}
