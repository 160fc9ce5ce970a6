import { signDeviceToken, signPboToken } from '@app/common';
import { testCardEmv } from '@app/host-protocol';
import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { ApiClient, gatewayBase, startTestApp, TEST_AUTH, TestApp, unique } from '@app/testing';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PboService } from '../apps/merchant-management/src';
import { StandaloneModule } from '../apps/standalone/src';

const GATEWAY_BASE = gatewayBase(DEFAULT_GATEWAY_NAMESPACE);
const UNKNOWN_TRANSACTION = 'tran_AAAAAAAAAAAAAAAAAAAAAA';

/** Every route that reads Idempotency-Key, as its caller sends it: a valid body, an unknown object (so an accepted key is answered 404). */
const ROUTES = [
  {
    route: 'gateway sale',
    token: 'device',
    path: `${GATEWAY_BASE}/transaction`,
    body: {
      profileId: 'prof_unknown',
      tranType: 'SALE',
      amount: { value: '1.00', currency: 'MYR' },
      emvData: testCardEmv({ card: 'visa', amountMinor: '100', currencyNumeric: '458', countryNumeric: '458', date: new Date() }),
    },
  },
  { route: 'gateway void', token: 'pbo', path: `${GATEWAY_BASE}/transaction/${UNKNOWN_TRANSACTION}/void`, body: undefined },
  { route: 'gateway refund', token: 'pbo', path: `${GATEWAY_BASE}/transaction/${UNKNOWN_TRANSACTION}/refund`, body: { amount: '1.00' } },
  { route: 'gateway capture', token: 'pbo', path: `${GATEWAY_BASE}/transaction/${UNKNOWN_TRANSACTION}/capture`, body: undefined },
  { route: 'legacy void', token: 'pbo', path: `/api/v2/order/void/${UNKNOWN_TRANSACTION}`, body: { adminPwd: 'Till-Admin-2468' } },
  {
    route: 'legacy refund',
    token: 'pbo',
    path: `/api/v2/order/refund/${UNKNOWN_TRANSACTION}`,
    body: { refundAmount: 1, refundReason: 'r', adminPwd: 'Till-Admin-2468' },
  },
  { route: 'legacy capture', token: 'pbo', path: `/api/v2/order/capture/${UNKNOWN_TRANSACTION}`, body: {} },
] as const;

/** The rule as docs/decisions.md states it, written here apart from the code's pattern: 1 to 64 of letters, digits, _ and -. */
const KEY_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
function keyIsValid(key: string): boolean {
  return key.length >= 1 && key.length <= 64 && [...key].every((character) => KEY_CHARACTERS.includes(character));
}

/** What a caller reads of a refusal: the problem's detail (gateway) or the envelope's msg (legacy). */
function messageOf(body: unknown): string | undefined {
  const shown = body as { detail?: string; msg?: string } | null;
  return shown?.detail ?? shown?.msg;
}

/** Keys near the rule's edges: valid ones, too long ones, empty, and ones with a character outside it (all sendable as a header value). */
const keys: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  fc.stringMatching(/^[A-Za-z0-9_-]{60,70}$/),
  fc.constant(''),
  fc
    .tuple(
      fc.stringMatching(/^[A-Za-z0-9_-]{0,40}$/),
      fc.string({ unit: fc.constantFrom(...'!"#$%&\'()*+,./:;<=>?@[\\]^`{|}~'), minLength: 1, maxLength: 3 }),
      fc.stringMatching(/^[A-Za-z0-9_-]{0,20}$/),
    )
    .map(([before, other, after]) => `${before}${other}${after}`),
);

/**
 * One Idempotency-Key rule (issue 13): the gateway's sale, its void, refund and capture, and the
 * legacy /api/v2/order void, refund and capture take and refuse the same keys. Each route is asked
 * about an object that does not exist: an accepted key gets that route's 404, a refused one its
 * 400 naming the rule, before anything else is looked at. The OpenAPI documents state the rule on
 * each of these operations with the same schema.
 */
describe('Idempotency-Key: one rule on every route that reads it', () => {
  let app: TestApp;
  let pboToken: string;
  let deviceToken: string;

  beforeAll(async () => {
    app = await startTestApp((options) => StandaloneModule.register(options), { groups: 'merchant-management' });
    const pbo = await app.app.get(PboService).create({ name: unique('PBO ') });
    pboToken = await signPboToken(TEST_AUTH, pbo.groupId, 3600);
    deviceToken = await signDeviceToken(TEST_AUTH, { deviceId: 'SDK01', groupId: pbo.groupId, profileId: 'prof_unknown' }, 3600);
  });

  afterAll(() => app?.close());

  it('should accept and refuse the same generated keys alike on every route', async () => {
    await fc.assert(
      fc.asyncProperty(keys, async (key) => {
        const valid = keyIsValid(key);
        for (const route of ROUTES) {
          const client = new ApiClient(app.baseUrl, route.token === 'pbo' ? pboToken : deviceToken);
          const response = await client.request('POST', route.path, route.body, { 'idempotency-key': key });
          const seen = { route: route.route, status: response.status, message: messageOf(response.body) };

          expect(seen).toEqual(
            valid
              ? { route: route.route, status: 404, message: expect.not.stringContaining('Idempotency-Key') as unknown }
              : { route: route.route, status: 400, message: 'Idempotency-Key must be 1 to 64 letters, digits, _ or -' },
          );
        }
      }),
      { numRuns: 40 },
    );
  });

  it('should document the rule on each of these operations with one schema', () => {
    const documents = {
      'payment-gateway': JSON.parse(readFileSync(join(__dirname, '../docs/openapi/payment-gateway.json'), 'utf8')) as OpenApiDocument,
      transactions: JSON.parse(readFileSync(join(__dirname, '../docs/openapi/transactions.json'), 'utf8')) as OpenApiDocument,
    };
    const operations: Array<[keyof typeof documents, string]> = [
      ['payment-gateway', '/{namespace}/api/v1/transaction'],
      ...(['void', 'refund', 'capture'] as const).map((kind): [keyof typeof documents, string] => [
        'payment-gateway',
        `/{namespace}/api/v1/transaction/{tranId}/${kind}`,
      ]),
      ...(['void', 'refund', 'capture'] as const).map((kind): [keyof typeof documents, string] => ['transactions', `/api/v2/order/${kind}/{transactionId}`]),
    ];

    for (const [document, path] of operations) {
      const parameters = documents[document].paths[path].post.parameters.filter(
        (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key',
      );
      expect({ path, parameters: parameters.map(({ required, schema }) => ({ required, schema })) }).toEqual({
        path,
        parameters: [{ required: false, schema: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]{1,64}$' } }],
      });
    }
  });
});

interface OpenApiDocument {
  paths: Record<string, { post: { parameters: Array<{ in: string; name: string; required?: boolean; schema?: unknown }> } }>;
}
