import { isIanaTimeZone } from '@app/contracts/iso-codes';
import { requestJson, failureOf, RemoteError } from './http';
import { StoredDevice } from './device-file';
import { UsageError } from '../args';

/** What merchant-management's `/api/sdk/v1/activate` and `/config` answer in `data` (docs/decisions.md, "Device app"). */
interface DeviceAppData {
  deviceId: string;
  namespace?: string;
  profileId: string | null;
  emvParams: Record<string, string>;
  emvAID: { aid: string; paymentMethod: string }[];
  deviceToken: string;
  /** Absent from platforms older than it. */
  timeZone?: string;
}

const SDK = '/api/sdk/v1';

/** What the CLI tells the platform about itself, as a phone reports its model and app version. */
const DEVICE_INFO = { model: 'softpos-cli', os: `${process.platform} node ${process.version}`, appVersion: 'cli' };

function dataOf(what: string, answer: { status: number; body: unknown }): DeviceAppData {
  const envelope = answer.body as { code?: unknown; data?: Partial<DeviceAppData> } | null;
  if (answer.status !== 200 || envelope?.code !== 0) throw failureOf(what, answer);
  const data = envelope.data;
  if (!data || typeof data.deviceId !== 'string' || typeof data.deviceToken !== 'string')
    throw new RemoteError(`${what}: the answer holds no device id and token`);
  return { profileId: null, emvParams: {}, emvAID: [], ...data } as DeviceAppData;
}

/** The base URL as given, without a trailing slash; refused unless http(s). */
export function baseUrlOf(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url must be an http:// or https:// URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must be an http:// or https:// URL, got "${text}"`);
  return url.toString().replace(/\/+$/, '');
}

/** Activates this "phone" with an activation code, as the app does (flow 4), and answers what it must keep. */
export async function activate(baseUrl: string, activationCode: string, now: Date): Promise<StoredDevice> {
  if (!/^\d{12}$/.test(activationCode)) throw new UsageError('--code must be the 12 digits of an activation code');
  const answer = await requestJson('POST', `${baseUrl}${SDK}/activate`, { body: { activationCode, deviceInfo: DEVICE_INFO } });
  const data = dataOf('activation refused', answer);
  if (typeof data.namespace !== 'string') throw new RemoteError('activation refused: the answer names no gateway namespace');
  return {
    baseUrl,
    deviceId: data.deviceId,
    namespace: data.namespace,
    profileId: data.profileId,
    deviceToken: data.deviceToken,
    emvParams: data.emvParams,
    emvAID: data.emvAID,
    activatedAt: now.toISOString(),
    ...timeZoneOf(data),
  };
}

/** Pulls the device's current configuration (and a renewed token), as the app does when told its profile changed. */
export async function pullConfig(device: StoredDevice): Promise<StoredDevice> {
  const answer = await requestJson('GET', `${device.baseUrl}${SDK}/config`, { headers: { authorization: `Bearer ${device.deviceToken}` } });
  const data = dataOf('configuration refused', answer);
  return { ...device, profileId: data.profileId, deviceToken: data.deviceToken, emvParams: data.emvParams, emvAID: data.emvAID, ...timeZoneOf(data) };
}

/** The merchant's time zone the platform answered, when it is one this runtime knows. */
function timeZoneOf(data: DeviceAppData): { timeZone?: string } {
  return isIanaTimeZone(data.timeZone) ? { timeZone: data.timeZone } : {};
}
