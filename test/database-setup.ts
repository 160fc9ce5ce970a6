import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
// Jest loads global setup outside the module name mapper, so the alias is not available here.
// eslint-disable-next-line no-restricted-imports
import { startEmbeddedDatabase } from '../libs/database/src/embedded-postgres';

/**
 * Gives the integration and end-to-end tests a PostgreSQL server (jest.config.js names this file
 * for those projects only, so a unit run starts nothing): the one in DATABASE_URL (CI runs the
 * suite against the machine's server this way, and fails when it cannot connect), else an
 * embedded one in a temporary folder, so `npm test` needs nothing installed.
 */
export default async function databaseSetup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    const client = new Client({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (error) {
      throw new Error(`DATABASE_URL is set but PostgreSQL cannot be reached (${String(error)}): refusing to run the tests without it`);
    } finally {
      await client.end().catch(() => undefined);
    }
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'softpos-test-pg-'));
  chmodSync(dataDir, 0o755);
  const server = await startEmbeddedDatabase({ dataDir });
  process.env.TEST_PG_SERVER_URL = server.url;
  (globalThis as { __EMBEDDED_PG__?: { stop(): Promise<void> } }).__EMBEDDED_PG__ = server;
}
