import { EnvelopeBody, HttpResponse, unique } from '@app/testing';
import { DataSource } from 'typeorm';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquirerBody, createCardAcquirer, createEmv, createMerchant, dataOf, emvBody, merchantBody } from './factories';
import { MerchantManagementTestApp, startMerchantManagement } from './support';
import { Body, CreatedCode, Pbo, V1, VISA_AID } from './device-support';

/**
 * Explicit null and wrong JSON types (issue 14, class 3) in every field of every write body of
 * merchant-management, as the committed OpenAPI document lists them (nested fields included):
 * never a 5xx, always the envelope; null on a required field is a 400 naming it, null on an
 * optional one clears it; and a refusal leaves every row of the context as it was.
 */

interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
}
interface OpenApi {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
}

const DOCUMENT = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi/merchant-management.json'), 'utf8')) as OpenApi;
const resolve = (schema: Schema): Schema => (schema.$ref ? DOCUMENT.components.schemas[schema.$ref.split('/').pop()!] : schema);

/** A field of a body: its path (array items as index 0) and whether the shape requires it. */
interface Field {
  path: (string | number)[];
  required: boolean;
}

/** Every field of a request schema, nested objects and the first item of arrays of objects included. */
function fieldsOf(schema: Schema, prefix: (string | number)[] = []): Field[] {
  const resolved = resolve(schema);
  return Object.entries(resolved.properties ?? {}).flatMap(([name, property]) => {
    const path = [...prefix, name];
    const field = { path, required: (resolved.required ?? []).includes(name) };
    const inner = resolve(property);
    if (inner.properties) return [field, ...fieldsOf(inner, path)];
    if (inner.type === 'array' && inner.items && resolve(inner.items).properties) return [field, ...fieldsOf(inner.items, [...path, 0])];
    return [field];
  });
}

/** Write operations of the document: method, path template and the fields of their body. */
const OPERATIONS = Object.entries(DOCUMENT.paths).flatMap(([path, operations]) =>
  Object.entries(operations)
    .filter(([, operation]) => operation.requestBody)
    .map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      fields: fieldsOf(operation.requestBody!.content['application/json'].schema),
    })),
);

/**
 * Fields a partial update (every field optional in its schema) may not clear: those the object
 * cannot be without (docs/decisions.md). The full shapes say it with `required`.
 */
const REQUIRED_IN_PARTIAL: Record<string, string[]> = {
  'PUT /api/openapi/v1/acquirer/{profileId}': [
    'profileName',
    'currency',
    'acqType',
    'connMessageFormat',
    'methodList',
    'emvList',
    'asDefault',
    'asSettleBlock',
  ],
  'PUT /api/v2/acquirer/{profileId}': [
    'profileName',
    'currency',
    'acqType',
    'connMessageFormat',
    'methodList',
    'emvList',
    'asDefault',
    'asSettleBlock',
    'groupId',
  ],
  'PUT /api/v2/mchInfo/{mchId}': ['mchName', 'currency', 'contactName', 'contactEmail', 'groupId'],
  'PUT /api/openapi/v1/device/{deviceId}': [],
  'PUT /api/v2/device/{deviceId}': ['groupId'],
};

/** Values of every JSON type but null (which the test before sends to every field). */
const wrongValue = fc.oneof(
  { arbitrary: fc.integer({ min: -1000, max: 1_000_000 }), weight: 1 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
  { arbitrary: fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null)), { maxLength: 3 }), weight: 1 },
  {
    arbitrary: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null)), { maxKeys: 3 }),
    weight: 1,
  },
);

function withValue(body: Body, path: (string | number)[], value: unknown): Body {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let target = copy;
  for (const step of path.slice(0, -1)) {
    // A nested path below a field the base body leaves out: build the container (a list's item 0 included).
    target[step] ??= typeof path[path.indexOf(step) + 1] === 'number' ? [] : {};
    target = target[step] as Record<string | number, unknown>;
  }
  target[path[path.length - 1]] = value;
  return copy as Body;
}

const name = (path: (string | number)[]) => path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');

/** The merchant's optional profile fields (passcode apart: omitted keeps it). */
const MERCHANT_OPTIONAL = [
  'mcc',
  'region',
  'timeZone',
  'country',
  'transType',
  'contactPhone',
  'contactAddress',
  'receiptLogo',
  'receiptInfo',
  'state',
  'providerReference',
  'mdr',
  'merchantType',
  'additionalData',
];

/** Rows that change on a refusal by design: failed activations are counted against the caller's address. */
const COUNTERS = new Set(['activation_throttle', 'device_admin_throttle']);

describe('merchant-management: null and wrong JSON types in every field of every write body', () => {
  let app: MerchantManagementTestApp;
  let pbo: Pbo;
  let bodies: Record<string, () => Body>;
  let ids: Record<string, string>;

  let database: DataSource;
  let snapshotSql: string;
  /** Every row of the context's tables (the counters excepted), in one statement. */
  const rows = async (): Promise<Record<string, string[]>> =>
    Object.fromEntries(((await database.query(snapshotSql)) as { t: string; rows: string[] }[]).map((r) => [r.t, r.rows]));

  beforeAll(async () => {
    app = await startMerchantManagement();
    pbo = await app.newPbo();
    database = await new DataSource({ type: 'postgres', url: app.database.url }).initialize();
    const tables = (
      (await database.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'merchant_management' AND table_type = 'BASE TABLE'`)) as {
        table_name: string;
      }[]
    )
      .map((row) => row.table_name)
      .filter((table) => !COUNTERS.has(table));
    snapshotSql = tables
      // The outbox relay marks rows published in the background: what was queued is what counts.
      .map((table) => [table, table === 'outbox' ? "json_build_object('id', x.id, 'subject', x.subject, 'payload', x.payload)::text" : 'row_to_json(x)::text'])
      .map(([table, row]) => `SELECT '${table}' AS t, coalesce((SELECT array_agg(${row} ORDER BY ${row}) FROM merchant_management."${table}" x), '{}') AS rows`)
      .join(' UNION ALL ');
    const acquirer = await createCardAcquirer(pbo, ['01', '02']);
    const visa = acquirer.emvs['01'][0];
    const spareEmv = await createEmv(pbo, { paymentMethod: '01' });
    const merchant = await createMerchant(pbo, { country: 'MY' });
    dataOf(await pbo.post(`${V1}/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirer.id), currency: 'MYR' }));
    const device = dataOf<CreatedCode>(await pbo.post(`${V1}/device`, { mchId: merchant.mchId, deviceAlias: 'Till 1' }));
    const acquirerName = dataOf<{ profileName: string }>(await pbo.get(`${V1}/acquirer/${acquirer.id}`)).profileName;
    ids = { emvId: String(spareEmv), profileId: String(acquirer.id), mchId: merchant.mchId, deviceId: device.id };

    const merchantFields = () => ({
      ...merchantBody(),
      mcc: '5812',
      region: 'Selangor',
      timeZone: 'Asia/Kuala_Lumpur',
      country: 'MY',
      transType: 'SALE',
      contactPhone: '+60312345678',
      contactAddress: '1 Jalan Ampang',
      receiptLogo: 'https://logo.example/kedai.png',
      receiptInfo: 'Terima kasih',
      state: 1,
      providerReference: unique('ref-'),
      passcode: '123456',
      mdr: '1.5',
      merchantType: 'retail',
      additionalData: { loyalty: true },
    });
    const emvs = { '01': [visa], '02': acquirer.emvs['02'] };
    const acquirerFields = {
      connUrl: 'tcp://127.0.0.1:5000',
      notifyUrl: 'https://notify.example/cb',
      enablerMsgFormat: 'MOCK',
      asDefault: false,
      asSettleBlock: false,
    };
    const binding = {
      acquirerProfileId: String(acquirer.id),
      currency: 'MYR',
      mid: 'MID1',
      paymentMethods: [{ paymentMethodCode: '01', allows: [], emvs: [{ emvId: visa }] }],
    };
    const legacyEmvParams = { aid: VISA_AID, appVersion: '0096', clFloorLimit: 0, clTransLimit: 500000, clCVMLimit: 25000 };
    const extParams = { acquirers: { [acquirer.id]: { acqMid: 'MID1', acqTid: 'TID1' } } };
    bodies = {
      'POST /api/openapi/v1/emv': () => emvBody(),
      'PUT /api/openapi/v1/emv/{emvId}': () => emvBody(),
      'POST /api/openapi/v1/acquirer': () => acquirerBody(emvs, { ...acquirerFields, connExtraParams: '{"x":1}', acqType: 'card' }),
      'PUT /api/openapi/v1/acquirer/{profileId}': () => ({
        ...acquirerBody(emvs, acquirerFields),
        profileName: acquirerName,
        acqType: 'card',
        connExtraParams: '{"x":1}',
      }),
      'POST /api/openapi/v1/mchInfo/payment/{mchId}': () => binding,
      'PUT /api/openapi/v1/mchInfo/payment/{mchId}': () => binding,
      'POST /api/openapi/v1/mchInfo': merchantFields,
      'PUT /api/openapi/v1/mchInfo/{mchId}': merchantFields,
      'POST /api/openapi/v1/device': () => ({
        mchId: merchant.mchId,
        deviceAlias: 'Till',
        deviceName: 'Till 2',
        deviceType: 'COTS',
        operatingMode: 'STANDARD',
        methodList: '01',
        deviceAdmin: '1234',
        extParams,
        emvParams: { terminalType: '22' },
      }),
      'POST /api/openapi/v1/device/code': () => ({ deviceId: device.id, email: 'aisyah@example.com' }),
      'POST /api/openapi/v1/profileSync/replay': () => ({ state: 'PENDING', mchId: merchant.mchId }),
      'PUT /api/openapi/v1/device/{deviceId}': () => ({
        deviceAlias: 'Till 1',
        deviceName: 'Till',
        deviceType: 'COTS',
        operatingMode: 'STANDARD',
        methodList: '01,02',
        deviceAdmin: '1234',
        extParams: JSON.stringify(extParams),
        emvParams: '{"terminalType":"22"}',
      }),
      'POST /api/sdk/v1/activate': () => ({ activationCode: '000000000000', deviceInfo: { model: 'Pixel 8' } }),
      'POST /api/v2/emv': () => ({ emvName: unique('emv-'), paymentMethod: 'VISA', params: legacyEmvParams, groupId: pbo.groupId }),
      'PUT /api/v2/emv/{emvId}': () => ({ emvName: unique('emv-'), paymentMethod: '01', params: legacyEmvParams, groupId: pbo.groupId }),
      'POST /api/v2/acquirer': () => ({
        ...acquirerBody(emvs, acquirerFields),
        methodList: { '01': [], '02': [] },
        emvList: emvs,
        connExtraParams: { x: 1 },
        connTimeout: 1000,
        connRequestTimeout: 2000,
        acqType: 'card',
        groupId: pbo.groupId,
      }),
      'PUT /api/v2/acquirer/{profileId}': () => ({
        ...acquirerFields,
        profileName: acquirerName,
        currency: 'MYR',
        acqType: 'card',
        connMessageFormat: 'SVC_ENABLER',
        methodList: { '01': [], '02': [] },
        emvList: emvs,
        connExtraParams: { x: 1 },
        connTimeout: 1000,
        connRequestTimeout: 2000,
        groupId: pbo.groupId,
      }),
      'POST /api/v2/mchInfo': () => ({ ...merchantFields(), groupId: pbo.groupId }),
      'PUT /api/v2/mchInfo/{mchId}': () => ({ ...merchantFields(), groupId: pbo.groupId }),
      'POST /api/v2/device': () => ({
        mchId: merchant.mchId,
        activateCodeAlias: 'Till',
        deviceType: 'COTS',
        emvParams: { terminalType: '22' },
        methodList: '01',
        extParams: { acqMid: 'MID1', acqTid: 'TID1' },
        deviceAdmin: '1234',
        groupId: pbo.groupId,
      }),
      'PUT /api/v2/device/{deviceId}': () => ({
        deviceType: 'COTS',
        deviceAdmin: '1234',
        activateCodeAlias: 'Till 1',
        emvParams: { terminalType: '22' },
        methodList: '01,02',
        extParams: { acqMid: 'MID1', acqTid: 'TID1' },
        groupId: pbo.groupId,
      }),
    };
  });

  afterAll(async () => {
    await database?.destroy();
    await app.close();
  });

  const call = (method: string, path: string, body: Body): Promise<HttpResponse<EnvelopeBody>> => {
    const url = path.replace(/\{(\w+)\}/g, (_match, param: string) => ids[param]);
    return (path.startsWith('/api/sdk/') ? app.anonymous : pbo).request(method, url, body);
  };

  it('should know a valid body for every write operation of the document (so that each change below is the only fault)', async () => {
    expect(OPERATIONS.map((operation) => operation.key).sort()).toEqual(Object.keys(bodies).sort());
    for (const operation of OPERATIONS.filter((candidate) => !candidate.path.startsWith('/api/sdk/') && !candidate.path.endsWith('/code'))) {
      const response = await call(operation.method, operation.path, bodies[operation.key]());
      expect({ operation: operation.key, status: response.status, code: response.body.code }).toEqual({ operation: operation.key, status: 200, code: 0 });
    }
  });

  const cases = OPERATIONS.flatMap((operation) => operation.fields.map((field) => ({ operation, field })));

  /**
   * Sends the operation's valid body with one field changed; answers what was seen and what is
   * wrong with it: a 5xx, a body out of the envelope, a refusal with code 0, rows changed by a refusal.
   */
  async function sendWith(operation: (typeof OPERATIONS)[number], field: Field, value: unknown) {
    const before = await rows();
    const response = await call(operation.method, operation.path, withValue(bodies[operation.key](), field.path, value));
    const seen = { operation: operation.key, field: name(field.path), value, status: response.status, body: response.body };
    const body = response.body as Partial<EnvelopeBody> | string;
    const faults: string[] = [];
    if (response.status >= 500) faults.push('5xx');
    if (typeof body !== 'object' || typeof body.code !== 'number' || typeof body.msg !== 'string') faults.push('not the envelope');
    else if (response.status !== 200 && body.code === 0) faults.push('refused with code 0');
    if (response.status !== 200) {
      const after = await rows();
      const changed = Object.keys(after).filter((table) => JSON.stringify(after[table]) !== JSON.stringify(before[table]));
      if (changed.length > 0) faults.push(`refused but changed ${changed.join(', ')}`);
    }
    return { seen, faults };
  }

  it('should refuse null in a required field with a 400 naming it, and take null in an optional one as clearing it, in every field of every write body', async () => {
    const wrong: unknown[] = [];
    for (const { operation, field } of cases) {
      const { seen, faults } = await sendWith(operation, field, null);
      const required = field.required || (REQUIRED_IN_PARTIAL[operation.key] ?? []).includes(name(field.path));
      const msg = typeof seen.body === 'object' ? seen.body.msg : '';
      if (required && (seen.status !== 400 || msg !== `${seen.field} must not be null`)) faults.push(`required, so 400 "${seen.field} must not be null"`);
      // An optional field cleared is as if left out; a rule that then needs it still names it (a legacy merchant's currency default).
      if (!required && seen.status === 400 && !msg.includes(String(field.path[0]))) faults.push('optional: cleared, or a refusal naming it');
      if (faults.length > 0) wrong.push({ ...seen, faults });
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('should answer every field set to a value of another JSON type without a 5xx, in the envelope, and change nothing when it refuses', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), wrongValue, async ({ operation, field }, value) => {
        const { seen, faults } = await sendWith(operation, field, value);
        expect({ ...seen, faults }).toEqual({ ...seen, faults: [] });
      }),
      { numRuns: 150 },
    );
  }, 300_000);

  it('should store the cleared value of every optional merchant field sent as null, on a v1 replace and a legacy partial update alike', async () => {
    const cleared: Record<string, unknown> = {
      ...Object.fromEntries(MERCHANT_OPTIONAL.map((field) => [field, null])),
      state: 1,
      timeZone: 'Asia/Kuala_Lumpur',
      passcode: null,
    };
    await fc.assert(
      fc.asyncProperty(fc.subarray([...MERCHANT_OPTIONAL, 'passcode'], { minLength: 1 }), fc.boolean(), async (fields, legacy) => {
        const full = bodies['PUT /api/openapi/v1/mchInfo/{mchId}']();
        dataOf(await pbo.put(`${V1}/mchInfo/${ids.mchId}`, { ...full, timeZone: 'Europe/London', state: 0 }));
        const nulls = Object.fromEntries(fields.map((field) => [field, null]));

        const response = await pbo.put<Record<string, unknown>>(
          legacy ? `/api/v2/mchInfo/${ids.mchId}` : `${V1}/mchInfo/${ids.mchId}`,
          legacy ? nulls : { ...full, timeZone: 'Europe/London', state: 0, ...nulls },
        );

        const shown = dataOf<Record<string, unknown>>(response);
        expect(Object.fromEntries(fields.map((field) => [field, shown[field]]))).toEqual(Object.fromEntries(fields.map((field) => [field, cleared[field]])));
      }),
      { numRuns: 15 },
    );
  });

  it('should take null for an optional field of a device create as leaving it out (every bound method, no extParams), in v1 and legacy', async () => {
    // The binding's methods are what the tests above left: a device created without the fields is the measure.
    // The tests above may have left the acquirer asking for enabler fields (any text is a valid enablerParams): none here.
    dataOf(await pbo.put(`${V1}/acquirer/${ids.profileId}`, { enablerParams: null }));
    const shown = async (path: string, fields: Body) => {
      const base = path === '/api/v2/device' ? { mchId: ids.mchId, activateCodeAlias: 'Till', deviceType: 'COTS' } : { mchId: ids.mchId };
      const created = dataOf<CreatedCode>(await pbo.post(path, { ...base, ...fields }));
      const device = dataOf<{ methodList: string; extParams: string | null; emvParams: string | null; deviceAdmin: string | null; profileId: string | null }>(
        await pbo.get(`${V1}/device/CD-${created.activationCode}`),
      );
      return {
        methodList: device.methodList,
        extParams: device.extParams,
        emvParams: device.emvParams,
        deviceAdmin: device.deviceAdmin,
        profiled: device.profileId !== null,
      };
    };
    for (const path of [`${V1}/device`, '/api/v2/device']) {
      const omitted = await shown(path, {});
      expect(omitted).toEqual({ methodList: expect.stringMatching(/^\{"0\d":/), extParams: null, emvParams: null, deviceAdmin: null, profiled: true });
      expect(await shown(path, { methodList: null, extParams: null, emvParams: null, deviceAdmin: null })).toEqual(omitted);
    }
  });
});
