import { openContextDataSource } from '@app/database';
import { createTestDatabase, itChecksContextMigrations } from '@app/testing';
import { merchantManagementDatabase } from '../database';

describe('merchant-management migrations', () => {
  itChecksContextMigrations(merchantManagementDatabase);

  it('should migrate once when several replicas start together', async () => {
    const db = await createTestDatabase();
    const sources = await Promise.all([1, 2, 3].map(() => openContextDataSource(db.url, merchantManagementDatabase)));
    try {
      const rows: { n: number }[] = await sources[0].query('SELECT count(*)::int AS n FROM merchant_management.migrations');
      expect(rows[0].n).toBe((merchantManagementDatabase.migrations as unknown[]).length);
    } finally {
      await Promise.all(sources.map((source) => source.destroy()));
      await db.drop();
    }
  });
});
