import { currencyInfo } from './iso-codes';

/**
 * Amounts between contexts: the gateway and its events carry decimal strings in the currency's
 * ISO 4217 exponent (`"12.50"` MYR, `"1250"` JPY, `"1.250"` KWD); hosts and sums work in minor
 * units (`"1250"`), as strings so no amount ever passes through a float.
 */

/**
 * The shape of a decimal amount: up to 12 integer digits and up to 3 decimals. `12.5` passes the
 * pattern and means 12.50 in a 2-decimal currency; more decimals than the currency's exponent
 * (`12.505` MYR, `1.5` JPY) are refused by `decimalToMinor`.
 */
export const DECIMAL_AMOUNT_PATTERN = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,3})?$/;

/** Minor units as a decimal string: `1234`, 2 → `12.34`; `5`, 2 → `0.05`; `1234`, 0 → `1234`. */
export function minorToDecimal(minor: string | bigint, exponent: number): string {
  const digits = BigInt(minor)
    .toString()
    .padStart(exponent + 1, '0');
  return exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/**
 * A decimal string back to minor units; null when it is not a non-negative amount with at most
 * `exponent` decimals (`12.5` and `12.50` are both 1250 in a 2-decimal currency; `12.505` is null).
 */
export function decimalToMinor(text: unknown, exponent: number): string | null {
  if (typeof text !== 'string') return null;
  const match = /^([0-9]{1,16})(?:\.([0-9]+))?$/.exec(text);
  if (!match || (match[2] ?? '').length > exponent) return null;
  return BigInt(`${match[1]}${(match[2] ?? '').padEnd(exponent, '0')}`).toString();
}

/** The ISO 4217 exponent of an alpha currency code; throws for a code the table does not know (validate first). */
export function currencyExponent(alpha: string): number {
  const info = currencyInfo(alpha);
  if (info === undefined) throw new Error(`unknown ISO 4217 currency ${alpha}`);
  return info.minorUnits;
}
