import { acquirerBody, ApiClient, createEmv } from '@app/testing';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * What every response carries whatever the route (issue 14, class 9): the envelope for a known
 * path asked with a method it does not take (405 with `Allow`), security headers, and
 * `Cache-Control: no-store`.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The routes as the published OpenAPI document lists them: a pattern and the methods it takes. */
const DOCUMENT = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi/merchant-management.json'), 'utf8')) as {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> }>>;
  components: { schemas: Record<string, { properties?: Record<string, { enum?: unknown[] }>; required?: string[] }> };
};
const ROUTES = Object.entries(DOCUMENT.paths).map(([path, operations]) => ({
  path,
  pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  methods: Object.keys(operations).map((method) => method.toUpperCase() as Method),
}));

describe('merchant-management: what every response carries', () => {
  let app: MerchantManagementTestApp;
  let client: ApiClient;

  beforeAll(async () => {
    app = await startMerchantManagement();
    client = await app.newPbo();
  });

  afterAll(() => app.close());

  it('should answer a documented path asked with a method it does not take with 405, Allow listing the methods it takes, in the envelope', async () => {
    const cases = ROUTES.flatMap((route) => METHODS.filter((method) => !route.methods.includes(method)).map((method) => ({ route, method })));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), fc.stringMatching(/^[A-Za-z0-9]{1,12}$/), async ({ route, method }, id) => {
        const url = route.path.replace(/\{[^}]+\}/g, id);
        // Another documented pattern may take this URL too (`/mchInfo/{mchId}` and `/mchInfo/list`): its methods count.
        const allowed = METHODS.filter((candidate) => ROUTES.some((other) => other.pattern.test(url) && other.methods.includes(candidate)));
        fc.pre(!allowed.includes(method));

        const response = await client.request(method, url, method === 'GET' || method === 'DELETE' ? undefined : {});

        expect({ status: response.status, body: response.body, allow: response.headers.get('allow') }).toEqual({
          status: 405,
          body: { code: 10000, msg: `${method} is not allowed on this path; it takes ${allowed.join(', ')}` },
          allow: allowed.join(', '),
        });
      }),
      { numRuns: 40 },
    );
  });

  it('should still answer 404 in the envelope for a path no route takes', async () => {
    const response = await client.get('/api/openapi/v1/no-such-thing');
    expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: { code: 14000, msg: 'no such endpoint' } });
  });

  it('should never answer a 405 whose Allow names a method the same URL would refuse: trailing slashes included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.constantFrom(...METHODS), fc.stringMatching(/^[A-Za-z0-9]{1,12}$/), fc.boolean(), async (route, method, id, slash) => {
        const url = `${route.path.replace(/\{[^}]+\}/g, id)}${slash ? '/' : ''}`;
        const send = (verb: string) => client.request(verb, url, verb === 'GET' || verb === 'DELETE' ? undefined : {});
        const response = await send(method);
        if (response.status !== 405) return;
        // Each method the answer says the URL takes is routed there: not a 405, not "no such endpoint".
        for (const allowed of (response.headers.get('allow') ?? '').split(', ')) {
          const other = await send(allowed);
          expect({ method: allowed, status: other.status, body: other.status === 404 ? other.body : undefined }).not.toMatchObject({ status: 405 });
          expect(other.body).not.toEqual({ code: 14000, msg: 'no such endpoint' });
        }
      }),
      { numRuns: 40 },
    );
  });

  // r14c item 8: 401 envelopes carry data 401 (the shared decisions' rule), which the document did not list.
  it('should answer a 401 as every operation\'s document says, data 401 included', async () => {
    const documented = new Set(
      Object.values(DOCUMENT.paths).flatMap((operations) =>
        Object.values(operations).flatMap((operation) => Object.values(operation.responses?.['401']?.content ?? {}).map((media) => media.schema?.$ref)),
      ),
    );
    expect([...documented]).toEqual(['#/components/schemas/UnauthenticatedEnvelopeDto']);
    const schema = DOCUMENT.components.schemas.UnauthenticatedEnvelopeDto;
    for (const token of [undefined, 'garbage', 'a.b.c']) {
      const response = await (token === undefined ? app.anonymous : new ApiClient(app.anonymous.baseUrl, token)).get('/api/v2/current');
      expect(response.status).toBe(401);
      expect(Object.keys(response.body).sort()).toEqual(Object.keys(schema.properties ?? {}).sort());
      expect(response.body).toMatchObject({ code: 11000, data: 401 });
      expect(schema.properties?.data?.enum).toEqual([401]);
    }
  });

  // r14c item 8: connExtraParams {"x":1e400} was stored as {"x":null}.
  it('should refuse a JSON number no double holds with 400 naming the field, in a body and in JSON carried in a string field', async () => {
    const emvId = await createEmv(client, { paymentMethod: '01' });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 309, max: 100_000 }), fc.boolean(), fc.constantFrom('x', 'deep.er'), async (exponent, negative, where) => {
        const number = `${negative ? '-' : ''}1e${exponent}`;
        const inner = where === 'x' ? `{"x":${number}}` : `{"deep":{"er":${number}}}`;
        const embedded = await client.post('/api/openapi/v1/acquirer', { ...acquirerBody({ '01': [emvId] }), connExtraParams: inner });
        expect({ status: embedded.status, body: embedded.body }).toEqual({
          status: 400,
          body: { code: 10000, msg: `connExtraParams holds JSON that cannot be taken: ${where} is a number no double holds (a JSON number must be finite, at most about 1.8e308)` },
        });
        const raw = await app.anonymous.post('/api/sdk/v1/activate', `{"activationCode":"123456789012","deviceInfo":${inner}}`);
        expect({ status: raw.status, body: raw.body }).toEqual({
          status: 400,
          body: { code: 10000, msg: `deviceInfo.${where} is a number no double holds (a JSON number must be finite, at most about 1.8e308)` },
        });
      }),
      { numRuns: 10 },
    );
  });

  it('should put security headers and no-store on successes, refusals and framework errors alike', async () => {
    const responses = [
      await client.get('/api/v2/current'),
      await app.anonymous.get('/api/v2/current'),
      await client.post('/api/sdk/v1/activate', { activationCode: '000000000000' }),
      await client.get(`/api/openapi/v1/mchInfo/${'x'.repeat(300)}`),
    ];
    const seen = responses.map((response) => ({
      status: response.status,
      cache: response.headers.get('cache-control'),
      sniff: response.headers.get('x-content-type-options'),
      frame: response.headers.get('x-frame-options'),
      hsts: response.headers.get('strict-transport-security'),
    }));
    expect(seen).toEqual(
      [200, 401, 404, 400].map((status) => ({ status, cache: 'no-store', sniff: 'nosniff', frame: 'SAMEORIGIN', hsts: expect.stringMatching(/^max-age=\d+/) })),
    );
  });
});
