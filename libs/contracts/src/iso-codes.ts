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
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
