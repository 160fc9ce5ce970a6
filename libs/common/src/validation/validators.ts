import { ValidateIf, ValidationOptions, registerDecorator } from 'class-validator';
import { isIanaTimeZone, isIsoCountry, isIsoCurrency, isPaymentMethodCode, PAYMENT_METHOD_CODES } from '../iso';

function simple(name: string, test: (value: unknown) => boolean, message: string, options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: { message, ...options },
      validator: { validate: test },
    });
}

/** An ISO 4217 alpha code of a settlement currency, upper case (`MYR`). */
export const IsIsoCurrency = (options?: ValidationOptions) =>
  simple('isIsoCurrency', isIsoCurrency, '$property must be an ISO 4217 currency code such as MYR', options);

/** ISO 3166-1 alpha-2, upper case (`MY`). */
export const IsIsoCountry = (options?: ValidationOptions) =>
  simple('isIsoCountry', isIsoCountry, '$property must be an ISO 3166-1 alpha-2 country code such as MY', options);

/** IANA time zone name (`Asia/Kuala_Lumpur`). */
export const IsIanaTimeZone = (options?: ValidationOptions) =>
  simple('isIanaTimeZone', isIanaTimeZone, '$property must be an IANA time zone such as Asia/Kuala_Lumpur', options);

/** Payment method code `01` to `06`. */
export const IsPaymentMethodCode = (options?: ValidationOptions) =>
  simple('isPaymentMethodCode', isPaymentMethodCode, `$property must be one of the payment method codes ${PAYMENT_METHOD_CODES.join(', ')}`, options);

/** A string holding a JSON object (not an array, not a scalar). */
export const IsJsonObjectString = (options?: ValidationOptions) =>
  simple('isJsonObjectString', (value) => parseJsonObject(value) !== undefined, '$property must be a JSON-encoded object', options);

/** A plain JSON object (not an array, not null). */
export const IsPlainObject = (options?: ValidationOptions) =>
  simple('isPlainObject', (value) => typeof value === 'object' && value !== null && !Array.isArray(value), '$property must be a JSON object', options);

/** Parses a string holding a JSON object; undefined when it is anything else. */
export function parseJsonObject(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Optional, but not nullable: an omitted field is skipped, `null` is validated (and refused by
 * the field's other rules). `@IsOptional()` would let `null` through to a NOT NULL column.
 */
export const IsOptionalNonNull = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);
