import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@app/database';
import { waitFor } from '@app/testing';

const ROOT = join(__dirname, '..');
const TS_NODE = ['--transpile-only', '-r', 'tsconfig-paths/register'];

/**
 * The environment of a user's shell: no DATABASE_URL, so standalone uses its embedded server, and
 * no NATS_URL, so it uses the in-process transport. (The test run's NATS_URL made it join the
 * platform's durable consumer on the machine's NATS, shared with any concurrent run: soak run 7
 * lost its device's profile to another run's standalone.)
 */
function userEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...extra };
  delete env.DATABASE_URL;
  delete env.NATS_URL;
  delete env.TEST_PG_SERVER_URL;
  delete env.AUTH_JWT_SECRET;
  return env;
}

function runCli(dataDir: string, args: string[]) {
  return spawnSync(join(ROOT, 'node_modules/.bin/ts-node'), [...TS_NODE, 'apps/cli/src/main.ts', ...args], {
    cwd: ROOT,
    env: userEnv(dataDir),
    encoding: 'utf8',
    timeout: 60000,
  });
}

describe('npm start (standalone) and the CLI on one DATA_DIR', () => {
  let dataDir: string;
  let server: ChildProcess;
  let baseUrl: string;
  let output = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'softpos-standalone-'));
    chmodSync(dataDir, 0o755);
    const port = await freePort();
    server = spawn(join(ROOT, 'node_modules/.bin/ts-node'), [...TS_NODE, 'apps/standalone/src/main.ts'], {
      cwd: ROOT,
      env: userEnv(dataDir, { PORT: String(port), LOG_LEVEL: 'warn' }),
    });
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // ts-node transpiles every context at start: seconds on a quiet machine, more under a loaded CI.
    const deadline = Date.now() + 150_000;
    while (!/token\s+:/.test(output)) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`standalone did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    baseUrl = `http://127.0.0.1:${port}`;
  }, 180_000);

  afterAll(async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
  });

  it('should print the base URL, the OpenAPI page and a working demo token', async () => {
    expect(output).toContain(`base URL : ${baseUrl}`);
    expect(output).toContain(`OpenAPI  : ${baseUrl}/docs`);
    expect(output).toMatch(/hosts {4}: simulator ISO8583 tcp:\/\/127\.0\.0\.1:\d+, S2M_8583 tcp:/);
    const token = /token\s+:\s+(\S+)/.exec(output)![1];
    const response = await fetch(`${baseUrl}/api/v2/current`, { headers: { authorization: `Bearer ${token}` } });
    expect(await response.json()).toMatchObject({ code: 0, data: { groupId: 'demo' } });
  });

  it('should serve the OpenAPI document at /docs', async () => {
    const response = await fetch(`${baseUrl}/docs/openapi.json`);
    const document = (await response.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/openapi/v1/mchInfo', '/api/v2/current', '/api/v2/order', '/api/v2/settlement']));
  });

  it('should serve the orders and settlement of the transactions context on the same port', async () => {
    const token = /token\s+:\s+(\S+)/.exec(output)![1];
    const get = async (path: string) => (await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(await get('/api/v2/order')).toEqual({ msg: 'SUCCESS', code: 0, data: { total: 0, current: 1, hasNext: false, records: [] } });
    expect(await get('/api/v2/settlement')).toEqual({ msg: 'SUCCESS', code: 0, data: { total: 0, current: 1, hasNext: false, records: [], pages: 0, size: 10 } });
    expect(await get(`/api/v2/order/tran_${'0'.repeat(22)}`)).toEqual({ msg: `order tran_${'0'.repeat(22)} does not exist`, code: 14000 });
  });

  it('should push a new device to the gateway in the same process (flow 2, in-process transport)', async () => {
    const token = /token\s+:\s+(\S+)/.exec(output)![1];
    const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await response.json()) as T;
    };
    const params = JSON.stringify({ aid: 'A0000000031010' });
    const emv = await call<{ data: { id: number } }>('POST', '/api/openapi/v1/emv', { emvName: 'visa', paymentMethod: '01', currency: 'MYR', params });
    const acquirer = await call<{ data: { id: number } }>('POST', '/api/openapi/v1/acquirer', {
      profileName: 'Standalone acquirer',
      currency: 'MYR',
      connMessageFormat: 'SVC_ENABLER',
      methodList: '{"01":[]}',
      emvList: JSON.stringify({ '01': [emv.data.id] }),
    });
    const merchant = await call<{ data: { mchId: string } }>('POST', '/api/openapi/v1/mchInfo', {
      mchName: 'Kedai',
      currency: 'MYR',
      contactName: 'A',
      contactEmail: 'a@example.com',
    });
    await call('POST', `/api/openapi/v1/mchInfo/payment/${merchant.data.mchId}`, { acquirerProfileId: String(acquirer.data.id), currency: 'MYR' });
    const code = await call<{ data: { profileId: string } }>('POST', '/api/openapi/v1/device', { mchId: merchant.data.mchId, deviceAlias: 'Till 1' });
    let profile: { acceptances?: { acptName: string; hostMessageFormat: string; supportedPayments: string[] }[] } = {};
    await waitFor(
      'the gateway profile of the new device',
      async () => {
        profile = await call('GET', `/demo/api/v1/profiles/${code.data.profileId}`);
        return profile.acceptances !== undefined;
      },
      30_000,
    );
    expect(profile.acceptances).toEqual([expect.objectContaining({ acptName: 'Standalone acquirer', hostMessageFormat: 'MOCK', supportedPayments: ['VISA'] })]);
  });

  it('should create a PBO with the CLI while standalone runs, usable at once', async () => {
    const result = runCli(dataDir, ['pbo', 'create', '--name', 'CLI Payments', '--time-zone', 'Europe/Paris', '--qr-enabled']);
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]) as { groupId: string; token: string };
    const response = await fetch(`${baseUrl}/api/v2/current`, { headers: { authorization: `Bearer ${created.token}` } });
    expect(await response.json()).toMatchObject({ code: 0, data: { groupId: created.groupId, groupName: 'CLI Payments', timeZone: 'Europe/Paris' } });
  });

  it('should mint a token for an existing PBO with the CLI', async () => {
    const result = runCli(dataDir, ['token', '--group-id', 'demo', '--ttl', '1h']);
    expect(result.status).toBe(0);
    const token = result.stdout.trim();
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { exp: number; iat: number };
    expect(payload.exp - payload.iat).toBe(3600);
    const response = await fetch(`${baseUrl}/api/v2/current`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
  });

  it('should refuse a token for a PBO that does not exist', () => {
    const result = runCli(dataDir, ['token', '--group-id', 'nobody']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('no PBO with group id nobody');
  });

  it('should refuse an unknown command with the usage', () => {
    const result = runCli(dataDir, ['pbo', 'remove']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('usage:');
  });

  it('should keep data across a restart and stop its PostgreSQL on SIGTERM', async () => {
    const created = JSON.parse(runCli(dataDir, ['pbo', 'create', '--name', 'Survivor']).stdout) as { groupId: string };
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    // With standalone stopped, the CLI starts the embedded server itself and finds the PBO.
    const token = runCli(dataDir, ['token', '--group-id', created.groupId]);
    expect(token.status).toBe(0);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });
});
