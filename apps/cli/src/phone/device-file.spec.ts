import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deviceFilePath, loadDevice, saveDevice, StoredDevice } from './device-file';

const DEVICE: StoredDevice = {
  baseUrl: 'http://127.0.0.1:3000',
  deviceId: 'SDK0123456789ABCDEF0123',
  namespace: 'demo',
  profileId: 'prof_AAAAAAAAAAAAAAAA',
  deviceToken: 'device.token.jwt',
  emvParams: { txnCurrencyCode: '0458' },
  emvAID: [{ aid: 'A0000000031010', paymentMethod: '01' }],
  activatedAt: '2026-05-01T00:00:00.000Z',
};

const dataDir = () => mkdtempSync(join(tmpdir(), 'softpos-cli-'));
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the device file', () => {
  it('should keep the device under DATA_DIR/cli, readable by its owner only, and read it back', async () => {
    const dir = dataDir();

    const path = await saveDevice(dir, DEVICE);

    expect(path).toBe(join(dir, 'cli', 'device.json'));
    expect(modeOf(path)).toBe(0o600);
    expect(modeOf(join(dir, 'cli'))).toBe(0o700);
    expect(await loadDevice(dir)).toEqual(DEVICE);
  });

  it('should replace an earlier device and its wider mode', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'cli'));
    writeFileSync(deviceFilePath(dir), '{"old": true}');
    chmodSync(deviceFilePath(dir), 0o644);

    await saveDevice(dir, { ...DEVICE, deviceId: 'SDKNEW' });

    expect(modeOf(deviceFilePath(dir))).toBe(0o600);
    expect(JSON.parse(readFileSync(deviceFilePath(dir), 'utf8'))).toMatchObject({ deviceId: 'SDKNEW' });
  });

  it('should say how to activate when there is no device, and refuse a file that holds none', async () => {
    const dir = dataDir();
    await expect(loadDevice(dir)).rejects.toThrow(
      `no activated device in ${deviceFilePath(dir)}: run \`npm run -s cli -- device activate --code <code>\` first`,
    );

    mkdirSync(join(dir, 'cli'));
    writeFileSync(deviceFilePath(dir), 'not json');
    await expect(loadDevice(dir)).rejects.toThrow('is not JSON: activate the device again');
    writeFileSync(deviceFilePath(dir), '{"deviceId": "SDK1"}');
    await expect(loadDevice(dir)).rejects.toThrow('does not hold an activated device');
  });
});
