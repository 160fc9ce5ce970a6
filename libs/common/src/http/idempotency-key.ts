import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { DomainError } from '../errors';

/** The header's name as requests carry it (HTTP header names are case-insensitive). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** The longest `Idempotency-Key`: a UUID (36) fits with room, and `<kind>-<key>` stays within a follow-up's 80-character request id. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 64;

/** `Idempotency-Key` on every route that reads it: 1 to 64 letters, digits, `_` or `-` (docs/decisions.md, "One Idempotency-Key rule"). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The rule as a refusal says it. */
export const IDEMPOTENCY_KEY_RULE = `1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} letters, digits, _ or -`;

/**
 * The key of a request, or undefined without the header; a value breaking the rule (empty, too
 * long, another character, the header sent twice) is a validation error (400) naming the rule.
 */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header)) throw DomainError.validation(`Idempotency-Key must be ${IDEMPOTENCY_KEY_RULE}`);
  return header;
}

/** The request's `Idempotency-Key`, checked by {@link idempotencyKeyOf} before the handler runs. */
export const IdempotencyKey = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined =>
  idempotencyKeyOf(context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>().headers[IDEMPOTENCY_KEY_HEADER]),
);

/** Documents the optional header with its rule (length and pattern) and what the route does with it. */
export function ApiIdempotencyKey(description: string): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description: `${IDEMPOTENCY_KEY_RULE}: ${description}`,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN.source },
    }),
  );
}
