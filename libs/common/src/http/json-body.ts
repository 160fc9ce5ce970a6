import { fieldName, MAX_PAYLOAD_DEPTH, unsafeShapeOf, unsafeTextOf } from '@app/contracts';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as secureJson from 'secure-json-parse';
import { DomainError, ErrorCode } from '../errors';
import { UNSUPPORTED_CONTENT_ENCODING_MESSAGE, UNSUPPORTED_MEDIA_TYPE_MESSAGE } from './classify-error';

/**
 * The most values (objects, arrays and scalars) any JSON text may hold, a body with
 * {@link BodyValues} or JSON inside a string field: the ceiling no route may raise.
 */
export const MAX_BODY_VALUES = 10_000;

/**
 * The most values a request body may hold unless its route says otherwise ({@link BodyValues}):
 * about twice the largest body of the APIs (a payment config of 6 methods with 16 allows and
 * 32 EMV refs each, about 520), and small enough that a body at the cap costs validation about a
 * millisecond (docs/decisions.md, "Cheaper hostile bodies").
 */
export const DEFAULT_BODY_VALUES = 1_000;

/** Route config key of {@link BodyValues}. */
const BODY_VALUES_CONFIG = 'bodyValues';

/** A route whose bodies may hold up to `values` values (at most {@link MAX_BODY_VALUES}) instead of {@link DEFAULT_BODY_VALUES}. */
export const BodyValues = (values: number) => RouteConfig({ [BODY_VALUES_CONFIG]: Math.min(values, MAX_BODY_VALUES) });

/** The value cap of the route a request reached. */
function bodyValuesOf(request: FastifyRequest): number {
  const config = request.routeOptions?.config as unknown as Record<string, unknown> | undefined;
  const values = config?.[BODY_VALUES_CONFIG];
  return typeof values === 'number' ? values : DEFAULT_BODY_VALUES;
}

/**
 * Parses a JSON request body and refuses, with a 400 naming the field, what must not reach
 * validation or the database (docs/decisions.md, "Hostile input at the edge"): nesting deeper
 * than 32 levels, more than `maxValues` values (the route's, {@link BodyValues}), prototype keys, and text that
 * PostgreSQL or the validators cannot take (a NUL character, a lone surrogate). The walk is
 * iterative and bounded, so a hostile body costs about what parsing it costs.
 */
export function parseJsonBody(text: string, maxValues = DEFAULT_BODY_VALUES): unknown {
  if (text.trim() === '') throw DomainError.validation('the request body is empty: send a JSON value or no content type');
  const parsed = parseGuardedJson(text, maxValues);
  if ('invalid' in parsed) throw DomainError.validation(`the request body is not valid JSON${parsed.invalid}`);
  if ('unsafe' in parsed) throw DomainError.validation(parsed.unsafe.replace(/^payload/, 'the request body'));
  return parsed.value;
}

/**
 * JSON text read by the edge's rules, for a body and for JSON carried inside a string field alike
 * (`parseEmbeddedJson`): prototype keys refused while parsing, then {@link unsafeShapeOf} with
 * {@link MAX_BODY_VALUES}. The value, why it is not JSON (`invalid`), or why it must not go on
 * (`unsafe`, its path starting `payload`). `invalid` never quotes the text: '', a position or a reason, to follow "is not valid JSON".
 */
export function parseGuardedJson(text: string, maxValues = MAX_BODY_VALUES): { value: unknown } | { invalid: string } | { unsafe: string } {
  const scanned = scanStructure(text, maxValues);
  if (scanned === 'too-deep') return { unsafe: `payload nests deeper than ${MAX_PAYLOAD_DEPTH} levels` };
  if (scanned === 'too-many') return { unsafe: `payload holds more than ${maxValues} values` };
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    // Valid JSON, refused for what it holds (secure-json-parse throws a SyntaxError for it too): say so, not "not valid JSON" (r14c item 7).
    if (!(error instanceof SyntaxError) || /forbidden prototype property/.test(error.message)) return { unsafe: PROTOTYPE_KEY_REFUSAL };
    // V8's message quotes the text around the error: only its position is repeated.
    return { invalid: syntaxErrorPosition(error) };
  }
  const unsafe = unsafeShapeOf(value, { maxValues });
  return unsafe === undefined ? { value } : { unsafe };
}

/** Why a JSON text holding a `__proto__` key or a `constructor.prototype` is refused (after `payload`, the body or the field). */
export const PROTOTYPE_KEY_REFUSAL = 'payload holds a __proto__ key or a constructor.prototype, which are refused (they would reach object prototypes)';

/** ` (at position N)` when V8's message tells the position, else ''. */
function syntaxErrorPosition(error: SyntaxError): string {
  const position = /at position (\d+)/.exec(error.message)?.[1];
  if (position !== undefined) return ` (at position ${position})`;
  return /end of JSON input/i.test(error.message) ? ' (it ends too early)' : '';
}

const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * One pass over JSON text before it is parsed, outside strings: the nesting depth of `[` and `{`
 * and the commas. Deeper than {@link MAX_PAYLOAD_DEPTH}: `too-deep`; `limit` commas or more:
 * `too-many` (a JSON value holds at least one more value than it has such commas, each separating
 * two members or elements). Either is refused without parsing: V8 parses 450,000 nested `[` or a
 * 1 MiB object of 60,000 keys in 100 to 170 ms of a blocked event loop, this scan takes a
 * millisecond or two. Text that is not JSON is left to the parser (only a valid text's depth and
 * count matter). Strings are skipped with `indexOf`, so long strings cost little.
 */
function scanStructure(text: string, limit: number): 'too-deep' | 'too-many' | undefined {
  let commas = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (char === OPEN_BRACKET || char === OPEN_BRACE) {
      depth += 1;
      if (depth > MAX_PAYLOAD_DEPTH) return 'too-deep';
    } else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) {
      depth -= 1;
    } else if (char === COMMA) {
      commas += 1;
      if (commas >= limit) return 'too-many';
    } else if (char === QUOTE) {
      // The closing quote: the next one not escaped by an odd run of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end > 0) {
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes += 1;
        if (backslashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end < 0) return undefined;
      i = end;
    }
  }
  return undefined;
}

/** Path parameters and query values: the same text rules as the body, each named as the parameter is. */
export function checkRequestText(request: Pick<FastifyRequest, 'params' | 'query'>): void {
  for (const [where, values] of [
    ['path', request.params],
    ['query', request.query],
  ] as const) {
    if (typeof values !== 'object' || values === null) continue;
    for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
      const nameProblem = unsafeTextOf(name);
      if (nameProblem !== undefined) throw DomainError.validation(`a ${where} parameter name ${nameProblem}`);
      for (const item of Array.isArray(value) ? value : [value]) {
        const problem = typeof item === 'string' ? unsafeTextOf(item) : undefined;
        // A URL no route took has only Fastify's wildcard parameter `*`: the whole path, named as such (r14c item 7).
        if (problem !== undefined) throw DomainError.validation(`${where === 'path' && name === '*' ? 'the path' : fieldName(name)} ${problem}`);
      }
    }
  }
}

/** Whether a JSON Content-Type names no charset or UTF-8 (`utf-8`, `utf8`, any case, quoted or not). */
export function isUtf8OrNoCharset(contentType: string | undefined): boolean {
  const charset = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType ?? '')?.[2];
  return charset === undefined || /^utf-?8$/i.test(charset);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A body's bytes as text, or a 400 when they are not UTF-8 (a lone surrogate's bytes, 0xFF…): never replaced silently. */
export function utf8TextOf(body: string | Buffer): string {
  if (typeof body === 'string') return body;
  try {
    return UTF8.decode(body);
  } catch {
    throw DomainError.validation('the request body is not valid UTF-8');
  }
}

/**
 * Whether a Content-Encoding names no coding but identity (absent, empty, or `identity` in any
 * case, listed once or more). Any other coding (gzip, br, deflate, an unknown one) would be a body
 * we do not decode: read as JSON it would be misread (r14c item 6).
 */
export function isIdentityEncoding(contentEncoding: string | string[] | undefined): boolean {
  const text = Array.isArray(contentEncoding) ? contentEncoding.join(',') : (contentEncoding ?? '');
  return text
    .split(',')
    .map((coding) => coding.trim())
    .every((coding) => coding === '' || /^identity$/i.test(coding));
}

/** Installs {@link parseJsonBody} as the only body parser (any other Content-Type is 415) and {@link checkRequestText} before every route's validation. */
export function installHostileInputGuards(fastify: FastifyInstance): void {
  // JSON is the only body type: Fastify's text/plain parser would hand a string to validation (a 400
  // about the body's shape, where the Content-Type is what is wrong: 415).
  fastify.removeAllContentTypeParsers();
  // Read as bytes and decoded here: Fastify's string reading replaces invalid UTF-8 and then
  // reports the body's length as not matching its Content-Length, the wrong reason.
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      // The body is read as UTF-8: a JSON body declared in another charset is not one we read (RFC 8259 §8.1).
      if (!isUtf8OrNoCharset(request.headers['content-type'])) throw new DomainError(ErrorCode.UnsupportedMediaType, UNSUPPORTED_MEDIA_TYPE_MESSAGE);
      // An encoded body is not decoded here (nor anywhere): 415, RFC 9110 §15.5.16.
      if (!isIdentityEncoding(request.headers['content-encoding'])) {
        const refusal = new DomainError(ErrorCode.UnsupportedMediaType, UNSUPPORTED_CONTENT_ENCODING_MESSAGE);
        refusal.acceptEncoding = 'identity';
        throw refusal;
      }
      done(null, parseJsonBody(utf8TextOf(body), bodyValuesOf(request)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  fastify.addHook('preValidation', async (request) => checkRequestText(request));
}
