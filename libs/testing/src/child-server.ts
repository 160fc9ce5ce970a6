import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

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
 * Child servers compiled to JavaScript with the repo's build configuration (tsconfig.build.json,
 * as the Dockerfile builds the apps), into `outDir`: they run under plain node as the deployed
 * apps do (`node -r tsconfig-paths/register dist/…/main.js`), without ts-node and what it loads.
 */
export interface CompiledServers {
  outDir: string;
}

/**
 * Compiles `scripts` (absolute paths of TypeScript entry points; tsc follows their imports) with
 * tsconfig.build.json's options into dist/child-servers (git ignores dist/; inside the checkout so
 * that node finds node_modules from there, as it does from the image's dist). tsc builds
 * incrementally there (its own build info), so a run with no source changed only checks that
 * nothing changed. A type error fails it, as it fails `npm run build`.
 */
export async function compileChildServers(scripts: string[]): Promise<CompiledServers> {
  const outDir = join(REPO_ROOT, 'dist', 'child-servers');
  mkdirSync(outDir, { recursive: true });
  const project = join(outDir, 'tsconfig.json');
  writeFileSync(
    project,
    JSON.stringify({
      extends: join(REPO_ROOT, 'tsconfig.build.json'),
      compilerOptions: { outDir, rootDir: REPO_ROOT, incremental: true, tsBuildInfoFile: join(outDir, 'tsconfig.tsbuildinfo') },
      include: [],
      files: scripts,
    }),
  );
  try {
    await promisify(execFile)(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', project], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`compiling the child servers failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
  return { outDir };
}

/**
 * Starts the TypeScript file `script` (an absolute path), in production mode with this process's
 * environment plus `env`, and waits for it to print `READY <port>`: with ts-node, or, given
 * `compiled` (compileChildServers with `script` among its scripts), its compiled JavaScript under
 * node, the @app/* aliases resolved by tsconfig-paths against `compiled.outDir` as the Dockerfile
 * resolves them against dist.
 */
export async function startChildServer(script: string, args: string[], label: string, env: NodeJS.ProcessEnv = {}, compiled?: CompiledServers): Promise<ChildServer> {
  const [command, commandArgs, commandEnv] = compiled
    ? [
        process.execPath,
        ['-r', 'tsconfig-paths/register', join(compiled.outDir, relative(REPO_ROOT, script).replace(/\.ts$/, '.js'))],
        { TS_NODE_PROJECT: join(REPO_ROOT, 'tsconfig.base.json'), TS_NODE_BASEURL: compiled.outDir },
      ]
    : [join(REPO_ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', '-r', 'tsconfig-paths/register', script], {}];
  const child = spawn(command, [...commandArgs, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'error', ...commandEnv, ...env },
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
