import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedDatabase } from '@app/database';
import { createTestDatabase, TestDatabase } from '@app/testing';

/**
 * Runs `work` with a throw-away database: on DATABASE_URL's server when set, else on an
 * embedded server in a temporary folder, removed afterwards (scripts need nothing installed either).
 */
export async function withScratchDatabase<T>(work: (database: TestDatabase) => Promise<T>): Promise<T> {
  let stopServer: (() => Promise<void>) | undefined;
  if (!process.env.DATABASE_URL && !process.env.TEST_PG_SERVER_URL) {
    const dir = mkdtempSync(join(tmpdir(), 'softpos-scratch-'));
    chmodSync(dir, 0o755);
    const server = await startEmbeddedDatabase({ dataDir: dir });
    process.env.TEST_PG_SERVER_URL = server.url;
    stopServer = async () => {
      await server.stop();
      delete process.env.TEST_PG_SERVER_URL;
      rmSync(dir, { recursive: true, force: true });
    };
  }
  try {
    const database = await createTestDatabase('scratch');
    try {
      return await work(database);
    } finally {
      await database.drop();
    }
  } finally {
    await stopServer?.();
  }
}
