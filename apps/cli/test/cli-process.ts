import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A DATA_DIR of its own, as a user's working copy would have. */
export function cliDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'softpos-cli-e2e-'));
}

/**
 * Runs `npm run -s cli -- <args>` as a user would (ts-node on apps/cli/src/main.ts), without
 * blocking this process: the platform the CLI talks to may be served by the test itself.
 */
export function runCli(dataDir: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.NATS_URL;
  Object.assign(env, extraEnv);
  const child = spawn(join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', '-r', 'tsconfig-paths/register', 'apps/cli/src/main.ts', ...args], {
    cwd: ROOT,
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
