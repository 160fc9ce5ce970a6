import { freePort } from '@app/database';
import { ApiClient, createCardAcquirer, createMerchant, dataOf, MerchantView, startTestApp, TestApp, unique } from '@app/testing';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MerchantManagementAppModule, PboService } from '../../merchant-management/src';
import { StoredDevice } from '../src/phone/device-file';
import { cliDataDir, runCli } from './cli-process';

/**
 * `npm run -s cli -- device activate` and `device config` against a started merchant-management,
 * over HTTP as the phone app: the CLI keeps the device token in DATA_DIR (0600) and prints the
 * device, never the token. Plus the CLI's usage (`--help`, no command, bad options).
 */

interface Printed {
  deviceId: string;
  namespace: string;
  profileId: string | null;
  file: string;
}

describe('cli: device activate', () => {
  let app: TestApp;
  let pbo: ApiClient;
  let merchant: MerchantView;

  beforeAll(async () => {
    app = await startTestApp((options) => MerchantManagementAppModule.register(options));
    const created = await app.app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur' });
    pbo = await app.clientFor(created.groupId);
    const acquirer = await createCardAcquirer(pbo, ['02', '01']);
    merchant = await createMerchant(pbo, { country: 'MY' });
    dataOf(await pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirer.id), currency: 'MYR' }));
  });
  afterAll(() => app?.close());

  const newCode = async () =>
    dataOf<{ id: string; activationCode: string; profileId: string | null }>(
      await pbo.post('/api/openapi/v1/device', { mchId: merchant.mchId, deviceAlias: 'CLI till' }),
    );

  it('should activate with a code, keep the device and its token in DATA_DIR/cli/device.json (0600), and print the device without the token', async () => {
    const code = await newCode();
    const dataDir = cliDataDir();

    const run = await runCli(dataDir, ['device', 'activate', '--code', code.activationCode, '--url', app.baseUrl]);

    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('error') });
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const printed = JSON.parse(lines[0]) as Printed;
    expect(printed).toEqual({
      deviceId: expect.stringMatching(/^SDK[0-9A-F]{20}$/),
      namespace: 'demo',
      profileId: code.profileId,
      file: join(dataDir, 'cli', 'device.json'),
    });
    expect(statSync(printed.file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(printed.file, 'utf8')) as StoredDevice;
    expect(stored).toMatchObject({
      baseUrl: app.baseUrl,
      deviceId: printed.deviceId,
      namespace: 'demo',
      profileId: code.profileId,
      emvParams: { txnCurrencyCode: '0458', terminalCountryCode: '0458' },
    });
    expect(stored.emvAID.map((entry) => entry.paymentMethod).sort()).toEqual(['01', '02']);
    expect(run.stdout + run.stderr).not.toContain(stored.deviceToken);

    // The platform sees an active device, and the kept token is one it accepts.
    expect(dataOf(await pbo.get(`/api/openapi/v1/device/${printed.deviceId}`))).toMatchObject({ deviceStatus: 1, appVersion: 'cli' });
    expect(dataOf(await new ApiClient(app.baseUrl, stored.deviceToken).get('/api/sdk/v1/config'))).toMatchObject({ deviceId: printed.deviceId });

    const pulled = await runCli(dataDir, ['device', 'config']);
    expect(pulled.status).toBe(0);
    expect(JSON.parse(pulled.stdout) as Printed).toEqual(printed);
    expect(statSync(printed.file).mode & 0o777).toBe(0o600);
  });

  it('should print what the platform said and keep the device it had when a code is refused', async () => {
    const code = await newCode();
    const dataDir = cliDataDir();
    const first = await runCli(dataDir, ['device', 'activate', '--code', code.activationCode, '--url', app.baseUrl]);
    const kept = readFileSync(join(dataDir, 'cli', 'device.json'), 'utf8');

    const again = await runCli(dataDir, ['device', 'activate', '--code', code.activationCode, '--url', app.baseUrl]);

    expect(first.status).toBe(0);
    expect({ status: again.status, stdout: again.stdout }).toEqual({ status: 1, stdout: '' });
    expect(again.stderr).toContain('error: activation refused: activation code was already used (code 10000, HTTP 409)');
    expect(readFileSync(join(dataDir, 'cli', 'device.json'), 'utf8')).toBe(kept);
  });

  it('should refuse a malformed code with the usage, asking nothing of the platform', async () => {
    const run = await runCli(cliDataDir(), ['device', 'activate', '--code', '1234-5678', '--url', app.baseUrl]);

    expect(run.status).toBe(2);
    expect(run.stderr).toContain('error: --code must be the 12 digits of an activation code');
    expect(run.stderr).toContain('usage:');
  });

  it('should say which address it could not reach', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;

    const run = await runCli(cliDataDir(), ['device', 'activate', '--code', '123456789012', '--url', closed]);

    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`error: could not reach ${closed} (ECONNREFUSED); is the platform running (npm start)?`);
  });
});

describe('cli: usage', () => {
  it('should list every command on --help, on standard output, and succeed', async () => {
    const run = await runCli(cliDataDir(), ['--help']);

    expect(run.status).toBe(0);
    for (const command of ['pbo create', 'token', 'device activate', 'device config', 'sale --amount']) expect(run.stdout).toContain(command);
  });

  it('should refuse no command and an unknown one with the usage', async () => {
    const [none, unknown] = await Promise.all([runCli(cliDataDir(), []), runCli(cliDataDir(), ['device', 'remove'])]);

    expect([none.status, unknown.status]).toEqual([2, 2]);
    expect(none.stderr).toContain('error: no command given');
    expect(unknown.stderr).toContain('error: unknown command "device remove"');
    expect(unknown.stderr).toContain('usage:');
  });
});
