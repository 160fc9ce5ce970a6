import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** What the CLI keeps of an activation: what a phone keeps to take payments (docs/decisions.md, "The CLI plays the phone"). */
export interface StoredDevice {
  /** The base URL the device was activated at; sales go to the gateway at the same address. */
  baseUrl: string;
  deviceId: string;
  namespace: string;
  profileId: string | null;
  /** The device token the gateway takes: a secret, hence the file's mode 0600. */
  deviceToken: string;
  emvParams: Record<string, string>;
  emvAID: { aid: string; paymentMethod: string }[];
  activatedAt: string;
  /** The merchant's time zone, as activation or `/config` answered it (absent from files of older CLIs: UTC). */
  timeZone?: string;
}

/** Where the activated device is kept: `<DATA_DIR>/cli/device.json`. */
export function deviceFilePath(dataDir: string): string {
  return join(dataDir, 'cli', 'device.json');
}

/**
 * Writes the device readable by its owner only (0600, in a 0700 folder), replacing any earlier
 * one in one step: a new file renamed over the old, so an existing file's wider mode is not kept
 * and a crash leaves either the old device or the new one.
 */
export async function saveDevice(dataDir: string, device: StoredDevice): Promise<string> {
  const path = deviceFilePath(dataDir);
  await writeOwnerOnlyJson(path, device);
  return path;
}

/** `value` as JSON at `path`, readable by its owner only (0600, in a 0700 folder), replacing any earlier file in one step. */
export async function writeOwnerOnlyJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  await rename(temporary, path);
}

/** The activated device, or an error saying how to get one. */
export async function loadDevice(dataDir: string): Promise<StoredDevice> {
  const path = deviceFilePath(dataDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`no activated device in ${path}: run \`npm run -s cli -- device activate --code <code>\` first`);
    throw error;
  }
  let device: Partial<StoredDevice>;
  try {
    device = JSON.parse(text) as Partial<StoredDevice>;
  } catch {
    throw new Error(`${path} is not JSON: activate the device again`);
  }
  if (
    typeof device.baseUrl !== 'string' ||
    typeof device.namespace !== 'string' ||
    typeof device.deviceToken !== 'string' ||
    typeof device.deviceId !== 'string'
  ) {
    throw new Error(`${path} does not hold an activated device: activate the device again`);
  }
  return { profileId: null, emvParams: {}, emvAID: [], activatedAt: '', ...device } as StoredDevice;
}
