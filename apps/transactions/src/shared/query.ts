import { Transform } from 'class-transformer';

/**
 * A query parameter read as an integer: up to nine digits, with an optional minus, become a
 * number; anything else (an empty value, `1.5`, a repeated parameter, huge digit strings) stays as
 * it came, for `@IsInt()` to refuse naming the parameter. `Number('')` would have been 0.
 */
export const IntegerQuery = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value));
