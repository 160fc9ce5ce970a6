import fc from 'fast-check';
import { currencyExponent, decimalToMinor, DECIMAL_AMOUNT_PATTERN, minorToDecimal } from './money';

describe('amounts between contexts', () => {
  it('a decimal amount and its minor units convert both ways without loss, in every exponent', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 999_999_999_999n }), fc.constantFrom(0, 2, 3), (minor, exponent) => {
        const decimal = minorToDecimal(minor, exponent);
        expect(decimalToMinor(decimal, exponent)).toBe(minor.toString());
        expect(decimal.includes('.') ? decimal.split('.')[1]!.length : 0).toBe(exponent);
      }),
    );
  });

  it('refuses more decimals than the currency has, signs, exponents and blanks', () => {
    expect(decimalToMinor('12.505', 2)).toBeNull();
    expect(decimalToMinor('12.5', 0)).toBeNull();
    for (const text of ['-1.00', '+1', '1e3', '', ' 1', '1.', '.5', '0x10', 12.5]) expect(decimalToMinor(text, 2)).toBeNull();
    expect(decimalToMinor('12.5', 2)).toBe('1250');
  });

  it('the wire pattern takes what minorToDecimal writes and refuses leading zeros and signs', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 999_999_999_999n }), (minor) => expect(minorToDecimal(minor, 2)).toMatch(DECIMAL_AMOUNT_PATTERN)));
    for (const text of ['012.50', '-1', '1.2345', '1,00']) expect(text).not.toMatch(DECIMAL_AMOUNT_PATTERN);
  });

  it('knows the ISO 4217 exponents (JPY 0, MYR 2, KWD 3) and refuses an unknown code', () => {
    expect([currencyExponent('JPY'), currencyExponent('MYR'), currencyExponent('KWD')]).toEqual([0, 2, 3]);
    expect(() => currencyExponent('XYZ')).toThrow('unknown ISO 4217 currency XYZ');
  });
});
