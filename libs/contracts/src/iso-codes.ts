import * as currencyCodes from 'currency-codes';
import * as countries from 'i18n-iso-countries';

/** ISO 4217 codes that are not money a merchant can settle in (metals, funds, test, none). */
const NON_SETTLEMENT_CURRENCIES = new Set(['XAU', 'XAG', 'XPD', 'XPT', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XSU', 'XUA', 'XTS', 'XXX']);

/** An ISO 4217 currency as a terminal needs it. */
export interface CurrencyInfo {
  alpha: string;
  numeric: string;
  minorUnits: number;
}

const CURRENCIES = new Map<string, CurrencyInfo>(
  currencyCodes
    .codes()
    .filter((code) => !NON_SETTLEMENT_CURRENCIES.has(code))
    .map((code) => {
      const entry = currencyCodes.code(code)!;
      return [code, { alpha: code, numeric: entry.number, minorUnits: entry.digits }] as const;
    }),
);

/** The ISO 4217 entry of an upper-case alpha code, or undefined. */
export function currencyInfo(alpha: string): CurrencyInfo | undefined {
  return CURRENCIES.get(alpha);
}

export function isIsoCurrency(value: unknown): value is string {
  return typeof value === 'string' && CURRENCIES.has(value);
}

/** ISO 3166-1 alpha-2, upper case, officially assigned. */
export function isIsoCountry(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Z]{2}$/.test(value) && countries.isValid(value);
}

export function countryNumeric(alpha2: string): string | undefined {
  return countries.alpha2ToNumeric(alpha2) ?? undefined;
}

/** An IANA time zone name that this runtime can convert with (aliases such as `UTC` included). */
export function isIanaTimeZone(value: unknown): value is string {
  // IANA names are ASCII (letters, digits, _ - + /), which Intl alone accepts too; checked first so
  // that lower-casing below cannot fold another character (the Kelvin sign) onto a known name.
  if (typeof value !== 'string' || value.length > 64 || !/^[A-Za-z0-9_+/-]+$/.test(value)) return false;
  // Zone names are case-insensitive: one key per zone, whatever the case it is written in.
  const key = value.toLowerCase();
  if (KNOWN_TIME_ZONES.has(key)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
  } catch {
    return false;
  }
  KNOWN_TIME_ZONES.add(key);
  return true;
}

/**
 * Zones this runtime accepted, lower-cased (a finite set; refusals are not kept, so no input can grow it):
 * every host request is validated with its merchant's zone, and building an `Intl.DateTimeFormat`
 * costs about 60 µs.
 */
const KNOWN_TIME_ZONES = new Set<string>();
