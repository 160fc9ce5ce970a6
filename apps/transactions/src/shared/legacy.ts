import { currencyExponent, DECIMAL_AMOUNT_PATTERN, decimalToMinor, minorToDecimal } from '@app/contracts';
import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';

/** Legacy lists default to 10 records a page (spec 2, Limits; docs/decisions.md, "Pagination"). */
export const LEGACY_PAGE_SIZE = 10;

/** Documents the legacy page size default on a list query. */
export const LegacyPageSize = (): PropertyDecorator =>
  applyDecorators(ApiPropertyOptional({ default: LEGACY_PAGE_SIZE, description: 'legacy default 10; -1 returns every record on one page' }));

/**
 * An instant as the order and settlement APIs show it: ISO 8601 in UTC with the `Z` suffix of
 * spec 2's order and settlement examples, whole seconds (`2026-01-31T08:15:00Z`).
 */
export function formatUtc(value: Date): string;
export function formatUtc(value: Date | null): string | null;
export function formatUtc(value: Date | null): string | null {
  return value ? `${value.toISOString().slice(0, 19)}Z` : null;
}

/**
 * Minor units (possibly negative: a reconciliation difference) as the legacy API shows an
 * amount: a JSON number in the currency's ISO 4217 exponent (`1250` MYR → 12.5).
 */
export function minorToAmount(minor: string | bigint, currency: string): number {
  const value = BigInt(minor);
  const decimal = minorToDecimal(value < 0n ? -value : value, currencyExponent(currency));
  return Number(value < 0n ? `-${decimal}` : decimal);
}

/**
 * A legacy amount (a JSON number, spec 2) in minor units; null unless it is above zero, has at
 * most the currency's decimals and at most 12 integer digits. The number's shortest decimal form
 * is read (`12.5`, `0.05`), so an exponent form (`1e-7`, `1e+21`) is refused, never rounded.
 */
export function amountToMinor(value: number, currency: string): string | null {
  if (!Number.isFinite(value) || value <= 0) return null;
  return decimalAmountToMinor(String(value), currency);
}

/** A decimal string amount (`"12.50"`) in minor units; null unless it is above zero with at most the currency's decimals. */
export function decimalAmountToMinor(text: string, currency: string): string | null {
  if (!DECIMAL_AMOUNT_PATTERN.test(text)) return null;
  const minor = decimalToMinor(text, currencyExponent(currency));
  return minor === null || minor === '0' ? null : minor;
}

/** Minor units as the gateway's decimal string in the currency's exponent (`1250` MYR → `"12.50"`). */
export function minorToGatewayAmount(minor: string, currency: string): string {
  return minorToDecimal(minor, currencyExponent(currency));
}

/** An amount for people: the currency and the decimal amount (`MYR 12.50`). */
export function formatMoney(minor: string, currency: string): string {
  return `${currency} ${minorToDecimal(minor, currencyExponent(currency))}`;
}
