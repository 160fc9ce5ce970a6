import { countryOfCurrency, currencyInfo, isIsoCurrency } from '@app/contracts/iso-codes';
import { currencyExponent, decimalToMinor, minorToDecimal } from '@app/contracts/money';
import { isPaymentMethodCode, paymentMethodName } from '@app/contracts/payment-methods';
import { isTestCardScheme, TEST_CARD_SCHEMES, testCardEmv, TestCardScheme } from '@app/host-protocol/test-cards';
import * as currencyCodes from 'currency-codes';
import { UsageError } from '../args';
import { StoredDevice } from './device-file';
import { failureOf, requestJson } from './http';

/** What `sale` was asked on the command line. */
export interface SaleOptions {
  /** Decimal amount as typed: `12.50`. */
  amount: string;
  card?: string;
  currency?: string;
  /** An AUTH (pre-authorisation, captured later) instead of a SALE. */
  auth: boolean;
  posReference?: string;
}

/** `POST /{namespace}/api/v1/transaction` as the SDK sends it (docs/decisions.md, "Transactions"). */
export interface SaleRequest {
  url: string;
  headers: Record<string, string>;
  body: {
    profileId: string;
    tranType: 'SALE' | 'AUTH';
    amount: { value: string; currency: string };
    emvData: string;
    posReference?: string;
  };
  /** The test card tapped. */
  card: TestCardScheme;
}

/** `--currency`, else the transaction currency the activation gave the terminal (`txnCurrencyCode`). */
function currencyOf(device: StoredDevice, given: string | undefined): string {
  if (given !== undefined) {
    const alpha = given.toUpperCase();
    if (!isIsoCurrency(alpha)) throw new UsageError(`--currency must be an ISO 4217 currency code such as MYR, got "${given}"`);
    return alpha;
  }
  const numeric = device.emvParams.txnCurrencyCode;
  const alpha = numeric && /^[0-9]{1,4}$/.test(numeric) ? currencyCodes.number(String(Number(numeric)).padStart(3, '0'))?.code : undefined;
  if (alpha && isIsoCurrency(alpha)) return alpha;
  throw new UsageError("--currency is required: the device's activation named no transaction currency");
}

/**
 * The terminal's country (9F1A): `terminalCountryCode` of the activation, else the country whose
 * number the currency's ISO 4217 number repeats (458 MYR: 458 Malaysia), as for every national currency.
 */
function countryOf(device: StoredDevice, currency: string): string {
  const configured = device.emvParams.terminalCountryCode;
  if (configured && /^0?[0-9]{3}$/.test(configured)) return configured.slice(-3);
  if (countryOfCurrency(currency)) return currencyInfo(currency)!.numeric;
  throw new UsageError(`the device has no terminal country and ${currency} is no national currency: set the merchant's country, then run \`device config\``);
}

/** `--card`, else the scheme of the first AID the device was given, else Visa. */
function cardOf(device: StoredDevice, given: string | undefined): TestCardScheme {
  if (given !== undefined) {
    const scheme = given.toLowerCase();
    if (!isTestCardScheme(scheme)) throw new UsageError(`--card must be one of ${TEST_CARD_SCHEMES.join(', ')}, got "${given}"`);
    return scheme;
  }
  for (const { paymentMethod } of device.emvAID) {
    const scheme = isPaymentMethodCode(paymentMethod) ? paymentMethodName(paymentMethod).toLowerCase() : undefined;
    if (isTestCardScheme(scheme)) return scheme;
  }
  return 'visa';
}

/** The amount in minor units and as the gateway writes it (`12.5` MYR: 1250 and `12.50`). */
export function amountOf(text: string, currency: string): { minor: string; value: string } {
  const exponent = currencyExponent(currency);
  const minor = decimalToMinor(text, exponent);
  const example = minorToDecimal('1250', exponent);
  if (minor === null || minor.length > 12) {
    throw new UsageError(
      `--amount must be a decimal amount of at most 12 digits with at most ${exponent} decimal${exponent === 1 ? '' : 's'} in ${currency}, such as ${example}; got "${text}"`,
    );
  }
  if (BigInt(minor) === 0n) throw new UsageError('--amount must be more than 0');
  return { minor, value: minorToDecimal(minor, exponent) };
}

/**
 * The request a phone makes for one tap of a test card: the card's EMV data for this amount,
 * currency and day, under the device token, with a fresh Idempotency-Key.
 */
export function saleRequest(
  device: StoredDevice,
  options: SaleOptions,
  context: { now: Date; idempotencyKey: string; random?: (size: number) => Buffer },
): SaleRequest {
  const currency = currencyOf(device, options.currency);
  const amount = amountOf(options.amount, currency);
  const card = cardOf(device, options.card);
  if (options.posReference !== undefined && (options.posReference === '' || options.posReference.length > 64)) {
    throw new UsageError('--pos-reference must be 1 to 64 characters');
  }
  if (!device.profileId) {
    throw new UsageError('the device has no gateway profile (no acquirer of its merchant takes its payment methods): bind one, then run `device config`');
  }
  const emvData = testCardEmv({
    card,
    amountMinor: amount.minor,
    currencyNumeric: currencyInfo(currency)!.numeric,
    countryNumeric: countryOf(device, currency),
    date: context.now,
    // 9A is the terminal's local date, as the host's 12/13 are (review r16c L2).
    timeZone: device.timeZone,
    random: context.random,
  });
  return {
    url: `${device.baseUrl}/${encodeURIComponent(device.namespace)}/api/v1/transaction`,
    headers: { authorization: `Bearer ${device.deviceToken}`, 'idempotency-key': context.idempotencyKey },
    body: {
      profileId: device.profileId,
      tranType: options.auth ? 'AUTH' : 'SALE',
      amount: { value: amount.value, currency },
      emvData,
      ...(options.posReference !== undefined ? { posReference: options.posReference } : {}),
    },
    card,
  };
}

/** Sends the sale to the gateway; answers the Transaction it stored, or fails with the problem's detail. */
export async function postSale(request: SaleRequest): Promise<unknown> {
  const answer = await requestJson('POST', request.url, { headers: request.headers, body: request.body });
  if (answer.status < 200 || answer.status >= 300) throw failureOf(`${request.body.tranType.toLowerCase()} refused`, answer);
  return answer.body;
}
