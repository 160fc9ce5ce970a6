import { resolve } from 'node:path';
import { ensureDatabase } from './context-data-source';
import { startEmbeddedDatabase } from './embedded-postgres';

/** The database a process runs against, and how to let go of it. */
export interface RuntimeDatabase {
  url: string;
  /** `server` when DATABASE_URL was given, else `embedded`. */
  kind: 'server' | 'embedded';
  /** Stops the embedded server when this process started it; no-op otherwise. */
  release(): Promise<void>;
}

/** Name of the database the embedded server holds the system's data in. */
export const EMBEDDED_DATABASE_NAME = 'softpos';

/** `DATA_DIR`, default `./data` beside where the process was started. */
export function dataDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR || 'data');
}

/**
 * DATABASE_URL when set; otherwise, if allowed, the embedded PostgreSQL under DATA_DIR
 * (started, or attached to when another process of ours already runs it).
 */
export async function resolveRuntimeDatabase(options: { allowEmbedded: boolean; env?: NodeJS.ProcessEnv }): Promise<RuntimeDatabase> {
  const env = options.env ?? process.env;
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, kind: 'server', release: async () => undefined };
  if (!options.allowEmbedded) throw new Error('DATABASE_URL must be set');
  const port = env.EMBEDDED_PG_PORT ? Number(env.EMBEDDED_PG_PORT) : undefined;
  const server = await startEmbeddedDatabase({ dataDir: dataDirFromEnv(env), port, verbose: env.EMBEDDED_PG_VERBOSE === '1' });
  const url = await ensureDatabase(server.url, EMBEDDED_DATABASE_NAME);
  return { url, kind: 'embedded', release: () => server.stop() };
}
