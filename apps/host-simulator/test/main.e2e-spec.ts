import { networkRequest, target } from '@app/host-protocol/testing/factories';
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { answerOf, IsoTestClient } from './support';

const ROOT = join(__dirname, '..', '..', '..');

/** Starts `npm run start:host-simulator`'s command with free ports; resolves with the child and its output so far once it listens. */
function startMain(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'apps/host-simulator/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, TS_NODE_PROJECT: 'tsconfig.json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the simulator did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('JSON hosts')) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the simulator exited with ${code}:\n${output}`));
    });
  });
}

describe('host-simulator main', () => {
  it('should run on its own from the environment, answer on TCP and HTTP, and stop on SIGTERM', async () => {
    const { child, output } = await startMain({
      HOST_SIM_ISO8583_PORT: '0',
      HOST_SIM_S2M_8583_PORT: 'off',
      HOST_SIM_MASARAT_8583_PORT: 'off',
      HOST_SIM_CASHPLUS_8583_PORT: 'off',
      HOST_SIM_HTTP_PORT: '0',
    });
    try {
      expect(output()).toContain('WARNING HOST_ZMK is not set');
      const isoPort = Number(/ISO8583: ISO 8583 host listening on 127\.0\.0\.1:([0-9]+)/.exec(output())?.[1]);
      const httpUrl = /listening on (http:\/\/\S+)/.exec(output())?.[1] as string;
      expect(output()).not.toContain('S2M_8583: ISO 8583 host listening');

      const client = await IsoTestClient.connect('ISO8583', isoPort);
      expect(answerOf(await client.request('echo', networkRequest(target()))).hostRespCode).toBe('00');
      client.close();
      const stats = (await (await fetch(`${httpUrl}/stats`)).json()) as { received: Record<string, number> };
      expect(stats.received['0800']).toBe(1);

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output()).toContain('SIGTERM: closing');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);

  it('should refuse to start in production without HOST_ZMK', async () => {
    await expect(startMain({ NODE_ENV: 'production', HOST_ZMK: '', HOST_SIM_HTTP_PORT: '0', HOST_SIM_ISO8583_PORT: '0' })).rejects.toThrow(
      /exited with 1[\s\S]*HOST_ZMK is required/,
    );
  }, 60_000);
});
