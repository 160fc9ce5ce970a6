import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectHostConnectorDataSource } from '../../shared/inject';
import { WorkingKeyEntity, WorkingKeySource } from './working-key.entity';

@Injectable()
export class WorkingKeyRepository {
  constructor(@InjectHostConnectorDataSource() private readonly dataSource: DataSource) {}

  /** Replaces the terminal's key. */
  async store(key: { format: string; endpoint: string; tid: string; sealedKey: string; keyCheckValue: string; source: WorkingKeySource }): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO working_key (format, endpoint, tid, sealed_key, key_check_value, source, received_at) VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (format, endpoint, tid) DO UPDATE
         SET sealed_key = excluded.sealed_key, key_check_value = excluded.key_check_value, source = excluded.source, received_at = excluded.received_at`,
      [key.format, key.endpoint, key.tid, key.sealedKey, key.keyCheckValue, key.source],
    );
  }

  async find(format: string, endpoint: string, tid: string): Promise<WorkingKeyEntity | null> {
    return this.dataSource.getRepository(WorkingKeyEntity).findOneBy({ format, endpoint, tid });
  }
}
