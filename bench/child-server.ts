import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** A server a benchmark runs in its own process, so the measuring process does not share its event loop. */
export interface ChildServer {
  port: number;
  child: ChildProcess;
}

/** Starts `bench/<script>` with ts-node and waits for it to print `READY <port>`. */
export async function startChildServer(script: string, args: string[], label: string): Promise<ChildServer> {
  const child = spawn(join(__dirname, '..', 'node_modules/.bin/ts-node'), ['--transpile-only', '-r', 'tsconfig-paths/register', join(__dirname, script), ...args], {
    cwd: join(__dirname, '..'),
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'error' },
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
