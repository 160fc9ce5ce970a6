import { applyDecorators, StreamableFile, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { Page } from '../pagination/page';

/** The response body of merchant-management and transactions: `{msg, code, data?}`. */
export interface Envelope<T = unknown> {
  msg: string;
  code: number;
  data?: T;
}

/** A success envelope; without an argument the body has no `data`, as the spec requires. */
export function ok<T>(data: T): Envelope<T>;
export function ok(): Envelope<never>;
export function ok<T>(...args: [T?]): Envelope<T> {
  return args.length === 0 ? { msg: 'SUCCESS', code: 0 } : { msg: 'SUCCESS', code: 0, data: args[0] };
}

/** OpenAPI shape of an envelope without data (errors and data-less successes). */
export class EnvelopeDto {
  @ApiProperty({ example: 'SUCCESS' }) msg: string;
  @ApiProperty({ example: 0, description: '0 success; 10000 validation or conflict; 11000 unauthenticated; 13000 owner info invalid; 14000 not found; 15000 upstream; 16000 rate limit; 50000 unexpected' })
  code: number;
}

/**
 * A 401's envelope: code 11000 and `data` 401, as the shared decisions say of 11000
 * ("missing, malformed, expired or wrongly signed bearer token (`data` = 401)"); documented so
 * that the wire and the document agree (r14c item 8).
 */
export class UnauthenticatedEnvelopeDto {
  @ApiProperty({ example: 'bearer token has expired' }) msg: string;
  @ApiProperty({ enum: [11000], example: 11000 }) code: number;
  @ApiProperty({ type: 'integer', enum: [401], example: 401, description: 'always 401 on an authentication failure (the shared decisions\' `data` = 401)' }) data: number;
}

/** The `data` of a success that answers `{}` (the spec's capture). */
export class EmptyDataDto {}

/** A handler whose success body is `Envelope<T>` (or a streamed list of the same JSON). */
type EnvelopeHandler<T> = (...args: never[]) => Promise<Envelope<T> | StreamableFile> | Envelope<T>;

/**
 * A method decorator that documents the handler's success body and, through its type, refuses
 * (at compile time) a handler that returns anything else: the document and the wire cannot drift.
 */
type EnvelopeDecorator<T> = <F extends EnvelopeHandler<T>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<F>) => void;

/** The success envelope `{msg: "SUCCESS", code: 0, data?}` around `data` (none: no `data` member at all). */
export function envelopeSchema(data?: SchemaObject | ReferenceObject): SchemaObject {
  return {
    type: 'object',
    required: data ? ['msg', 'code', 'data'] : ['msg', 'code'],
    properties: {
      msg: { type: 'string', enum: ['SUCCESS'] },
      code: { type: 'integer', enum: [0] },
      ...(data ? { data } : {}),
    },
  };
}

/** The page `{total, current, hasNext, records}` of `record`s. */
export function pageSchema(record: Type<unknown>): SchemaObject {
  return {
    type: 'object',
    required: ['total', 'current', 'hasNext', 'records'],
    properties: {
      total: { type: 'integer', minimum: 0 },
      current: { type: 'integer', minimum: 1, description: 'page number' },
      hasNext: { type: 'boolean' },
      records: { type: 'array', items: { $ref: getSchemaPath(record) } },
    },
  };
}

function envelopeResponse<T>(schema: SchemaObject, models: Type<unknown>[], description: string): EnvelopeDecorator<T> {
  const decorator = applyDecorators(ApiExtraModels(...models), ApiOkResponse({ description, schema }));
  return (target, key, descriptor) => {
    decorator(target, key, descriptor);
  };
}

/**
 * Documents a success answer of an envelope API (merchant-management, transactions): without an
 * argument the body has no `data` (`ok()`); with a DTO class, `data` is that DTO.
 */
export function ApiEnvelope(): EnvelopeDecorator<never>;
export function ApiEnvelope<T>(data: Type<T>, description?: string): EnvelopeDecorator<T>;
export function ApiEnvelope<T>(data?: Type<T>, description = 'SUCCESS'): EnvelopeDecorator<T> {
  if (!data) return envelopeResponse(envelopeSchema(), [], 'SUCCESS, without data');
  return envelopeResponse(envelopeSchema({ $ref: getSchemaPath(data) }), [data], description);
}

/** A success envelope whose `data` is the DTO or `null` (a lookup that found nothing). */
export function ApiEnvelopeOrNull<T>(data: Type<T>, description: string): EnvelopeDecorator<T | null> {
  return envelopeResponse(envelopeSchema({ type: 'object', allOf: [{ $ref: getSchemaPath(data) }], nullable: true }), [data], description);
}

/** A success envelope whose `data` is a {@link Page} of `record`s. */
export function ApiEnvelopePage<T>(record: Type<T>): EnvelopeDecorator<Page<T>> {
  return envelopeResponse(envelopeSchema(pageSchema(record)), [record], 'SUCCESS, one page of records (pageSize -1: all of them)');
}

/**
 * The `Retry-After` header (RFC 9110 §10.2.3) of an answer that says when to try again: whole
 * seconds. Documented on every status that may carry it (a 409 of a terminal being settled, a 429);
 * the exception filter sends it from the error's `retryAfterSeconds` (`errorResponseHeaders`).
 */
export function retryAfterResponseHeader(when: string): Record<'Retry-After', { description: string; schema: { type: 'integer'; minimum: 1 } }> {
  return { 'Retry-After': { description: `seconds after which the request may be sent again; only ${when}`, schema: { type: 'integer', minimum: 1 } } };
}

/** What each error status of an envelope API means, as the envelope's `code` tells it (DECISIONS.md). */
const ENVELOPE_ERRORS = {
  400: 'code 10000: invalid input; msg names the field',
  403: 'code 13000: the object belongs to another PBO or merchant',
  404: 'code 14000: no such object',
  409: "code 10000: the change conflicts with the object's state or with another object",
  429: 'code 16000: too many attempts; Retry-After says when to try again',
  504: 'code 15000: another context or the acquirer host did not answer in time',
} as const;

/**
 * Documents error answers of an envelope API, on a controller (every operation) or a handler. A
 * handler's own `@ApiResponse` of the same status, with a more precise description, wins.
 */
export function ApiEnvelopeErrors(...statuses: Array<keyof typeof ENVELOPE_ERRORS>): ClassDecorator & MethodDecorator {
  return applyDecorators(...statuses.map((status) => ApiResponse({ status, description: ENVELOPE_ERRORS[status], type: EnvelopeDto })));
}
