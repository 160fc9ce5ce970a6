import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectHostConnectorDataSource } from '../../shared/inject';

/** Answers whether the context's database answers. */
@Injectable()
export class HostConnectorDatabaseProbe {
  constructor(@InjectHostConnectorDataSource() private readonly dataSource: DataSource) {}

  async reachable(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}
