import { DEFAULT_BODY_VALUES } from '@app/common';
import { ApiClient, EnvelopeBody, HttpResponse, queryDatabase } from '@app/testing';
import fc from 'fast-check';
import { acquirerBody, createEmv, emvBody, merchantBody } from './factories';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Hostile input at the edge (issue 14, classes 1 and 2): bodies that nest deep, hold too many
 * values, or carry text PostgreSQL and the validators cannot take (a NUL character, a lone
 * surrogate) in a body field, a field name, a path parameter or a query value. Each is refused
 * with the 400 envelope naming where it was, before validation, and nothing is written.
 */

const V1 = '/api/openapi/v1';

/** Text that must be refused, and the words the refusal uses for it. */
const hostileText = fc.oneof(
  fc.constant({ char: '\u0000', says: 'must not contain a NUL character' }),
  fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff').map((char) => ({ char, says: 'must be valid Unicode text (it has a lone surrogate)' })),
);

/** `text` with `char` put at a position drawn in 0..length. */
const withCharIn = (text: string) => fc.tuple(hostileText, fc.nat({ max: text.length })).map(([hostile, at]) => ({ ...hostile, text: `${text.slice(0, at)}${hostile.char}${text.slice(at)}` }));

function expectRefusal(response: HttpResponse<EnvelopeBody>, msg: string): void {
  expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { code: 10000, msg } });
}

describe('merchant-management: hostile text and shapes are refused at the edge', () => {
  let app: MerchantManagementTestApp;
  let client: ApiClient & { groupId: string };
  const merchantCount = async () => Number((await queryDatabase<{ n: string }>(app.database.url, `SELECT count(*) AS n FROM merchant_management.merchant WHERE group_id = $1`, [client.groupId]))[0].n);

  beforeAll(async () => {
    app = await startMerchantManagement();
    client = await app.newPbo();
  });

  afterAll(() => app.close());

  it('should refuse a NUL or a lone surrogate anywhere in any string field of a body, naming the field, and write nothing', async () => {
    const fields = ['mchName', 'contactName', 'contactEmail', 'contactAddress', 'contactPhone', 'providerReference'] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), fc.string({ maxLength: 20 }), async (field, base) => {
        const valid = merchantBody({ contactAddress: '1 Jalan Ampang', contactPhone: '+60312345678', providerReference: 'ref-1' });
        const hostile = fc.sample(withCharIn(base || String(valid[field as keyof typeof valid] ?? 'x')), 1)[0];
        const before = await merchantCount();

        const response = await client.post(`${V1}/mchInfo`, { ...valid, [field]: hostile.text });

        expectRefusal(response, `${field} ${hostile.says}`);
        expect(await merchantCount()).toBe(before);
      }),
      { numRuns: 25 },
    );
  });

  it('should refuse hostile text nested in objects and arrays with its path, and in a field name', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, fc.nat({ max: 3 }), async (hostile, index) => {
        const tags = ['a', 'b', 'c', 'd'];
        tags[index] = `x${hostile.char}`;

        const nested = await client.post(`${V1}/mchInfo`, merchantBody({ additionalData: { loyalty: { tags } } }));
        expectRefusal(nested, `additionalData.loyalty.tags.${index} ${hostile.says}`);

        const named = await client.post(`${V1}/mchInfo`, { ...merchantBody(), [`nick${hostile.char}name`]: 'Ali' });
        expectRefusal(named, `a field name ${hostile.says}`);
      }),
      { numRuns: 10 },
    );
  });

  it('should hold JSON carried inside a string field (EMV params, methodList, connExtraParams) to the body rules: a 400 naming the field, never a 500, nothing written', async () => {
    const visa = await createEmv(client, { paymentMethod: '01' });
    const rows = async () => Number((await queryDatabase<{ n: string }>(app.database.url, `SELECT (SELECT count(*) FROM merchant_management.emv_config) + (SELECT count(*) FROM merchant_management.acquirer_profile) AS n`))[0].n);
    // Text the outer body carries safely (JSON escapes), which turns hostile once the field's own JSON is parsed.
    const hostileJson = fc.oneof(
      hostileText.map((hostile) => ({ json: (inner: string) => JSON.stringify({ [inner]: `a${hostile.char}b` }), says: hostile.says })),
      fc.integer({ min: 40, max: 1500 }).map((depth) => ({ json: (inner: string) => `{"${inner}":${'['.repeat(depth)}${']'.repeat(depth)}}`, says: 'nests deeper than' })),
    );
    const cases = [
      { field: 'params', path: `${V1}/emv`, body: (text: string) => ({ ...emvBody(), params: text }), inner: 'appVersion' },
      { field: 'connExtraParams', path: `${V1}/acquirer`, body: (text: string) => acquirerBody({ '01': [visa] }, { connExtraParams: text }), inner: 'k' },
      { field: 'methodList', path: `${V1}/acquirer`, body: (text: string) => acquirerBody({ '01': [visa] }, { methodList: text }), inner: '01' },
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), hostileJson, async (target, hostile) => {
        const before = await rows();
        const response = await client.post(target.path, target.body(hostile.json(target.inner)));
        expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code: 10000 });
        expect(response.body.msg).toMatch(new RegExp(`^${target.field} `));
        expect(response.body.msg).toContain(hostile.says);
        expect(await rows()).toBe(before);
      }),
      { numRuns: 30 },
    );
  });

  it('should refuse a NUL in a path parameter or a query value, naming it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme-ascii', maxLength: 8 }), fc.string({ unit: 'grapheme-ascii', maxLength: 8 }), async (before, after) => {
        const text = `${encodeURIComponent(before)}%00${encodeURIComponent(after)}`;
        expectRefusal(await client.get(`${V1}/mchInfo/M${text}`), 'mchId must not contain a NUL character');
        expectRefusal(await client.get(`${V1}/mchInfo?mchName=${text}`), 'mchName must not contain a NUL character');
      }),
      { numRuns: 10 },
    );
  });

  it('should answer a URL that cannot be decoded, or an over-long path parameter, in the envelope without echoing the URL', async () => {
    // Percent-encoded UTF-8 of a lone surrogate (ED A0 80) is no UTF-8 at all.
    expectRefusal(await client.get(`${V1}/mchInfo/M%ED%A0%80secret`), 'the URL has a percent-escape that is not UTF-8');
    expectRefusal(await client.get(`${V1}/mchInfo/M${'x'.repeat(300)}`), 'a path parameter is longer than 256 characters');
    // Query values are decoded leniently (replacement characters), which is text like any other.
    expect((await client.get(`${V1}/mchInfo?mchName=K%ED%A0%80`)).status).toBe(200);
  });

  it(`should refuse a body nested deeper than 32 levels at once, however deep, and one that holds more than ${DEFAULT_BODY_VALUES} values`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 33, max: 200_000 }), async (depth) => {
        const body = `{"mchName":"K","currency":"MYR","contactName":"A","contactEmail":"a@b.co","additionalData":${'['.repeat(depth)}${']'.repeat(depth)}}`;
        expectRefusal(await client.post(`${V1}/mchInfo`, body), 'the request body nests deeper than 32 levels');
      }),
      { numRuns: 6 },
    );
    const wide = await client.post(`${V1}/mchInfo`, merchantBody({ additionalData: { values: Array.from({ length: DEFAULT_BODY_VALUES + 1 }, (_, i) => i) } }));
    expectRefusal(wide, `the request body holds more than ${DEFAULT_BODY_VALUES} values`);
  });

  it('should still accept a body with text from every Unicode plane (surrogate pairs are characters)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), async (text) => {
        const response = await client.post(`${V1}/mchInfo`, merchantBody({ contactAddress: text }));
        expect(response.status).toBe(200);
      }),
      { numRuns: 10 },
    );
  });
});
