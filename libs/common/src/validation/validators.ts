import { ValidateIf, ValidationArguments, ValidationOptions, registerDecorator } from 'class-validator';
import { DomainError } from '../errors';
import { parseGuardedJson } from '../http/json-body';

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

/** A string holding a JSON object (not an array, not a scalar), under the rules of a request body; the message says what is wrong. */
export const IsJsonObjectString =
  (options?: ValidationOptions) =>
  (target: object, propertyName: string): void =>
    registerDecorator({
      name: 'isJsonObjectString',
      target: target.constructor,
      propertyName,
      options: {
        message: (args: ValidationArguments) => {
          const parsed = typeof args.value === 'string' ? parseEmbeddedJson(args.value) : undefined;
          return parsed && 'problem' in parsed ? `${args.property} ${parsed.problem}` : `${args.property} must be a JSON-encoded object`;
        },
        ...options,
      },
      validator: { validate: (value: unknown) => parseJsonObject(value) !== undefined },
    });

/**
 * JSON carried inside a string field (the v1 API sends maps as strings: EMV params, methodList,
 * connExtraParams, extParams): parsed as a request body is, so that it meets the body's rules
 * (docs/decisions.md, "Hostile input at the edge"): no prototype keys, nesting of at most 32
 * levels, at most 10,000 values, no NUL or lone surrogate in a key or a string. The value, or
 * what is wrong with it (to follow the field's name).
 */
export function parseEmbeddedJson(text: string): { value: unknown } | { problem: string } {
  const parsed = parseGuardedJson(text);
  if ('invalid' in parsed) return { problem: 'must be a JSON-encoded object' };
  if ('unsafe' in parsed) return { problem: `holds JSON that cannot be taken: ${parsed.unsafe.replace(/^payload/, 'the value')}` };
  return parsed;
}

/** A plain JSON object (not an array, not null). */
export const IsPlainObject = (options?: ValidationOptions) =>
  simple('isPlainObject', (value) => typeof value === 'object' && value !== null && !Array.isArray(value), '$property must be a JSON object', options);

/** Parses a string holding a JSON object; undefined when it is anything else. */
export function parseJsonObject(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = parseEmbeddedJson(value);
  if ('problem' in parsed) return undefined;
  return typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value) ? (parsed.value as Record<string, unknown>) : undefined;
}

/** A JSON object carried in a string field, or a 400 naming `field` and what is wrong ({@link parseEmbeddedJson}). */
export function decodeJsonObjectText(text: string, field: string): Record<string, unknown> {
  const parsed = parseEmbeddedJson(text);
  if ('problem' in parsed) throw DomainError.validation(`${field} ${parsed.problem}`);
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) throw DomainError.validation(`${field} must be a JSON-encoded object`);
  return parsed.value as Record<string, unknown>;
}

/**
 * Optional, but not nullable: an omitted field is skipped, `null` is validated (and refused by
 * the field's other rules). `@IsOptional()` would let `null` through to a NOT NULL column.
 */
export const IsOptionalNonNull = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);
