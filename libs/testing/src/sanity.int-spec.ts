import { Client } from 'pg';
import { createTestDatabase } from './test-database';

describe('test database', () => {
  it('should hand out an empty database that accepts queries', async () => {
    const db = await createTestDatabase();
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const result = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'");
    await client.end();
    await db.drop();
    expect(result.rows[0].n).toBe(0);
  });
});
