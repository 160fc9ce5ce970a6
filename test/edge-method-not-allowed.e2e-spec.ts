import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { ApiClient, startTestApp, TestApp, unique } from '@app/testing';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PboService } from '../apps/merchant-management/src';
import { StandaloneModule } from '../apps/standalone/src';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Every route of the three published documents, as a path template and the methods it takes. */
const ROUTES = ['merchant-management', 'payment-gateway', 'transactions'].flatMap((document) =>
  Object.entries((JSON.parse(readFileSync(join(__dirname, `../docs/openapi/${document}.json`), 'utf8')) as { paths: Record<string, Record<string, unknown>> }).paths).map(
    ([path, operations]) => ({ document, path, methods: Object.keys(operations).map((method) => method.toUpperCase() as Method) }),
  ),
);

/** A namespace: the one this gateway serves, another spelling of it, or another one altogether. */
const namespace = fc.oneof(
  fc.constant(DEFAULT_GATEWAY_NAMESPACE),
  fc.constantFrom(DEFAULT_GATEWAY_NAMESPACE.toUpperCase(), `${DEFAULT_GATEWAY_NAMESPACE}x`, 'x', 'api'),
  fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,15}$/),
);

/** The error's text in either format (the envelope's msg, problem details' detail). */
function textOf(body: unknown): unknown {
  const record = body as Record<string, unknown> | null;
  return record?.msg ?? record?.detail;
}

/**
 * A 405 names only methods that routing would take for the URL as sent (r14c item 3, class 9),
 * on every route of every context (standalone: merchant-management, the gateway, transactions),
 * the gateway's with generated namespaces: a namespace the gateway does not serve is a 404 for
 * every method, as its guard answers the methods it routes.
 */
describe('standalone: a 405 names only methods the URL takes, on every context\'s routes', () => {
  let app: TestApp;
  let client: ApiClient;

  beforeAll(async () => {
    app = await startTestApp((options) => StandaloneModule.register(options));
    const { groupId } = await app.app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur' });
    client = await app.clientFor(groupId);
  });

  afterAll(() => app?.close());

  const urlOf = (path: string, ns: string, id: string, slash: boolean) =>
    `${path.replace('{namespace}', ns).replace(/\{[^}]+\}/g, id)}${slash ? '/' : ''}`;
  const send = (verb: string, url: string) => client.request(verb, url, verb === 'GET' || verb === 'DELETE' ? undefined : {});

  it('should never answer a 405 whose Allow names a method the same URL answers 404 "no such endpoint" or 405', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.constantFrom(...METHODS), namespace, fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/), fc.boolean(), async (route, method, ns, id, slash) => {
        const url = urlOf(route.path, ns, id, slash);
        const response = await send(method, url);
        if (response.status !== 405) return;
        for (const allowed of (response.headers.get('allow') ?? '').split(', ')) {
          const other = await send(allowed, url);
          expect({ url, method: allowed, status: other.status }).not.toMatchObject({ status: 405 });
          expect({ url, method: allowed, text: textOf(other.body) }).not.toEqual({ url, method: allowed, text: 'no such endpoint' });
        }
      }),
      { numRuns: 80 },
    );
  });

  it('should answer 404 "no such endpoint" for every method on a namespace the gateway does not serve (the reviewer\'s /x and /DEMO, and generated ones)', async () => {
    const gateway = ROUTES.filter((route) => route.document === 'payment-gateway');
    const other = namespace.filter((ns) => ns !== DEFAULT_GATEWAY_NAMESPACE);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...gateway), fc.constantFrom(...METHODS), other, fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/), async (route, method, ns, id) => {
        const url = urlOf(route.path, ns, id, false);
        const response = await send(method, url);
        expect({ url, method, status: response.status, text: textOf(response.body), allow: response.headers.get('allow') }).toEqual({
          url,
          method,
          status: 404,
          text: 'no such endpoint',
          allow: null,
        });
      }),
      { numRuns: 60 },
    );
    for (const [method, url] of [
      ['PATCH', '/x/api/v1/profiles'],
      ['PATCH', '/DEMO/api/v1/profiles'],
      ['DELETE', '/x/api/v1/transaction/tran_0123456789abcdefghijkl'],
    ]) {
      expect((await send(method, url)).status).toBe(404);
    }
  });
});
