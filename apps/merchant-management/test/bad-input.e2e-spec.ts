import { ApiClient, EnvelopeBody, HttpResponse, queryDatabase } from '@app/testing';
import { acquirerBody, createAcquirer, createEmv, createMerchant, emvBody, merchantBody, MerchantView } from './factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Bad input on every write endpoint of the v1 API: each request carries one defect, and each
 * must answer the `{msg, code}` envelope with code 10000 (never a 500, never Fastify's own
 * `{statusCode, error, message}` body) and write nothing.
 */

const V1 = '/api/openapi/v1';
type Body = Record<string, unknown>;

/** A body over the 1 MiB limit (docs/decisions.md: HTTP 413, code 10000). */
const OVERSIZED_TEXT = 'x'.repeat(1_200_000);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The error envelope, exactly: no `data`, no `statusCode`/`error`, `msg` naming `field` when there is one. */
function expectErrorEnvelope(response: HttpResponse<EnvelopeBody>, status: number, code: number, msg: RegExp = /\S/): void {
  expect({ status: response.status, body: response.body }).toEqual({ status, body: { code, msg: expect.stringMatching(msg) } });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
}

/** `msg` names `field` (not a longer path that starts with it). */
function namesField(field: string): RegExp {
  return new RegExp(`(?<![\\w.\\]])${escapeRegExp(field)}(?![\\w[]|\\.\\w)`);
}

/**
 * `msg` names `field` and does not call a value that was sent missing; for a wrong type, it
 * does not complain about the value's size instead ("a wrong type is reported before a wrong
 * shape", docs/decisions.md).
 */
function namesWrongField(field: string, kind: Kind): RegExp {
  const notSize = kind === 'type' ? '(?!.*\\b(shorter|longer|less|greater) than\\b)' : '';
  return new RegExp(`^(?!.*\\bis required\\b)${notSize}.*${namesField(field).source}`);
}

/** How a case's defect shows in `msg` (docs/decisions.md, "Envelope and errors"). */
type Kind = 'syntax' | 'media' | 'type' | 'missing' | 'unknown' | 'code' | 'size';

interface BadRequest {
  name: string;
  kind: Kind;
  /** The raw body (a string is sent as is) built from a valid one. */
  body: (valid: Body) => unknown;
  headers?: Record<string, string>;
  /** The field `msg` must name. */
  field?: string;
}

function withField(valid: Body, path: string, value: unknown): Body {
  const copy = structuredClone(valid);
  const keys = path.split('.');
  let target: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  if (value === undefined) delete target[keys[keys.length - 1]];
  else target[keys[keys.length - 1]] = value;
  return copy;
}

/** One defect in a field; `path` may go into arrays (`paymentMethods.0.emvs.0.emvId`). */
function fieldCase(kind: Kind, name: string, path: string, value: unknown, field = path.replace(/\.(\d+)/g, '[$1]')): BadRequest {
  return { name, kind, field, body: (valid) => withField(valid, path, value) };
}

const missing = (path: string, field?: string) => fieldCase('missing', `without ${path}`, path, undefined, field);

/** Changes one key of the JSON-encoded `params` string of an EMV body. */
function paramsCase(kind: Kind, name: string, key: string, value: unknown): BadRequest {
  return {
    name,
    kind,
    field: `params.${key}`,
    body: (valid) => {
      const params = JSON.parse(valid.params as string) as Body;
      if (value === undefined) delete params[key];
      else params[key] = value;
      return { ...valid, params: JSON.stringify(params) };
    },
  };
}

/** Defects that every JSON write endpoint must refuse the same way. */
const COMMON_CASES: BadRequest[] = [
  { name: 'malformed JSON', kind: 'syntax', body: () => '{"mchName": ' },
  { name: 'a JSON array body', kind: 'syntax', body: (valid) => JSON.stringify([valid]) },
  { name: 'a JSON string body', kind: 'syntax', body: () => '"mchName"' },
  { name: 'a JSON number body', kind: 'syntax', body: () => '42' },
  { name: 'a JSON null body', kind: 'syntax', body: () => 'null' },
  { name: 'an empty body with content-type json', kind: 'syntax', body: () => '' },
  { name: 'a text/plain body', kind: 'media', body: (valid) => JSON.stringify(valid), headers: { 'content-type': 'text/plain' } },
  { name: 'a form-encoded body', kind: 'media', body: () => 'mchName=Kedai&currency=MYR', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  fieldCase('unknown', 'an unknown field', 'nickname', 'Ali'),
  { name: 'a body over 1 MiB', kind: 'size', body: (valid) => ({ ...valid, contactAddress: OVERSIZED_TEXT }) },
];

const MERCHANT_CASES: BadRequest[] = [
  fieldCase('type', 'a number for a string (mchName)', 'mchName', 42),
  fieldCase('type', 'an object for a string (contactName)', 'contactName', { first: 'Aisyah' }),
  fieldCase('type', 'a boolean for a string (contactEmail)', 'contactEmail', true),
  fieldCase('type', 'an array for a string (region)', 'region', ['central']),
  fieldCase('type', 'a string for a number (state)', 'state', '1'),
  fieldCase('type', 'a boolean for a number (state)', 'state', true),
  fieldCase('type', 'a string for an object (additionalData)', 'additionalData', 'vip'),
  fieldCase('type', 'an array for an object (additionalData)', 'additionalData', ['vip']),
  fieldCase('type', 'a number for a string (passcode)', 'passcode', 123456),
  missing('mchName'),
  missing('currency'),
  missing('contactName'),
  missing('contactEmail'),
  fieldCase('type', 'null for a required string (mchName)', 'mchName', null),
  fieldCase('code', "currency 'ABC'", 'currency', 'ABC'),
  fieldCase('code', "currency 'myr' (lower case)", 'currency', 'myr'),
  fieldCase('code', "country 'ZZ'", 'country', 'ZZ'),
  fieldCase('code', "timeZone 'Mars/Olympus_Mons'", 'timeZone', 'Mars/Olympus_Mons'),
  fieldCase('code', "mcc '58a2'", 'mcc', '58a2'),
  fieldCase('code', 'state 2', 'state', 2),
  fieldCase('code', 'an e-mail without @', 'contactEmail', 'aisyah.example.com'),
  fieldCase('code', 'an over-long mchName', 'mchName', 'K'.repeat(129)),
];

const EMV_CASES: BadRequest[] = [
  fieldCase('type', 'a number for a string (emvName)', 'emvName', 42),
  fieldCase('type', 'a number for a string (paymentMethod)', 'paymentMethod', 1),
  fieldCase('type', 'an object for a string (currency)', 'currency', { code: 'MYR' }),
  fieldCase('type', 'an object for the JSON-encoded params', 'params', { aid: 'A0000000031010' }),
  paramsCase('type', 'a string for a boolean (params.isNewCVMRuleForMC)', 'isNewCVMRuleForMC', 'yes'),
  paramsCase('type', 'a word for a number (params.clFloorLimit)', 'clFloorLimit', 'ten'),
  missing('emvName'),
  missing('paymentMethod'),
  missing('currency'),
  missing('params'),
  paramsCase('missing', 'without params.aid', 'aid', undefined),
  paramsCase('unknown', 'an unknown key in params', 'nickname', 'Ali'),
  fieldCase('code', "currency 'ABC'", 'currency', 'ABC'),
  fieldCase('code', "payment method '09'", 'paymentMethod', '09'),
  fieldCase('code', "payment method 'VISA' (a name, not a code)", 'paymentMethod', 'VISA'),
  fieldCase('code', 'params that are a JSON array', 'params', '[1]'),
  fieldCase('code', 'params that are not JSON', 'params', '{aid:'),
  paramsCase('code', 'an aid that is not hex', 'aid', 'not-an-aid'),
  paramsCase('code', 'a negative limit', 'clTransLimit', -1),
];

/** Cases for the acquirer fields that POST and PUT share (`emvId` is the PBO's EMV config for VISA). */
function acquirerFieldCases(emvId: () => number): BadRequest[] {
  return [
    fieldCase('type', 'a number for a string (profileName)', 'profileName', 42),
    fieldCase('type', 'a string for a boolean (asDefault)', 'asDefault', 'true'),
    fieldCase('type', 'a number for a boolean (asSettleBlock)', 'asSettleBlock', 1),
    fieldCase('type', 'an object for the JSON-encoded methodList', 'methodList', { '01': [] }),
    fieldCase('type', 'an object for the JSON-encoded emvList', 'emvList', { '01': [1] }),
    fieldCase('type', 'an object for a string (connUrl)', 'connUrl', { host: '127.0.0.1' }),
    fieldCase('type', 'a number for a string (connMessageFormat)', 'connMessageFormat', 5),
    fieldCase('type', 'an array for a string (enablerParams)', 'enablerParams', ['acqMid']),
    fieldCase('code', "payment method '09' in methodList", 'methodList', '{"09":[]}'),
    {
      name: "payment method '09' in emvList",
      kind: 'code',
      field: 'emvList',
      body: (valid) => ({ ...valid, emvList: JSON.stringify({ '01': [emvId()], '09': [emvId()] }) }),
    },
    fieldCase('code', 'a methodList that is not JSON', 'methodList', '{"01":'),
    fieldCase('code', 'a methodList that is a JSON array', 'methodList', '["01"]'),
    fieldCase('code', 'an emvList id that is a word', 'emvList', '{"01":["one"]}', 'emvList.01'),
    fieldCase('code', "connMessageFormat 'NOPE'", 'connMessageFormat', 'NOPE'),
    fieldCase('code', "enablerMsgFormat 'SVC_ENABLER'", 'enablerMsgFormat', 'SVC_ENABLER'),
    fieldCase('code', 'an ftp:// connUrl', 'connUrl', 'ftp://acquirer.example'),
    fieldCase('code', 'a connExtraParams that is a JSON array', 'connExtraParams', '[1]'),
  ];
}

function paymentConfigCases(): BadRequest[] {
  return [
    fieldCase('type', 'a number for a string (acquirerProfileId)', 'acquirerProfileId', 42),
    fieldCase('type', 'a number for a string (currency)', 'currency', 458),
    fieldCase('type', 'an object for a string (mid)', 'mid', { value: 'MID1' }),
    fieldCase('type', 'an object for an array (paymentMethods)', 'paymentMethods', { paymentMethodCode: '01' }),
    fieldCase('type', 'a string for an array (paymentMethods)', 'paymentMethods', '01'),
    fieldCase('type', 'a string for an object (paymentMethods[0])', 'paymentMethods.0', '01'),
    fieldCase('type', 'a number for a string (paymentMethodCode)', 'paymentMethods.0.paymentMethodCode', 1),
    fieldCase('type', 'a string for an array (allows)', 'paymentMethods.0.allows', 'SALE'),
    fieldCase('type', 'an object for an array (emvs)', 'paymentMethods.0.emvs', { emvId: 1 }),
    fieldCase('type', 'a string for a number (emvId)', 'paymentMethods.0.emvs.0.emvId', '1'),
    fieldCase('type', 'a fraction for an integer (emvId)', 'paymentMethods.0.emvs.0.emvId', 1.5),
    missing('acquirerProfileId'),
    missing('currency'),
    missing('paymentMethods.0.paymentMethodCode'),
    missing('paymentMethods.0.emvs.0.emvId'),
    fieldCase('unknown', 'an unknown field in a payment method', 'paymentMethods.0.nickname', 'Ali'),
    fieldCase('unknown', 'an unknown field in an EMV reference', 'paymentMethods.0.emvs.0.emvName', 'visa'),
    fieldCase('code', "currency 'ABC'", 'currency', 'ABC'),
    fieldCase('code', "payment method '09'", 'paymentMethods.0.paymentMethodCode', '09'),
    fieldCase('code', "an acquirerProfileId 'abc'", 'acquirerProfileId', 'abc'),
    fieldCase('code', 'an empty paymentMethods list', 'paymentMethods', []),
    fieldCase('code', 'a mid with a slash', 'mid', 'MID/1'),
    fieldCase('code', 'an emvId of 0', 'paymentMethods.0.emvs.0.emvId', 0),
  ];
}

interface WriteEndpoint {
  name: string;
  method: 'POST' | 'PUT';
  path: () => string;
  client: () => ApiClient;
  valid: () => Body;
  cases: BadRequest[];
}

/** What `msg` must look like for a case. */
function expectedMessage(request: BadRequest): RegExp {
  // No field to name: the message says what the body should have been.
  if (request.kind === 'syntax') return /json|media type|content.type/i;
  // Never the Content-Type the client sent.
  if (request.kind === 'media') return /^the request body must be JSON, sent with Content-Type: application\/json$/;
  if (request.kind === 'size') return /\S/;
  if (!request.field) throw new Error(`case ${request.name} names no field`);
  if (request.kind === 'missing') return new RegExp(`^${escapeRegExp(request.field)} is required`);
  if (request.kind === 'unknown') return new RegExp(`^${escapeRegExp(request.field)} is not an accepted field`);
  return namesWrongField(request.field, request.kind);
}

type TableRows = Record<string, Record<string, unknown>[]>;

/** Every row of the merchant_management tables that belongs to one PBO. */
async function rowsOf(databaseUrl: string, groupId: string): Promise<TableRows> {
  const queries: Record<string, string> = {
    emv_config: 'SELECT * FROM merchant_management.emv_config WHERE group_id = $1 ORDER BY id',
    acquirer_profile: 'SELECT * FROM merchant_management.acquirer_profile WHERE group_id = $1 ORDER BY id',
    acquirer_profile_emv:
      'SELECT e.* FROM merchant_management.acquirer_profile_emv e JOIN merchant_management.acquirer_profile p ON p.id = e.profile_id WHERE p.group_id = $1 ORDER BY e.profile_id, e.payment_method, e.emv_id',
    merchant: 'SELECT * FROM merchant_management.merchant WHERE group_id = $1 ORDER BY mch_id',
    payment_binding: 'SELECT * FROM merchant_management.payment_binding WHERE group_id = $1 ORDER BY id',
    payment_method_binding:
      'SELECT b.* FROM merchant_management.payment_method_binding b JOIN merchant_management.merchant m ON m.uuid = b.merchant_uuid WHERE m.group_id = $1 ORDER BY b.id',
    payment_method_emv:
      'SELECT e.* FROM merchant_management.payment_method_emv e JOIN merchant_management.payment_method_binding b ON b.id = e.method_id JOIN merchant_management.merchant m ON m.uuid = b.merchant_uuid WHERE m.group_id = $1 ORDER BY e.method_id, e.emv_id',
  };
  const rows: TableRows = {};
  for (const [table, sql] of Object.entries(queries)) rows[table] = await queryDatabase(databaseUrl, sql, [groupId]);
  return rows;
}

describe('bad input on the v1 write endpoints', () => {
  let app: MerchantManagementTestApp;
  /** Its creates are all refused: it ends with nothing but the EMV config its acquirer bodies need. */
  let creator: ApiClient & { groupId: string };
  let creatorEmvId: number;
  /** Owns one object of each kind, which the PUTs and payment-config POSTs aim at. */
  let owner: ApiClient & { groupId: string };
  let ownerEmvId: number;
  let ownerProfileId: number;
  let ownerMerchant: MerchantView;
  let ownerRowsBefore: TableRows;

  const paymentConfigBody = (): Body => ({
    acquirerProfileId: String(ownerProfileId),
    currency: 'MYR',
    mid: 'MID0001',
    paymentMethods: [{ paymentMethodCode: '01', allows: [], emvs: [{ emvId: ownerEmvId }] }],
  });

  const endpoints: WriteEndpoint[] = [
    { name: 'POST /mchInfo', method: 'POST', path: () => `${V1}/mchInfo`, client: () => creator, valid: () => merchantBody(), cases: MERCHANT_CASES },
    {
      name: 'PUT /mchInfo/{mchId}',
      method: 'PUT',
      path: () => `${V1}/mchInfo/${ownerMerchant.mchId}`,
      client: () => owner,
      valid: () => merchantBody(),
      cases: MERCHANT_CASES,
    },
    { name: 'POST /emv', method: 'POST', path: () => `${V1}/emv`, client: () => creator, valid: () => emvBody(), cases: EMV_CASES },
    { name: 'PUT /emv/{id}', method: 'PUT', path: () => `${V1}/emv/${ownerEmvId}`, client: () => owner, valid: () => emvBody(), cases: EMV_CASES },
    {
      name: 'POST /acquirer',
      method: 'POST',
      path: () => `${V1}/acquirer`,
      client: () => creator,
      valid: () => acquirerBody({ '01': [creatorEmvId] }),
      cases: [
        ...acquirerFieldCases(() => creatorEmvId),
        missing('profileName'),
        missing('currency'),
        missing('connMessageFormat'),
        missing('methodList'),
        missing('emvList'),
        fieldCase('code', "currency 'ABC'", 'currency', 'ABC'),
        fieldCase('code', "acqType 'debit'", 'acqType', 'debit'),
        fieldCase('code', 'a methodList key without an EMV id', 'methodList', '{"01":[],"02":[]}', 'emvList'),
      ],
    },
    {
      name: 'PUT /acquirer/{profileId}',
      method: 'PUT',
      path: () => `${V1}/acquirer/${ownerProfileId}`,
      client: () => owner,
      valid: () => acquirerBody({ '01': [ownerEmvId] }),
      cases: [
        ...acquirerFieldCases(() => ownerEmvId),
        fieldCase('code', "currency 'ABC' (immutable)", 'currency', 'ABC'),
        fieldCase('code', "acqType 'qr' (immutable)", 'acqType', 'qr'),
        fieldCase('code', 'an empty methodList', 'methodList', '{}'),
      ],
    },
    {
      name: 'POST /mchInfo/payment/{mchId}',
      method: 'POST',
      path: () => `${V1}/mchInfo/payment/${ownerMerchant.mchId}`,
      client: () => owner,
      valid: paymentConfigBody,
      cases: paymentConfigCases(),
    },
    {
      name: 'PUT /mchInfo/payment/{mchId}',
      method: 'PUT',
      path: () => `${V1}/mchInfo/payment/${ownerMerchant.mchId}`,
      client: () => owner,
      valid: paymentConfigBody,
      cases: paymentConfigCases(),
    },
  ];

  beforeAll(async () => {
    app = await startMerchantManagement();
    creator = await app.newPbo();
    creatorEmvId = await createEmv(creator, { paymentMethod: '01' });
    owner = await app.newPbo();
    ownerEmvId = await createEmv(owner, { paymentMethod: '01' });
    ownerProfileId = await createAcquirer(owner, { '01': [ownerEmvId] });
    ownerMerchant = await createMerchant(owner);
    // The valid bodies are accepted, so that each refusal below comes from its one defect.
    for (const endpoint of endpoints.filter((e) => e.client() === owner)) {
      dataOf(await owner.request(endpoint.method, endpoint.path(), endpoint.valid()));
    }
    ownerRowsBefore = await rowsOf(app.database.url, owner.groupId);
  });
  afterAll(() => app.close());

  describe.each(endpoints)('$name', (endpoint) => {
    it.each([...COMMON_CASES, ...endpoint.cases])('should refuse $name with code 10000', async (request) => {
      const response = await endpoint.client().request(endpoint.method, endpoint.path(), request.body(endpoint.valid()), request.headers);
      expectErrorEnvelope(response, request.kind === 'size' ? 413 : request.kind === 'media' ? 415 : 400, 10000, expectedMessage(request));
    });
  });

  describe('content types', () => {
    it('should not create a merchant from a complete form-encoded body', async () => {
      const pbo = await app.newPbo();
      const form = new URLSearchParams(merchantBody() as Record<string, string>).toString();
      const response = await pbo.request('POST', `${V1}/mchInfo`, form, { 'content-type': 'application/x-www-form-urlencoded' });
      expectErrorEnvelope(response, 415, 10000, /^the request body must be JSON/);
      expect((await rowsOf(app.database.url, pbo.groupId)).merchant).toEqual([]);
    });
  });

  describe('list query parameters', () => {
    const lists: [string, () => string][] = [
      ['GET /mchInfo', () => `${V1}/mchInfo`],
      ['GET /acquirer', () => `${V1}/acquirer`],
      ['GET /emv', () => `${V1}/emv`],
      ['GET /mchInfo/payment/{mchId}', () => `${V1}/mchInfo/payment/${ownerMerchant.mchId}`],
    ];
    const badQueries: [string, string][] = [
      ['pageNumber=0', 'pageNumber'],
      ['pageNumber=-1', 'pageNumber'],
      ['pageNumber=1.5', 'pageNumber'],
      ['pageSize=-2', 'pageSize'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=x', 'pageSize'],
      ['pageSize=1001', 'pageSize'],
      ['pageSize=1&pageSize=2', 'pageSize'],
      ['colour=red', 'colour'],
    ];
    const table = lists.flatMap(([list, path]) => badQueries.map(([query, field]) => ({ list, path, query, field })));

    it.each(table)('should refuse $list?$query with code 10000 naming $field', async ({ path, query, field }) => {
      const response = await owner.get(`${path()}?${query}`);
      expectErrorEnvelope(response, 400, 10000, namesField(field));
    });

    it.each(lists)('should accept %s?pageSize=-1', async (_list, path) => {
      const response = await owner.get(`${path()}?pageSize=-1`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ code: 0, data: { current: 1, hasNext: false } });
    });

    it.each([
      ['GET /mchInfo?uuid=not-a-uuid', () => `${V1}/mchInfo?uuid=not-a-uuid`, 'uuid'],
      ['GET /emv?paymentMethod=09', () => `${V1}/emv?paymentMethod=09`, 'paymentMethod'],
    ])('should refuse the filter %s with code 10000', async (_name, path, field) => {
      expectErrorEnvelope(await owner.get(path()), 400, 10000, namesField(field));
    });

    it.each([
      ['without acquirerProfileId', 'currency=MYR', 'acquirerProfileId'],
      ['without currency', () => `acquirerProfileId=${ownerProfileId}`, 'currency'],
      ["with currency 'ABC'", () => `acquirerProfileId=${ownerProfileId}&currency=ABC`, 'currency'],
      ["with acquirerProfileId 'abc'", 'acquirerProfileId=abc&currency=MYR', 'acquirerProfileId'],
      ['with an unknown parameter', () => `acquirerProfileId=${ownerProfileId}&currency=MYR&colour=red`, 'colour'],
    ])('should refuse DELETE /mchInfo/payment/{mchId} %s with code 10000', async (_name, query, field) => {
      const response = await owner.delete(`${V1}/mchInfo/payment/${ownerMerchant.mchId}?${typeof query === 'string' ? query : query()}`);
      expectErrorEnvelope(response, 400, 10000, namesField(field));
    });
  });

  describe('routes', () => {
    it.each([
      ['GET', `${V1}/nothing-here`],
      ['POST', `${V1}/nothing-here`],
      ['GET', '/api/openapi/v2/mchInfo'],
      ['GET', '/'],
    ])('should answer an unknown route %s %s with 404 and code 14000', async (method, path) => {
      expectErrorEnvelope(await owner.request(method, path), 404, 14000);
    });

    it('should answer an unknown route without a token in the envelope too', async () => {
      expectErrorEnvelope(await app.anonymous.get(`${V1}/nothing-here`), 404, 14000);
    });

    it.each([
      ['PATCH', () => `${V1}/mchInfo/${ownerMerchant.mchId}`],
      ['DELETE', () => `${V1}/mchInfo`],
      ['PUT', () => `${V1}/acquirer`],
      ['POST', () => `${V1}/emv/${ownerEmvId}`],
      ['PATCH', () => `${V1}/mchInfo/payment/${ownerMerchant.mchId}`],
    ])('should answer %s on a path without that method in the envelope', async (method, path) => {
      const response = await owner.request(method, path(), method === 'DELETE' ? undefined : {});
      expect(typeof response.body).toBe('object');
      const body = response.body;
      expect([
        [404, 14000],
        [405, 10000],
      ]).toContainEqual([response.status, body.code]);
      expect(Object.keys(body).sort()).toEqual(['code', 'msg']);
    });

    it.each([
      ['GET', () => `${V1}/emv/abc`],
      ['PUT', () => `${V1}/emv/1e3`],
      ['GET', () => `${V1}/acquirer/-1`],
      ['DELETE', () => `${V1}/acquirer/99999999999999999999`],
      ['GET', () => `${V1}/mchInfo/not-a-merchant`],
    ])('should answer %s on a path id that cannot be an id with 404 and code 14000', async (method, path) => {
      const response = await owner.request(method, path(), method === 'PUT' ? emvBody() : undefined);
      expectErrorEnvelope(response, 404, 14000);
    });
  });

  describe('afterwards', () => {
    it('should have written nothing for the PBO whose creates were all refused', async () => {
      const rows = await rowsOf(app.database.url, creator.groupId);
      expect(rows.emv_config.map((row) => row.id)).toEqual([creatorEmvId]);
      expect({ ...rows, emv_config: [] }).toEqual({
        emv_config: [],
        acquirer_profile: [],
        acquirer_profile_emv: [],
        merchant: [],
        payment_binding: [],
        payment_method_binding: [],
        payment_method_emv: [],
      });
    });

    it('should have left every row of the PBO whose objects were updated unchanged', async () => {
      expect(await rowsOf(app.database.url, owner.groupId)).toEqual(ownerRowsBefore);
    });
  });
});
