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

/** Canonical ICU id of an IANA zone (aliases and case folded: `Asia/Kolkata` and `asia/calcutta` are one zone), or undefined. */
function canonicalZone(zone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Zone → the countries ICU's region data lists it for, built once on first use. */
let ZONE_COUNTRIES: Map<string, string[]> | undefined;

function zoneCountries(): Map<string, string[]> {
  if (ZONE_COUNTRIES) return ZONE_COUNTRIES;
  const map = new Map<string, string[]>();
  for (const alpha2 of Object.keys(countries.getAlpha2Codes())) {
    // Intl Locale Info: a getter in Node 20, a method in later runtimes.
    const locale = new Intl.Locale(`und-${alpha2}`) as Intl.Locale & { timeZones?: string[]; getTimeZones?: () => string[] };
    for (const zone of locale.getTimeZones?.() ?? locale.timeZones ?? []) {
      const key = canonicalZone(zone) ?? zone;
      map.set(key, [...(map.get(key) ?? []), alpha2]);
    }
  }
  ZONE_COUNTRIES = map;
  return map;
}

/**
 * The ISO 3166-1 alpha-2 country an IANA time zone belongs to (`Asia/Kuala_Lumpur`: MY), from the
 * runtime's ICU region data; undefined for a zone of no country (`UTC`, `Etc/GMT+5`), one several
 * countries share, or an unknown one.
 */
export function countryOfTimeZone(zone: string): string | undefined {
  const key = canonicalZone(zone);
  const found = key === undefined ? undefined : zoneCountries().get(key);
  return found?.length === 1 ? found[0] : undefined;
}

/** One formatter per zone: building an `Intl.DateTimeFormat` costs far more than using one. */
const WALL_CLOCKS = new Map<string, Intl.DateTimeFormat>();

/** A zone's wall clock at an instant, each part as digits, and its UTC offset as Intl names it. */
export interface WallClock {
  /** Four digits. */
  year: string;
  /** Two digits each. */
  month: string;
  day: string;
  /** 00 to 23 (midnight is 00). */
  hour: string;
  minute: string;
  second: string;
  /** `GMT+08:00`; `GMT` or `GMT+00:00` at zero, by ICU version. */
  offset: string;
}

/**
 * The wall clock of `zone` at `instant` (fields 12 and 13 of a host request, a receipt's time, a
 * zone's offset). Throws a RangeError for a zone the runtime does not know.
 */
export function wallClockAt(instant: Date, zone: string): WallClock {
  let formatter = WALL_CLOCKS.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      // h23: midnight is 00, never the 24 that `hour12: false` gives in some engines.
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
    WALL_CLOCKS.set(zone, formatter);
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(instant)) parts[part.type] = part.value;
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second, offset: parts.timeZoneName ?? '' };
}

/** The zone's UTC offset at `instant` as Intl names it (`GMT+08:00`; `GMT` for none). */
function offsetNameAt(zone: string, instant: Date): string {
  return wallClockAt(instant, zone).offset;
}

/**
 * The IANA zone that tells a country's local time (ISO 3166-1 alpha-2, `MY`: Asia/Kuala_Lumpur),
 * from the runtime's ICU region data: its one zone, or the first of its zones when they all keep
 * the same UTC offset in January and in July of `year` (Malaysia's Kuala Lumpur and Kuching);
 * undefined for a country whose zones differ (the United States), one with none, or no country.
 */
export function timeZoneOfCountry(alpha2: string | null | undefined, year: number): string | undefined {
  if (!alpha2) return undefined;
  const zones = [...zoneCountries()].filter(([, owners]) => owners.includes(alpha2.toUpperCase())).map(([zone]) => zone);
  if (zones.length === 0) return undefined;
  const instants = [new Date(Date.UTC(year, 0, 15)), new Date(Date.UTC(year, 6, 15))];
  const offsetsOf = (zone: string) => instants.map((instant) => offsetNameAt(zone, instant)).join();
  const first = offsetsOf(zones[0]);
  return zones.every((zone) => offsetsOf(zone) === first) ? zones[0] : undefined;
}

/** Country → the settlement currencies ISO 4217 lists for it by name, built once on first use. */
let NAMED_CURRENCIES: Map<string, string[]> | undefined;

function namedCurrencies(): Map<string, string[]> {
  if (NAMED_CURRENCIES) return NAMED_CURRENCIES;
  const map = new Map<string, string[]>();
  for (const code of CURRENCIES.keys()) {
    for (const name of currencyCodes.code(code)?.countries ?? []) {
      // ISO 4217 writes "Netherlands (The)"; other parentheses name another country ("Congo (The Democratic Republic of The)").
      const alpha2 = countries.getAlpha2Code(name.replace(/ \(The\)$/i, ''), 'en');
      if (alpha2) map.set(alpha2, [...(map.get(alpha2) ?? []), code]);
    }
  }
  NAMED_CURRENCIES = map;
  return map;
}

/**
 * A country's national currency: the ISO 4217 currency whose number is the country's ISO 3166
 * number (458: MYR, Malaysia), else the one settlement currency ISO 4217 lists for the country
 * (Germany: EUR); undefined when there is none or several (Panama: PAB and USD).
 */
export function nationalCurrencyOf(alpha2: string): string | undefined {
  const numeric = countryNumeric(alpha2);
  const same = numeric === undefined ? undefined : currencyCodes.number(numeric)?.code;
  if (same !== undefined && CURRENCIES.has(same)) return same;
  const named = namedCurrencies().get(alpha2) ?? [];
  return named.length === 1 ? named[0] : undefined;
}

/**
 * The country whose ISO 3166 number a national currency's ISO 4217 number repeats (MYR 458:
 * Malaysia), as for every national currency; undefined for a currency of several countries (EUR).
 */
export function countryOfCurrency(alpha: string): string | undefined {
  const numeric = currencyInfo(alpha)?.numeric;
  return numeric === undefined ? undefined : (countries.numericToAlpha2(numeric) ?? undefined);
}

/** The ISO 4217 alpha code of a settlement currency's numeric code written as an EMV terminal carries it (`458` or `0458`), or undefined. */
export function currencyOfNumeric(value: string): string | undefined {
  if (!/^0?[0-9]{3}$/.test(value)) return undefined;
  const numeric = value.slice(-3);
  return [...CURRENCIES.values()].find((currency) => currency.numeric === numeric)?.alpha;
}

/** The ISO 3166-1 alpha-2 of a numeric country code written as an EMV terminal carries it (`458` or `0458`), or undefined. */
export function countryOfNumeric(value: string): string | undefined {
  return /^0?[0-9]{3}$/.test(value) ? (countries.numericToAlpha2(value.slice(-3)) ?? undefined) : undefined;
}
