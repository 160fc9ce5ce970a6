import { readAppConfig } from '@app/common/config/app-config-definition';
import { flagOption, ParsedArgs, requiredOption, stringOption } from './args';
import { phoneConfig } from './config/phone.config';
import { activate, baseUrlOf, pullConfig } from './phone/device-app';
import { loadDevice, saveDevice } from './phone/device-file';
import { postSale, saleRequest } from './phone/sale';
import { loadTapTimes, repeatableTap, saveTapTimes } from './phone/tap-state';

/** Where `npm start` listens unless PORT says otherwise. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

/** The commands that play the phone (docs/decisions.md, "The CLI plays the phone"): HTTP only, as an app would. */
export async function runPhoneCommand(command: 'device activate' | 'device config' | 'sale', args: ParsedArgs): Promise<string> {
  const { config, settings } = readAppConfig(phoneConfig, process.env);
  process.stderr.write(`cli ${settings}\n`);
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
  // A key's first tap is kept before the sale is sent: a retry after a lost answer rebuilds the same body.
  const key = stringOption(args, 'idempotency-key');
  const { tap, times } = repeatableTap(key, key === undefined ? {} : await loadTapTimes(config.dataDir), new Date());
  if (key !== undefined) await saveTapTimes(config.dataDir, times);
  const request = saleRequest(
    device,
    {
      amount: requiredOption(args, 'amount'),
      card: stringOption(args, 'card'),
      currency: stringOption(args, 'currency'),
      auth: flagOption(args, 'auth'),
      posReference: stringOption(args, 'pos-reference'),
    },
    tap,
  );
  return JSON.stringify(await postSale(request), null, 2);
}
