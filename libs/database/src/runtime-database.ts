import { ConfigError } from '@app/common';
import { dataDirOf, DatabaseSettings } from './database-variables';
import { ensureDatabase } from './context-data-source';
import { startEmbeddedDatabase } from './embedded-postgres';

export * from './database-variables';

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

/** A distributed app's database: DATABASE_URL is required. */
export function requireDatabaseUrl(settings: Pick<DatabaseSettings, 'DATABASE_URL'>): string {
  if (!settings.DATABASE_URL) throw new ConfigError(['DATABASE_URL must be set']);
  return settings.DATABASE_URL;
}

/**
 * DATABASE_URL when set; otherwise, if allowed, the embedded PostgreSQL under DATA_DIR
 * (started, or attached to when another process of ours already runs it).
 */
export async function resolveRuntimeDatabase(settings: DatabaseSettings, options: { allowEmbedded: boolean }): Promise<RuntimeDatabase> {
  if (settings.DATABASE_URL) return { url: settings.DATABASE_URL, kind: 'server', release: async () => undefined };
  if (!options.allowEmbedded) requireDatabaseUrl(settings);
  const server = await startEmbeddedDatabase({
    dataDir: dataDirOf(settings),
    port: settings.EMBEDDED_PG_PORT || undefined,
    verbose: settings.EMBEDDED_PG_VERBOSE === '1',
  });
  const url = await ensureDatabase(server.url, EMBEDDED_DATABASE_NAME);
  return { url, kind: 'embedded', release: () => server.stop() };
}
