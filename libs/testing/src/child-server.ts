import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..', '..');

/**
 * A server in its own process: a benchmark's, so the measuring process does not share its event
 * loop, or a test's, so the test can kill it.
 */
export interface ChildServer {
  port: number;
  child: ChildProcess;
}

/**
 * Starts the TypeScript file `script` (an absolute path) with ts-node, in production mode with
 * this process's environment plus `env`, and waits for it to print `READY <port>`.
 */
export async function startChildServer(script: string, args: string[], label: string, env: NodeJS.ProcessEnv = {}): Promise<ChildServer> {
  const child = spawn(join(REPO_ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', '-r', 'tsconfig-paths/register', script, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`${label} server exited with ${code}`)));
  });
  return { port, child };
}
