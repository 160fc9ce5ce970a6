import { currencyExponent } from '@app/contracts';
import fc from 'fast-check';
import { amountToMinor, decimalAmountToMinor, formatUtc, minorToAmount } from './legacy';

const CURRENCIES = ['JPY', 'MYR', 'USD', 'KWD', 'BHD', 'KRW'];

describe('legacy amounts', () => {
  it('should show minor units as a number in the currency exponent and read that number back to the same minor units', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CURRENCIES), fc.bigInt({ min: 1n, max: 999_999_999_999n }), (currency, minor) => {
        const shown = minorToAmount(minor, currency);
        expect(shown * 10 ** currencyExponent(currency)).toBeCloseTo(Number(minor), 0);
        expect(amountToMinor(shown, currency)).toBe(minor.toString());
      }),
    );
  });

  it('should show a negative difference with its sign', () => {
    expect([minorToAmount(-5n, 'MYR'), minorToAmount('-1250', 'KWD'), minorToAmount(0n, 'JPY')]).toEqual([-0.05, -1.25, 0]);
  });

  it('should refuse amounts that are not above zero, have more decimals than the currency, or are written with an exponent', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CURRENCIES), fc.double({ noNaN: true }), (currency, value) => {
        const minor = amountToMinor(value, currency);
        if (minor === null) return;
        // Accepted only when the number is exactly a positive amount of this currency.
        expect(value).toBeGreaterThan(0);
        expect(String(value)).toMatch(new RegExp(`^[0-9]{1,12}(\\.[0-9]{1,${Math.max(1, currencyExponent(currency))}})?$`));
      }),
    );
    expect([
      amountToMinor(12.345, 'MYR'),
      amountToMinor(1e-7, 'MYR'),
      amountToMinor(1e21, 'MYR'),
      amountToMinor(0, 'MYR'),
      amountToMinor(-1, 'MYR'),
      amountToMinor(10.5, 'JPY'),
    ]).toEqual([null, null, null, null, null, null]);
    expect([
      decimalAmountToMinor('0.00', 'MYR'),
      decimalAmountToMinor('1.005', 'MYR'),
      decimalAmountToMinor('01.00', 'MYR'),
      decimalAmountToMinor('12.5', 'MYR'),
    ]).toEqual([null, null, null, '1250']);
  });

  it('should show instants in UTC with the Z suffix, whole seconds', () => {
    expect(formatUtc(new Date(Date.UTC(2026, 0, 31, 8, 15, 0, 999)))).toBe('2026-01-31T08:15:00Z');
    expect(formatUtc(null)).toBeNull();
  });
});
