import { ValidateIf, ValidationOptions, registerDecorator } from 'class-validator';

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
