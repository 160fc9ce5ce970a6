import { AllowList, envSchema } from '@app/common';
import { HOST_ADDRESS_CHECK_V1 } from '@app/contracts';
import { HostAddressPolicy, RequestReplyError } from '@app/messaging';
import { acquirerBody, createEmv, queryDatabase, startTestApp, TestApp, unique, ApiClient } from '@app/testing';
import { hostConnectorVariables } from '../apps/host-connector/src';
import { legacyAcquirerBody, V2 } from '../apps/merchant-management/test/legacy-factories';
import { MerchantManagementTestApp, startMerchantManagement } from '../apps/merchant-management/test/support';
import { PboService } from '../apps/merchant-management/src';
import { StandaloneModule, standaloneConnectorConfig } from '../apps/standalone/src';

/**
 * An acquirer's connUrl is stored only when the host connector would send that PBO's requests
 * there (docs/decisions.md, "Trust boundaries left over"): merchant-management asks the connector
 * (`host.address.check.v1`), which answers with its own allow-list, loopback rule and entries
 * scoped to one PBO. Refused: 400/10000 naming connUrl with the connector's reason, nothing
 * written; no connector answering: 503, nothing written. Both APIs, create and PUT.
 */

const V1 = '/api/openapi/v1/acquirer';
const OWNER = 'grp_h4_scoped_owner';

type Api = 'v1' | 'v2';
const bodyFor = (api: Api, emvId: number, connUrl: string | null, format = 'ISO8583') =>
  api === 'v1'
    ? acquirerBody({ '01': [emvId] }, { connMessageFormat: format, enablerMsgFormat: null, connUrl })
    : legacyAcquirerBody({ '01': [emvId] }, { connMessageFormat: format, enablerMsgFormat: null, connUrl });
const pathOf = (api: Api) => (api === 'v1' ? V1 : `${V2}/acquirer`);

async function acquirerRows(url: string, groupId: string): Promise<Array<{ id: number; conn_url: string | null; conn_message_format: string }>> {
  return queryDatabase(url, 'SELECT id, conn_url, conn_message_format FROM merchant_management.acquirer_profile WHERE group_id = $1 ORDER BY id', [groupId]);
}

describe('standalone: an acquirer connUrl the host connector refuses is refused when written', () => {
  let app: TestApp;

  beforeAll(async () => {
    // An operator's list: one host for everyone, one address for one PBO only, loopback not allowed.
    const base = standaloneConnectorConfig({ values: envSchema(hostConnectorVariables).read({}), production: false });
    const allowList = AllowList.parse(`acq.example.com,${OWNER}@10.8.0.5:7000`, { allowLoopback: false, variable: 'HOST_ALLOWLIST' });
    app = await startTestApp((options) => StandaloneModule.register(options, { ...base, allowList, defaultUrls: {} }));
  });
  afterAll(() => app?.close());

  async function newPbo(groupId?: string): Promise<{ pbo: ApiClient; groupId: string; emvId: number }> {
    const created = await app.app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur', ...(groupId ? { groupId } : {}) });
    const pbo = await app.clientFor(created.groupId);
    return { pbo, groupId: created.groupId, emvId: await createEmv(pbo, { paymentMethod: '01' }) };
  }

  const refusals: Array<[string, string, string]> = [
    ['a loopback name', 'tcp://localhost:8583', 'host address tcp://localhost:8583 is not in HOST_ALLOWLIST'],
    ['a loopback address', 'tcp://127.0.0.1:8583', 'host address tcp://127.0.0.1:8583 is not in HOST_ALLOWLIST'],
    ['a host not on the list', 'tcp://10.1.1.1:8583', 'host address tcp://10.1.1.1:8583 is not in HOST_ALLOWLIST'],
    ["an address scoped to another PBO", 'tcp://10.8.0.5:7000', 'host address tcp://10.8.0.5:7000 is not in HOST_ALLOWLIST'],
  ];

  describe.each(['v1', 'v2'] as const)('%s', (api) => {
    it.each(refusals)('should refuse creating an acquirer at %s with 400 naming connUrl and the connector\'s reason, writing nothing', async (_, connUrl, reason) => {
      const { pbo, groupId, emvId } = await newPbo();

      const response = await pbo.post(pathOf(api), bodyFor(api, emvId, connUrl));

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 10000, msg: `connUrl: ${reason}` });
      expect(await acquirerRows(app.database.url, groupId)).toEqual([]);
    });

    it.each(refusals)('should refuse changing an acquirer to %s, keeping the address it had', async (_, connUrl, reason) => {
      const { pbo, groupId, emvId } = await newPbo();
      expect((await pbo.post(pathOf(api), bodyFor(api, emvId, 'tcp://acq.example.com:8583'))).status).toBe(200);
      const [before] = await acquirerRows(app.database.url, groupId);

      const response = await pbo.put(`${pathOf(api)}/${before.id}`, { connUrl });

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 10000, msg: `connUrl: ${reason}` });
      expect(await acquirerRows(app.database.url, groupId)).toEqual([before]);
    });

    it('should take an allow-listed host, and the scoped address for the PBO it is scoped to', async () => {
      const { pbo, groupId, emvId } = await newPbo();
      expect((await pbo.post(pathOf(api), bodyFor(api, emvId, 'tcp://ACQ.example.com:9000'))).status).toBe(200);
      expect((await pbo.post(pathOf(api), bodyFor(api, emvId, 'https://acq.example.com/pay', 'MPGS_AP'))).status).toBe(200);
      expect((await pbo.post(pathOf(api), bodyFor(api, emvId, null))).status).toBe(200);
      expect(await acquirerRows(app.database.url, groupId)).toHaveLength(3);
    });

    it('should check the stored address again when only the format changes', async () => {
      const { pbo, groupId, emvId } = await newPbo();
      // MOCK never reads its address: any is taken there, and met when the profile becomes a real format.
      expect((await pbo.post(pathOf(api), bodyFor(api, emvId, 'http://127.0.0.1:9', 'MOCK'))).status).toBe(200);
      const [before] = await acquirerRows(app.database.url, groupId);

      const response = await pbo.put(`${pathOf(api)}/${before.id}`, { connMessageFormat: 'MPGS_AP' });

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 10000, msg: 'connUrl: host address http://127.0.0.1:9 is not in HOST_ALLOWLIST' });
      expect(await acquirerRows(app.database.url, groupId)).toEqual([before]);
    });
  });

  it('should take the scoped address for its own PBO on both APIs', async () => {
    const { pbo, groupId, emvId } = await newPbo(`${OWNER}`);
    expect((await pbo.post(V1, bodyFor('v1', emvId, 'tcp://10.8.0.5:7000'))).status).toBe(200);
    expect((await pbo.post(`${V2}/acquirer`, bodyFor('v2', emvId, 'tcp://10.8.0.5:7000'))).status).toBe(200);
    expect((await acquirerRows(app.database.url, groupId)).map((row) => row.conn_url)).toEqual(['tcp://10.8.0.5:7000', 'tcp://10.8.0.5:7000']);
  });
});

describe('merchant-management with no host connector answering', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement({ hostAddresses: 'host-connector' });
  });
  afterAll(() => app?.close());

  it.each(['v1', 'v2'] as const)('should answer %s create and PUT of a connUrl 503 in the envelope and write nothing', async (api) => {
    const pbo = await app.newPbo();
    const emvId = await createEmv(pbo, { paymentMethod: '01' });

    const created = await pbo.post(pathOf(api), bodyFor(api, emvId, 'tcp://acq.example.com:8583'));
    expect(created.status).toBe(503);
    expect(created.body).toMatchObject({ code: 15000, msg: expect.stringContaining('nothing was saved') as string });
    expect(await acquirerRows(app.database.url, pbo.groupId)).toEqual([]);

    // No connUrl (the connector's default) and MOCK need no answer.
    expect((await pbo.post(pathOf(api), bodyFor(api, emvId, null))).status).toBe(200);
    const [before] = await acquirerRows(app.database.url, pbo.groupId);
    const changed = await pbo.put(`${pathOf(api)}/${before.id}`, { connUrl: 'tcp://acq.example.com:8583' });
    expect(changed.status).toBe(503);
    expect(await acquirerRows(app.database.url, pbo.groupId)).toEqual([before]);
  });

});

describe('merchant-management with a host connector slow to answer', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    // Answers nothing for a second and a half, then fails as a request past its deadline does.
    const slow: HostAddressPolicy = {
      check: async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        throw new RequestReplyError('TIMEOUT', HOST_ADDRESS_CHECK_V1, `no answer for ${request.connUrl}`);
      },
    };
    app = await startMerchantManagement({ hostAddresses: slow });
  });
  afterAll(() => app?.close());

  it("should hold no PBO lock while it waits for the connector: the PBO's other writes go through meanwhile", async () => {
    const pbo = await app.newPbo();
    const emvId = await createEmv(pbo, { paymentMethod: '01' });
    expect((await pbo.post(V1, bodyFor('v1', emvId, null))).status).toBe(200);
    const [before] = await acquirerRows(app.database.url, pbo.groupId);
    const finished: string[] = [];

    // The PUT waits for an answer that never comes (503 after the ask's deadline); acquirer
    // creates take the same PBO lock the PUT takes.
    const waiting = pbo.put(`${V1}/${before.id}`, { connUrl: 'tcp://acq.example.com:8583' }).then((response) => (finished.push('put'), response));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const others = await Promise.all(
      [1, 2, 3].map(() => pbo.post(V1, bodyFor('v1', emvId, null)).then((response) => (finished.push('create'), response))),
    );

    expect(others.map((response) => response.status)).toEqual([200, 200, 200]);
    expect((await waiting).status).toBe(503);
    expect(finished).toEqual(['create', 'create', 'create', 'put']);
  });
});
