import fc from 'fast-check';
import { readFileSync } from 'node:fs';

/**
 * The OpenAPI-driven fuzz suite's parts (issue 14, "Prove it"): the operations of a committed
 * OpenAPI document, read generically (whatever shapes its schemas have today), requests derived
 * from each operation's schemas (a valid-ish base, then mutated by hostile arbitraries), and the
 * checks every answer must pass (never 5xx; an error in the documented format). Imported by path
 * (`@app/testing/openapi-fuzz`), not through the index, so other tests do not load it.
 */

/** A JSON Schema object as an OpenAPI 3.0 document holds it. */
export type Schema = { [key: string]: unknown };

interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface OperationObject {
  operationId?: string;
  parameters?: Array<ParameterObject | { $ref: string }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
  security?: Array<Record<string, string[]>>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject | unknown>>;
  components?: { schemas?: Record<string, Schema>; parameters?: Record<string, ParameterObject>; securitySchemes?: Record<string, Schema> };
  security?: Array<Record<string, string[]>>;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

/** One operation of one document, its schemas resolved against the document. */
export interface Operation {
  /** The document's name (file name without `.json`). */
  document: string;
  method: string;
  /** The path template, `/api/openapi/v1/emv/{emvId}`. */
  path: string;
  parameters: Parameter[];
  /** The JSON request body's schema, when the operation takes one. */
  body?: Schema;
  bodyRequired: boolean;
  /** Security requirement names (empty: the operation takes no token). */
  security: string[];
  /** The response statuses the document lists. */
  responses: string[];
  /** The document the operation's schemas resolve against. */
  spec: OpenApiDocument;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export function readOpenApiDocument(file: string): OpenApiDocument {
  return JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
}

/** A `#/components/...` reference followed to what it names. */
function deref<T>(spec: OpenApiDocument, value: T | { $ref: string }): T {
  let current: unknown = value;
  for (let hops = 0; current && typeof current === 'object' && typeof (current as { $ref?: unknown }).$ref === 'string'; hops++) {
    if (hops > 32) throw new Error(`reference cycle at ${(current as { $ref: string }).$ref}`);
    const ref = (current as { $ref: string }).$ref;
    if (!ref.startsWith('#/')) throw new Error(`only local references are read, got ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], spec);
    if (current === undefined) throw new Error(`unresolved reference ${ref}`);
  }
  return current as T;
}

/** A schema with its reference followed and an `allOf` merged into one object schema. */
export function resolveSchema(spec: OpenApiDocument, schema: Schema | undefined): Schema {
  if (!schema) return {};
  const resolved = deref<Schema>(spec, schema);
  const allOf = resolved.allOf as Schema[] | undefined;
  if (!Array.isArray(allOf)) return resolved;
  const parts = allOf.map((part) => resolveSchema(spec, part));
  const { allOf: _merged, ...rest } = resolved;
  const properties = Object.assign({}, ...parts.map((part) => part.properties ?? {}), rest.properties ?? {}) as Record<string, Schema>;
  const required = [...new Set(parts.flatMap((part) => (part.required as string[] | undefined) ?? []).concat((rest.required as string[] | undefined) ?? []))];
  const types = parts.map((part) => part.type).filter((type) => type !== undefined);
  return { ...Object.assign({}, ...parts), ...rest, ...(types.length ? { type: types[0] } : {}), properties, required };
}

/** Every operation of `spec`, in document order. */
export function operationsOf(document: string, spec: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    const shared = ((item as { parameters?: OperationObject['parameters'] }).parameters ?? []).map((parameter) => deref<ParameterObject>(spec, parameter));
    for (const method of METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation) continue;
      const own = (operation.parameters ?? []).map((parameter) => deref<ParameterObject>(spec, parameter));
      const byKey = new Map<string, ParameterObject>();
      for (const parameter of [...shared, ...own]) byKey.set(`${parameter.in}:${parameter.name.toLowerCase()}`, parameter);
      const parameters: Parameter[] = [...byKey.values()]
        .filter((parameter): parameter is ParameterObject & { in: Parameter['in'] } => parameter.in !== 'cookie')
        .map((parameter) => ({ name: parameter.name, in: parameter.in, required: parameter.in === 'path' || parameter.required === true, schema: resolveSchema(spec, parameter.schema) }));
      const json = operation.requestBody?.content?.['application/json']?.schema;
      const security = (operation.security ?? spec.security ?? []).flatMap((requirement) => Object.keys(requirement));
      operations.push({
        document,
        method: method.toUpperCase(),
        path,
        parameters,
        body: json ? resolveSchema(spec, json) : undefined,
        bodyRequired: operation.requestBody?.required === true,
        security,
        responses: Object.keys(operation.responses ?? {}),
        spec,
      });
    }
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------
// Values

/** Known values by field or parameter name (ids of seeded objects, a valid EMV blob): the caller's own and another tenant's. */
export interface IdPool {
  own(name: string): readonly unknown[];
  others(name: string): readonly unknown[];
}

/** Text with every UTF-16 code unit possible, lone surrogates included. */
const anyCodeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)), maxLength: 24 });

/** A NUL or a lone surrogate put somewhere in `base`. */
const withBadCharacter = (base: fc.Arbitrary<string>) =>
  fc
    .tuple(base, fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff'), fc.nat())
    .map(([text, char, at]) => `${text.slice(0, at % (text.length + 1))}${char}${text.slice(at % (text.length + 1))}`);

const specialStrings = fc.constantFrom(
  '',
  ' ',
  '\t\r\n',
  '0',
  '-1',
  '1.5',
  '1e400',
  '0x1F',
  '99999999999999999999999999',
  'null',
  'undefined',
  'true',
  '__proto__',
  'constructor',
  '../../../../etc/passwd',
  '..',
  '%00',
  '%',
  "' OR '1'='1",
  '"; DROP TABLE merchant; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '\u202egnp.exe',
  '١٢٣',
  '１２３',
  'Ａ',
  '😀',
  '\ufeff',
  '\uffff',
  '\u0085',
  'CD-000000000000',
  'prof_0000000000000000000000',
  'tran_0000000000000000000000',
);

/** Strings a careless client or an attacker sends: control and bad characters, lookalikes, sizes. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: specialStrings },
  { weight: 2, arbitrary: withBadCharacter(fc.string({ maxLength: 12 })) },
  { weight: 2, arbitrary: anyCodeUnits },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('x', '9', 'é', '😀'), fc.integer({ min: 65, max: 70_000 })).map(([char, count]) => char.repeat(count)) },
);

/** A value `depth` levels deep (arrays, objects, or both alternating). */
function nested(depth: number, kind: 0 | 1 | 2): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = kind === 0 || (kind === 2 && level % 2 === 0) ? [value] : { a: value };
  return value;
}

/** Any JSON value of the wrong kind for where it goes: types, numbers at the edges, nesting, sizes, hostile text. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, -0, 1e308, -1e308, 2 ** 53 + 2, 4294967296, [], {}, [null], { '': null }) },
  { weight: 4, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 10, max: 64 }), fc.constantFrom<0 | 1 | 2>(0, 1, 2)).map(([depth, kind]) => nested(depth, kind)) },
  { weight: 1, arbitrary: fc.array(fc.constant('x'), { minLength: 200, maxLength: 3000 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** What replaces one field: an explicit null most often (the class that reached code assuming a value), else the wrong type or hostile text. */
export const hostileFieldValue: fc.Arbitrary<unknown> = fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: hostileValue });

function typesOf(schema: Schema): string[] {
  const type = schema.type;
  const types = Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
  return types.filter((candidate) => candidate !== 'null');
}

function nullable(schema: Schema): boolean {
  return schema.nullable === true || (Array.isArray(schema.type) && (schema.type as string[]).includes('null'));
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = Math.max(min, Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 24, 64));
  switch (schema.format) {
    case 'email':
      return fc.emailAddress();
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString());
    case 'date':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
    case 'uuid':
      return fc.uuid();
    case 'uri':
    case 'url':
      return fc.webUrl();
  }
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length >= min && text.length <= Math.max(max, 64));
    } catch {
      // a pattern JavaScript cannot read: plain text instead
    }
  }
  return fc.string({ minLength: min, maxLength: max });
}

/** `value` as the schema's type: ids are kept as numbers or digit strings as the schema says. */
function asType(schema: Schema, value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && !types.includes('string')) return Number.isFinite(Number(value)) ? Number(value) : value;
  return types.includes('string') || types.length === 0 ? String(value) : value;
}

/**
 * A value the schema accepts, or close to it: the document's example and enum, known ids for a
 * field of that name (own, sometimes another tenant's), else values drawn within the schema's
 * types and limits. Deep or cyclic schemas end in `{}`.
 */
export function validish(spec: OpenApiDocument, raw: Schema | undefined, ids: IdPool, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolveSchema(spec, raw);
  const choices: Array<{ weight: number; arbitrary: fc.Arbitrary<unknown> }> = [];
  const own = name ? ids.own(name) : [];
  const others = name ? ids.others(name) : [];
  if (own.length) choices.push({ weight: 8, arbitrary: fc.constantFrom(...own).map((id) => asType(schema, id)) });
  if (others.length) choices.push({ weight: 1, arbitrary: fc.constantFrom(...others).map((id) => asType(schema, id)) });
  if (Array.isArray(schema.enum) && schema.enum.length) choices.push({ weight: 6, arbitrary: fc.constantFrom(...(schema.enum as unknown[])) });
  if (schema.example !== undefined) choices.push({ weight: 6, arbitrary: fc.constant(schema.example) });
  if (!choices.some((choice) => choice.weight >= 6)) {
    for (const variant of [...((schema.oneOf as Schema[]) ?? []), ...((schema.anyOf as Schema[]) ?? [])]) choices.push({ weight: 2, arbitrary: validish(spec, variant, ids, name, depth + 1) });
    const drawn = drawnFor(spec, schema, ids, depth);
    if (drawn) choices.push({ weight: schema.example !== undefined ? 2 : 3, arbitrary: drawn });
  }
  if (choices.length === 0) choices.push({ weight: 1, arbitrary: depth > 3 ? fc.constant({}) : fc.jsonValue({ maxDepth: 2 }) });
  const value = fc.oneof(...choices);
  return nullable(schema) ? fc.oneof({ weight: 9, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) }) : value;
}

function drawnFor(spec: OpenApiDocument, schema: Schema, ids: IdPool, depth: number): fc.Arbitrary<unknown> | undefined {
  const types = typesOf(schema);
  const type = types[0] ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({ min: Math.ceil(minimum ?? -10), max: Math.floor(maximum ?? Math.max((minimum ?? 0) + 1000, 1000)) });
    case 'number':
      return fc.double({ min: minimum ?? -10, max: maximum ?? 100_000, noNaN: true, noDefaultInfinity: true }).map((value) => Math.round(value * 100) / 100);
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (depth > 4) return fc.constant([]);
      return fc.array(validish(spec, schema.items as Schema | undefined, ids, undefined, depth + 1), {
        minLength: typeof schema.minItems === 'number' ? Math.min(schema.minItems, 3) : 0,
        maxLength: 3,
      });
    case 'object':
      return objectFor(spec, schema, ids, depth);
    default:
      return undefined;
  }
}

function objectFor(spec: OpenApiDocument, schema: Schema, ids: IdPool, depth: number): fc.Arbitrary<unknown> {
  if (depth > 4) return fc.constant({});
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const model = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, validish(spec, property, ids, key, depth + 1)]));
  const optional = Object.keys(properties).filter((key) => !required.has(key));
  // The required fields and a few optional ones: the fewer fields, the likelier the base is valid and a mutation reaches past validation.
  const record = fc
    .subarray(optional, { maxLength: Math.min(4, optional.length) })
    .chain((chosen) => fc.record(Object.fromEntries(Object.entries(model).filter(([key]) => required.has(key) || chosen.includes(key)))));
  const additional = schema.additionalProperties;
  if (Object.keys(properties).length > 0 || !additional) return record;
  const values = additional === true ? fc.jsonValue({ maxDepth: 2 }) : validish(spec, additional as Schema, ids, undefined, depth + 1);
  return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), values, { maxKeys: 3 });
}

// ---------------------------------------------------------------------------------------------
// Requests

/** A body as sent: JSON of a value, or raw text (broken JSON), with the content type it goes with. */
export type FuzzBody = { json: unknown; contentType?: string } | { raw: string; contentType: string };

/** A path or query value: text to percent-encode, or an escape sent as it is (`%ED%A0%80`). */
export type UrlValue = string | { escaped: string };

export interface FuzzRequest {
  method: string;
  /** The path template's parameters. */
  path: Record<string, UrlValue>;
  query: Array<[string, UrlValue]>;
  headers: Record<string, string>;
  /** Which credential to send: the operation's own, none, or a wrong one (the caller maps the name to a token). */
  auth: 'right' | 'none' | 'garbage' | 'wrong-kind' | 'other-tenant';
  body?: FuzzBody;
  /** What was done to the valid-ish base, for the report. */
  mutation: string;
}

/** UTF-16 text as percent-escaped UTF-8; a lone surrogate becomes its 3-byte (WTF-8) escape, which no UTF-8 decoder accepts. */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(text[i]);
    }
  }
  return out;
}

function encoded(value: UrlValue): string {
  return typeof value === 'string' ? percentEncode(value) : value.escaped;
}

/** The request's URL path and query for `operation`. */
export function urlOf(operation: Operation, request: FuzzRequest): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encoded(request.path[name] ?? ''));
  const query = request.query.map(([key, value]) => `${percentEncode(key)}=${encoded(value)}`).join('&');
  return query ? `${path}?${query}` : path;
}

/** A string form of a value for a path or query. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}

const hostileUrlValue: fc.Arbitrary<UrlValue> = fc.oneof(
  { weight: 6, arbitrary: hostileString.filter((value) => value.length <= 2000) },
  { weight: 1, arbitrary: fc.constantFrom<UrlValue>({ escaped: '%ED%A0%80' }, { escaped: '%C0%AF' }, { escaped: '%zz' }, { escaped: '%' }, { escaped: '%2F..%2F' }, { escaped: '%00' }) },
  { weight: 1, arbitrary: fc.integer({ min: 257, max: 4000 }).map((count) => 'x'.repeat(count)) },
);

function urlValueFor(operation: Operation, parameter: Parameter, ids: IdPool): fc.Arbitrary<UrlValue> {
  return fc.oneof(
    { weight: 5, arbitrary: validish(operation.spec, parameter.schema, ids, parameter.name).map(text) },
    { weight: 2, arbitrary: hostileUrlValue },
  );
}

/** Where in `value` something can be replaced: every object key and array index path. */
function pathsIn(value: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = [], depth = 0): Array<Array<string | number>> {
  if (depth > 6 || value === null || typeof value !== 'object') return out;
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  for (const [key, child] of entries.slice(0, 20)) {
    out.push([...prefix, key]);
    pathsIn(child, [...prefix, key], out, depth + 1);
  }
  return out;
}

function cloneJson(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

function setAt(root: unknown, path: Array<string | number>, value: unknown, remove = false): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) {
    // An earlier change of this mutation may have replaced a parent: the nested change is then moot.
    if (node[key] === null || typeof node[key] !== 'object') return;
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (!remove) node[last] = value;
  else if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[last];
}

const unknownFieldName = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'groupId', 'id', 'createdAt', 'isAdmin', 'x'),
  fc.string({ minLength: 1, maxLength: 12 }),
  hostileString.filter((name) => name.length < 200),
);

const brokenJson = fc.constantFrom('', '{', '{"a":', '[1,2', 'nul', '{"a":1,}', "{'a':1}", '{"a":1}{"b":2}', '\u0000', '{"a":"\\ud800"}', '{"a":1e99999}', '['.repeat(5000), '{"a":'.repeat(3000));

/**
 * A mutation of a valid-ish body: one or two fields (the schema's, present in the base or not, or
 * any nested one) set to a hostile value, a field removed, an unknown one added, or the whole
 * body broken.
 */
function mutatedBody(base: unknown, fields: readonly string[]): fc.Arbitrary<{ body: FuzzBody; mutation: string }> {
  const seen = new Set<string>();
  const targets = [...fields.map((field) => [field]), ...pathsIn(base)].filter((path) => {
    const key = JSON.stringify(path);
    return seen.has(key) ? false : (seen.add(key), true);
  });
  const objectBase = base !== null && typeof base === 'object' && !Array.isArray(base);
  const choices: Array<{ weight: number; arbitrary: fc.Arbitrary<{ body: FuzzBody; mutation: string }> }> = [
    { weight: 1, arbitrary: fc.constant({ body: { json: base }, mutation: 'none (the valid-ish base)' }) },
    {
      weight: 2,
      arbitrary: fc.tuple(unknownFieldName, hostileValue).map(([key, value]) => {
        const body = cloneJson(base);
        if (objectBase) Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
        return { body: { json: body }, mutation: `unknown field ${JSON.stringify(key)}` };
      }),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom<unknown>(null, [], 'text', 42, true, [{}]).map((json) => ({ body: { json }, mutation: 'a body that is not an object' })),
        brokenJson.map((raw) => ({ body: { raw, contentType: 'application/json' }, mutation: 'broken JSON' })),
        fc
          .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x', 'application/json; charset=latin1')
          .map((contentType) => ({ body: { json: base, contentType }, mutation: `content type ${contentType}` })),
      ),
    },
  ];
  if (targets.length > 0 && (objectBase || Array.isArray(base))) {
    const at = fc.constantFrom(...targets);
    const oneOrTwo = fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.constant(2) });
    choices.push(
      {
        weight: 8,
        arbitrary: oneOrTwo
          .chain((count) => fc.uniqueArray(fc.tuple(at, hostileFieldValue), { minLength: 1, maxLength: count, selector: ([path]) => JSON.stringify(path) }))
          .map((changes) => ({ body: { json: changes.reduce<unknown>((body, [path, value]) => replaced(body, path, value), base) }, mutation: changes.map(([path]) => `${path.join('.')} set hostile`).join(', ') })),
      },
      { weight: 2, arbitrary: at.map((path) => ({ body: { json: removed(base, path) }, mutation: `${path.join('.')} removed` })) },
    );
  }
  return fc.oneof(...choices);
}

function replaced(base: unknown, path: Array<string | number>, value: unknown): unknown {
  const body = cloneJson(base);
  setAt(body, path, value);
  return body;
}

function removed(base: unknown, path: Array<string | number>): unknown {
  const body = cloneJson(base);
  setAt(body, path, undefined, true);
  return body;
}

/**
 * Requests for `operation`: path parameters (own ids, another tenant's, hostile text and escapes),
 * query values (valid-ish, hostile, repeated, unknown, required ones left out), headers, the
 * credential, and the body (a valid-ish base under one mutation).
 */
/**
 * Whether `method path` (a concrete path, query ignored) is a call of `operation`: the template's
 * parameters match one path segment each, literal segments exactly.
 */
export function isCallOf(operation: Operation, method: string, path: string): boolean {
  if (operation.method !== method.toUpperCase()) return false;
  const pattern = operation.path
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`).test(path.split('?')[0]);
}

/**
 * Requests for `operation`: path, query, headers, credential and body drawn from its schemas and
 * mutated by the hostile arbitraries. `validBodies` are bodies the server took (2xx) for this
 * operation elsewhere in the run: a mutation of one field of a body that is otherwise right
 * reaches the service's own rules (references, states, money), where a schema-drawn base is often
 * refused by validation first.
 */
export function requestsFor(operation: Operation, ids: IdPool, validBodies: readonly unknown[] = []): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const headerParameters = operation.parameters.filter((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() !== 'authorization');

  const path = fc.record(Object.fromEntries(pathParameters.map((parameter) => [parameter.name, urlValueFor(operation, parameter, ids)])));
  const declaredQuery = fc.tuple(
    ...queryParameters.map((parameter) =>
      fc.oneof(
        { weight: parameter.required ? 0 : 3, arbitrary: fc.constant<Array<[string, UrlValue]>>([]) },
        { weight: parameter.required ? 8 : 3, arbitrary: urlValueFor(operation, parameter, ids).map((value): Array<[string, UrlValue]> => [[parameter.name, value]]) },
        { weight: 1, arbitrary: fc.array(urlValueFor(operation, parameter, ids), { minLength: 2, maxLength: 3 }).map((values) => values.map((value): [string, UrlValue] => [parameter.name, value])) },
        { weight: parameter.required ? 1 : 0, arbitrary: fc.constant<Array<[string, UrlValue]>>([]) },
      ),
    ),
  );
  const extraQuery = fc.oneof(
    { weight: 5, arbitrary: fc.constant<Array<[string, UrlValue]>>([]) },
    { weight: 1, arbitrary: fc.tuple(unknownFieldName, hostileUrlValue).map(([key, value]): Array<[string, UrlValue]> => [[key, value]]) },
  );
  const query = fc.tuple(declaredQuery, extraQuery).map(([declared, extra]) => [...declared.flat(), ...extra]);
  const headerValue = fc.oneof(
    { weight: 4, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 300 }) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'x'.repeat(5000)) },
  );
  const headers = fc.record(Object.fromEntries(headerParameters.map((parameter) => [parameter.name.toLowerCase(), headerValue])), { requiredKeys: [] });
  const auth = operation.security.length
    ? fc.oneof(
        { weight: 20, arbitrary: fc.constant<FuzzRequest['auth']>('right') },
        { weight: 1, arbitrary: fc.constantFrom<FuzzRequest['auth']>('none', 'garbage', 'wrong-kind', 'other-tenant') },
      )
    : fc.constant<FuzzRequest['auth']>('none');
  const bodySchema = operation.body;
  const body: fc.Arbitrary<{ body?: FuzzBody; mutation: string }> = bodySchema
    ? (validBodies.length
        ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...validBodies) }, { weight: 2, arbitrary: validish(operation.spec, bodySchema, ids) })
        : validish(operation.spec, bodySchema, ids)
      ).chain((base) => mutatedBody(base, Object.keys((bodySchema.properties ?? {}) as Record<string, unknown>)))
    : fc.oneof({ weight: 5, arbitrary: fc.constant({ mutation: 'no body' }) }, { weight: 1, arbitrary: hostileValue.map((json) => ({ body: { json }, mutation: 'a body where none is taken' })) });

  return fc.record({ path, query, headers, auth, body }).map(({ path: pathValues, query: queryValues, headers: headerValues, auth: credential, body: sent }) => ({
    method: operation.method,
    path: pathValues,
    query: queryValues,
    headers: headerValues as Record<string, string>,
    auth: credential,
    body: sent.body,
    mutation: sent.mutation,
  }));
}

/** The request as a replayable line for a failure report: method, URL, headers and body. */
export function describeRequest(operation: Operation, request: FuzzRequest): string {
  const body = request.body === undefined ? '' : 'raw' in request.body ? request.body.raw : (JSON.stringify(request.body.json) ?? '');
  const shown = body.length > 400 ? `${body.slice(0, 400)}… (${body.length} characters)` : body;
  return `${request.method} ${urlOf(operation, request).slice(0, 600)} auth=${request.auth} headers=${JSON.stringify(request.headers).slice(0, 200)} mutation=${request.mutation} body=${shown}`;
}

// ---------------------------------------------------------------------------------------------
// Answers

export interface FuzzResponse {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * The envelope's documented (code, HTTP status) pairs (DECISIONS.md "Envelope errors" and
 * docs/decisions.md: 413 oversized body, 405 wrong method, 422 reused idempotency key).
 */
export const ENVELOPE_ERROR_STATUSES: Readonly<Record<number, readonly number[]>> = {
  10000: [400, 405, 408, 409, 413, 415, 417, 422, 431],
  11000: [401],
  13000: [403],
  14000: [404],
  15000: [502, 504],
  16000: [429],
};

/** The gateway's problem types by HTTP status (docs/decisions.md, payment gateway errors). */
export const PROBLEM_TYPES: Readonly<Record<number, readonly string[]>> = {
  400: ['invalid-request'],
  401: ['unauthenticated'],
  403: ['forbidden'],
  404: ['not-found'],
  405: ['method-not-allowed'],
  408: ['request-timeout'],
  409: ['conflict'],
  413: ['payload-too-large'],
  415: ['unsupported-media-type'],
  422: ['unprocessable'],
  417: ['expectation-failed'],
  431: ['headers-too-large'],
  429: ['rate-limited'],
  502: ['upstream-failed'],
  504: ['upstream-timeout'],
};

const REQUEST_ID = /^req_[A-Za-z0-9_-]{22}$/;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What is wrong with an answer, as sentences (empty when nothing): a 5xx; an error that is not
 * the envelope (`envelope`) or not problem details with the request id (`problem`); a success
 * envelope that is not one.
 */
export function answerProblems(format: 'envelope' | 'problem', response: FuzzResponse): string[] {
  const problems: string[] = [];
  const { status } = response;
  const contentType = response.headers.get('content-type') ?? '';
  const body = parsed(response.text);
  if (status >= 500) problems.push(`HTTP ${status}: ${response.text.slice(0, 300)}`);
  if (/\bat [\w.<>]+ \(.*:\d+:\d+\)/.test(response.text)) problems.push('the body carries a stack trace');
  if (status < 400) {
    if (format === 'envelope' && status === 200 && !(isObject(body) && body.code === 0 && body.msg === 'SUCCESS')) problems.push(`a success that is not the envelope: ${response.text.slice(0, 200)}`);
    return problems;
  }
  if (format === 'envelope') {
    if (!contentType.startsWith('application/json')) problems.push(`content type ${contentType || 'none'}, not application/json`);
    if (!isObject(body)) return [...problems, `error body is not a JSON object: ${response.text.slice(0, 200)}`];
    const extra = Object.keys(body).filter((key) => !['msg', 'code', 'data'].includes(key));
    if (extra.length) problems.push(`envelope has other keys: ${extra.join(', ')}`);
    if (typeof body.msg !== 'string' || body.msg.trim() === '') problems.push(`msg is not a sentence: ${JSON.stringify(body.msg)}`);
    const statuses = ENVELOPE_ERROR_STATUSES[body.code as number];
    if (!statuses?.includes(status)) problems.push(`code ${JSON.stringify(body.code)} with HTTP ${status} is not in the documented table`);
    if (body.code === 11000 && body.data !== 401) problems.push('a 401 envelope without data 401');
  } else {
    if (!contentType.startsWith('application/problem+json')) problems.push(`content type ${contentType || 'none'}, not application/problem+json`);
    if (!isObject(body)) return [...problems, `error body is not a JSON object: ${response.text.slice(0, 200)}`];
    const keys = Object.keys(body).sort().join(',');
    if (keys !== 'detail,requestId,status,title,type') problems.push(`problem details keys are ${keys}`);
    const types = (PROBLEM_TYPES[status] ?? []).map((type) => `urn:softpos:problem:${type}`);
    if (!types.includes(body.type as string)) problems.push(`type ${JSON.stringify(body.type)} is not the documented one for HTTP ${status}`);
    if (typeof body.title !== 'string' || body.title === '') problems.push('no title');
    if (body.status !== status) problems.push(`status ${JSON.stringify(body.status)} in the body, ${status} on the wire`);
    if (typeof body.detail !== 'string' || body.detail.trim() === '') problems.push('no detail');
    const header = response.headers.get('x-service-request-id');
    if (typeof body.requestId !== 'string' || !REQUEST_ID.test(body.requestId)) problems.push(`requestId ${JSON.stringify(body.requestId)} is not req_ and 16 bytes`);
    if (body.requestId !== header) problems.push(`requestId ${JSON.stringify(body.requestId)} differs from the x-service-request-id header ${JSON.stringify(header)}`);
  }
  return problems;
}
