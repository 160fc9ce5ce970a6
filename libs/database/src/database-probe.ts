import { Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Answers whether a context's database answers (readiness probes). */
export class DatabaseProbe {
  constructor(private readonly dataSource: DataSource) {}

  async reachable(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}

/** {@link DatabaseProbe} on the DataSource named `connection`, for the module whose health it tells. */
export function databaseProbeProvider(connection: string): Provider {
  return { provide: DatabaseProbe, inject: [getDataSourceToken(connection)], useFactory: (dataSource: DataSource) => new DatabaseProbe(dataSource) };
}
