import { loadAppConfig } from '@app/common';
import { createHash, randomUUID } from 'node:crypto';
import { flagOption, ParsedArgs, requiredOption, stringOption } from './args';
import { phoneConfig } from './config/phone.config';
import { activate, baseUrlOf, pullConfig } from './phone/device-app';
import { loadDevice, saveDevice } from './phone/device-file';
import { postSale, saleRequest } from './phone/sale';

/** Where `npm start` listens unless PORT says otherwise. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

/** The commands that play the phone (docs/decisions.md, "The CLI plays the phone"): HTTP only, as an app would. */
export async function runPhoneCommand(command: 'device activate' | 'device config' | 'sale', args: ParsedArgs): Promise<string> {
  const { config } = await loadAppConfig(phoneConfig, (line) => process.stderr.write(`cli ${line}\n`));
  if (command === 'device activate') {
    const baseUrl = baseUrlOf(stringOption(args, 'url') ?? DEFAULT_BASE_URL);
    const device = await activate(baseUrl, requiredOption(args, 'code'), new Date());
    const file = await saveDevice(config.dataDir, device);
    // The token stays in the file: a terminal's scroll-back is no place for it.
    return JSON.stringify({ deviceId: device.deviceId, namespace: device.namespace, profileId: device.profileId, file });
  }
  const stored = await loadDevice(config.dataDir);
  const url = stringOption(args, 'url');
  const device = url === undefined ? stored : { ...stored, baseUrl: baseUrlOf(url) };
  if (command === 'device config') {
    const pulled = await pullConfig(device);
    const file = await saveDevice(config.dataDir, pulled);
    return JSON.stringify({ deviceId: pulled.deviceId, namespace: pulled.namespace, profileId: pulled.profileId, file });
  }
  const request = saleRequest(
    device,
    {
      amount: requiredOption(args, 'amount'),
      card: stringOption(args, 'card'),
      currency: stringOption(args, 'currency'),
      auth: flagOption(args, 'auth'),
      posReference: stringOption(args, 'pos-reference'),
    },
    repeatableTap(stringOption(args, 'idempotency-key')),
  );
  return JSON.stringify(await postSale(request), null, 2);
}

/**
 * A fresh tap (random cryptogram and unpredictable number) and key; or, for a key the user gives
 * (a retry of a sale whose answer was lost), the same tap again: its random parts are drawn from
 * the key, so the repeat carries the same body and the gateway answers the stored transaction
 * instead of refusing another body under that key (422).
 */
function repeatableTap(key: string | undefined): { now: Date; idempotencyKey: string; random?: (size: number) => Buffer } {
  if (key === undefined) return { now: new Date(), idempotencyKey: randomUUID() };
  let counter = 0;
  return {
    now: new Date(),
    idempotencyKey: key,
    random: (size) => createHash('sha256').update(`${key}:${(counter += 1)}`).digest().subarray(0, size),
  };
}
