import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import createClient, { Client, Middleware } from 'openapi-fetch';
import type { paths as MerchantManagementPaths } from './openapi/merchant-management';
import type { paths as PaymentGatewayPaths } from './openapi/payment-gateway';
import type { paths as TransactionsPaths } from './openapi/transactions';
import type { ApiClient } from './test-app';

/**
 * The HTTP APIs as a client generated from the committed OpenAPI documents sees them: request and
 * response types come from docs/openapi/*.json (openapi-typescript, libs/testing/src/openapi), so a
 * document that drifts from what the tests send or read fails the type check; and every answer is
 * validated against the document's schema for its operation and status, so one that drifts from
 * the wire fails the test.
 */

export type { MerchantManagementPaths, PaymentGatewayPaths, TransactionsPaths };

type DocumentName = 'merchant-management' | 'payment-gateway' | 'transactions';

type Json = { [key: string]: unknown };

/**
 * A copy of `node` as JSON Schema, in which every object schema that lists its properties allows
 * no others: a field on the wire the document does not name is drift too. (Free-form objects say
 * `additionalProperties` themselves and keep it.)
 */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== 'object') return node;
  const copy: Json = Object.fromEntries(Object.entries(node as Json).map(([key, value]) => [key, closed(value)]));
  if (copy.properties && typeof copy.properties === 'object' && copy.additionalProperties === undefined) copy.additionalProperties = false;
  // `nullable` is read as OpenAPI 3.0.3 says (ajv's `nullable` option): it admits null only beside
  // a `type`, and nothing under allOf or a $ref is widened by it (docs/decisions.md, "Nullable
  // references in the OpenAPI documents").
  return copy;
}

/** JSON-pointer escaping of one path segment. */
function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The response schemas of one committed document, compiled once. */
export class ResponseContract {
  private readonly ajv = new Ajv({ allErrors: true, unknownFormats: 'ignore', schemaId: 'auto', nullable: true });
  readonly document: Json;

  constructor(readonly name: DocumentName) {
    this.document = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'openapi', `${name}.json`), 'utf8')) as Json;
    this.ajv.addSchema(closed(this.document) as object, name);
  }

  /** What is wrong with `value` as the schema at `pointer` (a JSON pointer into the document, e.g. `/components/schemas/X/properties/y`). */
  problemsAt(pointer: string, value: unknown): string[] {
    const validate = this.ajv.getSchema(`${this.name}#${pointer}`);
    if (!validate) return [`${pointer}: the schema cannot be compiled`];
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${pointer}: ${error.dataPath} ${error.message ?? ''}`);
  }

  /**
   * What is wrong with an answer of `method schemaPath`: a status or media type the document does
   * not list, or a body its schema refuses. Empty when the answer is as documented.
   */
  problemsOf(method: string, schemaPath: string, status: number, contentType: string | null, body: unknown): string[] {
    const operation = ((this.document.paths as Json)[schemaPath] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
    const where = `${method.toUpperCase()} ${schemaPath} → ${status}`;
    if (!operation) return [`${where}: no such operation in docs/openapi/${this.name}.json`];
    const responses = operation.responses as Json;
    const key = String(status) in responses ? String(status) : 'default' in responses ? 'default' : undefined;
    if (!key) return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
    const content = (responses[key] as Json).content as Json | undefined;
    const mediaType = (contentType ?? '').split(';')[0].trim();
    if (!content) return body === undefined || body === '' ? [] : [`${where}: a body the document does not describe`];
    if (!(mediaType in content)) return [`${where}: media type ${mediaType || '(none)'} not documented (documented: ${Object.keys(content).join(', ')})`];
    const validate = this.ajv.getSchema(
      `${this.name}#/paths/${pointer(schemaPath)}/${method.toLowerCase()}/responses/${key}/content/${pointer(mediaType)}/schema`,
    );
    if (!validate) return [`${where}: the schema cannot be compiled`];
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => `${where}: body${error.dataPath} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
  }
}

const contracts = new Map<DocumentName, ResponseContract>();

/** The contract of a committed document (compiled on first use). */
export function responseContract(name: DocumentName): ResponseContract {
  let contract = contracts.get(name);
  if (!contract) {
    contract = new ResponseContract(name);
    contracts.set(name, contract);
  }
  return contract;
}

/** Fails the call (the promise rejects) when an answer differs from the document. */
function conformingTo(name: DocumentName): Middleware {
  return {
    async onResponse({ request, response, schemaPath }) {
      const text = await response.clone().text();
      let body: unknown = text;
      try {
        body = text === '' ? undefined : (JSON.parse(text) as unknown);
      } catch {
        // not JSON: validated as the text it is
      }
      const problems = responseContract(name).problemsOf(request.method, schemaPath, response.status, response.headers.get('content-type'), body);
      if (problems.length > 0)
        throw new Error(`the answer does not match docs/openapi/${name}.json:\n  ${problems.join('\n  ')}\n  body: ${text.slice(0, 2000)}`);
      return undefined;
    },
  };
}

function typedClient<Paths extends object>(name: DocumentName, api: Pick<ApiClient, 'baseUrl' | 'token'>): Client<Paths> {
  const client = createClient<Paths>({ baseUrl: api.baseUrl, headers: api.token ? { authorization: `Bearer ${api.token}` } : {} });
  client.use(conformingTo(name));
  return client;
}

/** merchant-management through a client generated from its committed document, with `api`'s token. */
export function merchantManagementClient(api: Pick<ApiClient, 'baseUrl' | 'token'>): Client<MerchantManagementPaths> {
  return typedClient<MerchantManagementPaths>('merchant-management', api);
}

/** payment-gateway through a client generated from its committed document, with `api`'s token. */
export function paymentGatewayClient(api: Pick<ApiClient, 'baseUrl' | 'token'>): Client<PaymentGatewayPaths> {
  return typedClient<PaymentGatewayPaths>('payment-gateway', api);
}

/** transactions through a client generated from its committed document, with `api`'s token. */
export function transactionsClient(api: Pick<ApiClient, 'baseUrl' | 'token'>): Client<TransactionsPaths> {
  return typedClient<TransactionsPaths>('transactions', api);
}

/** The `data` of a success envelope from a typed call, failing the test with the answer otherwise. */
export function envelopeData<T>(result: { data?: { code: 0; msg: 'SUCCESS'; data: T }; error?: unknown; response: Response }): T {
  if (!result.response.ok || result.data === undefined)
    throw new Error(`expected success, got HTTP ${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data.data;
}

/** Fails the test unless a typed call answered a success envelope (without data). */
export function expectSuccess(result: { data?: { code: 0; msg: 'SUCCESS' }; error?: unknown; response: Response }): void {
  if (!result.response.ok || result.data === undefined)
    throw new Error(`expected success, got HTTP ${result.response.status}: ${JSON.stringify(result.error)}`);
}

/** The body of a typed call that answered `status`, failing the test with the answer otherwise. */
export function bodyFrom<T>(result: { data?: T; error?: unknown; response: Response }, status = 200): T {
  if (result.response.status !== status || result.data === undefined)
    throw new Error(`expected HTTP ${status}, got ${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}
