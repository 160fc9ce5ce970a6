import fc from 'fast-check';
import * as countries from 'i18n-iso-countries';
import { countryNumeric, countryOfCurrency, countryOfNumeric, countryOfTimeZone, currencyInfo, currencyOfNumeric, isIsoCountry, isIsoCurrency, nationalCurrencyOf, timeZoneOfCountry } from './iso-codes';

describe('countries and currencies derived from each other', () => {
  it('should name the country of a zone that belongs to one, whatever the alias or case', () => {
    expect(['Asia/Kuala_Lumpur', 'asia/kuala_lumpur', 'Asia/Kolkata', 'Asia/Calcutta', 'Europe/Berlin'].map(countryOfTimeZone)).toEqual(['MY', 'MY', 'IN', 'IN', 'DE']);
    expect(['UTC', 'Etc/GMT+5', 'Mars/Olympus_Mons'].map(countryOfTimeZone)).toEqual([undefined, undefined, undefined]);
  });

  it('should answer, for every zone the runtime knows, no country or an ISO country', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Intl.supportedValuesOf('timeZone')), (zone) => {
        const country = countryOfTimeZone(zone);
        expect(country === undefined || isIsoCountry(country)).toBe(true);
      }),
    );
  });

  it("should name a country's zone when its zones keep one clock, and none when they differ or there is no country", () => {
    expect(['MY', 'my', 'SG', 'DE', 'MA'].map((country) => timeZoneOfCountry(country, 2026))).toEqual(['Asia/Kuala_Lumpur', 'Asia/Kuala_Lumpur', 'Asia/Singapore', 'Europe/Berlin', 'Africa/Casablanca']);
    expect(['US', 'AU', 'RU', 'XX', '', null, undefined].map((country) => timeZoneOfCountry(country, 2026))).toEqual(Array(7).fill(undefined));
  });

  it('should name, for every country and year, a zone of that country that shows the wall clock of all its zones, or none', () => {
    const clock = (zone: string, instant: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'short', timeStyle: 'long' }).format(instant).replace(/ [A-Z]+[+-]?[0-9:]*$/, '');
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(countries.getAlpha2Codes())), fc.integer({ min: 2000, max: 2037 }), fc.constantFrom(0, 6), (country, year, month) => {
        const zone = timeZoneOfCountry(country, year);
        if (zone === undefined) return;
        const locale = new Intl.Locale(`und-${country}`) as Intl.Locale & { timeZones?: string[]; getTimeZones?: () => string[] };
        const zones = locale.getTimeZones?.() ?? locale.timeZones ?? [];
        const canonical = (name: string) => new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
        expect(zones.map(canonical)).toContain(canonical(zone));
        const instant = new Date(Date.UTC(year, month, 15, 12));
        for (const other of zones) expect(clock(other, instant)).toBe(clock(zone, instant));
      }),
    );
  });

  it("should answer a country's national currency, or none when it has several", () => {
    expect(['MY', 'DE', 'US', 'JP', 'SG', 'PA'].map(nationalCurrencyOf)).toEqual(['MYR', 'EUR', 'USD', 'JPY', 'SGD', undefined]);
  });

  it('should answer, for every country, no currency or a settlement currency', () => {
    fc.assert(
      fc.property(fc.constantFrom(...['MY', 'DE', 'FR', 'US', 'GB', 'CH', 'PA', 'AQ', 'ZW', 'ME', 'XK', 'TW']), (country) => {
        const currency = nationalCurrencyOf(country);
        expect(currency === undefined || isIsoCurrency(currency)).toBe(true);
      }),
    );
  });

  it('should answer the country a national currency repeats the number of, and none for a shared one', () => {
    expect(['MYR', 'USD', 'EUR', 'XOF'].map(countryOfCurrency)).toEqual(['MY', 'US', undefined, undefined]);
    fc.assert(
      fc.property(fc.constantFrom('MYR', 'USD', 'SGD', 'JPY', 'GBP', 'CHF', 'THB', 'IDR'), (currency) => {
        expect(countryNumeric(countryOfCurrency(currency)!)).toBe(currencyInfo(currency)!.numeric);
      }),
    );
  });

  it('should read a numeric country code as a terminal carries it, 3 digits or 4 with a leading zero', () => {
    expect(['458', '0458', '0276', '999', '', 'MY', '00458'].map(countryOfNumeric)).toEqual(['MY', 'MY', 'DE', undefined, undefined, undefined, undefined]);
    // 999 is ISO 4217's "no currency", 959 gold: no money a terminal takes.
    expect(['458', '0458', '0978', '840', '999', '959', '', 'MYR', '00458', '45'].map(currencyOfNumeric)).toEqual([
      'MYR',
      'MYR',
      'EUR',
      'USD',
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
