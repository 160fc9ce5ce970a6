import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * URL of the PostgreSQL server the tests run against: `DATABASE_URL` when given (CI's server),
 * else the embedded server that `test/database-setup.ts` started (`TEST_PG_SERVER_URL`).
 */
export function testServerUrl(): string {
  const url = process.env.DATABASE_URL || process.env.TEST_PG_SERVER_URL;
  if (!url) throw new Error('no test database server: run it as an integration or end-to-end test through jest (test/database-setup.ts) or set DATABASE_URL');
  return url;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the test server, so each test file starts from nothing. */
export async function createTestDatabase(prefix = 't'): Promise<TestDatabase> {
  const serverUrl = testServerUrl();
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    // A test's data need not survive a crash of the server: its commits do not wait for the disk
    // flush (every connection to the database takes this), which on a shared two-core machine is
    // much of a commit's time. Atomicity, locks and isolation are unchanged.
    await admin.query(`ALTER DATABASE "${name}" SET synchronous_commit TO off`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
