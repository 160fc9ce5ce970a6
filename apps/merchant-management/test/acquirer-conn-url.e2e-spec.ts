import { ApiClient } from '@app/testing';
import { HostMessageFormat, ISO_HOST_FORMATS, JSON_HOST_FORMATS, parseHostUrl } from '@app/contracts';
import fc from 'fast-check';
import { acquirerBody, createAcquirer, createEmv } from './factories';
import { legacyAcquirerBody, V2 } from './legacy-factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * An acquirer's connUrl is taken only when the host connector would take it for the format the
 * profile is spoken in (docs/decisions.md, "connUrl checked with the connector's parser"): what
 * merchant-management stores, the connector connects to; the rest is 400/10000 naming connUrl.
 */

const ACQUIRER = '/api/openapi/v1/acquirer';

function connectorTakes(format: HostMessageFormat, url: string): boolean {
  // What the connector would drop or misread is refused on top of its parser (a query, a fragment: docs/decisions.md, 1f3999e).
  if (/[?#]/.test(url)) return false;
  try {
    parseHostUrl(format, url);
    return true;
  } catch {
    return false;
  }
}

describe('acquirer connUrl is what the host connector takes', () => {
  let app: MerchantManagementTestApp;
  let pbo: ApiClient;
  let emvId: number;

  beforeAll(async () => {
    app = await startMerchantManagement();
    pbo = await app.newPbo();
    emvId = await createEmv(pbo);
  });
  afterAll(() => app.close());

  const direct = (format: string, connUrl: unknown) => acquirerBody({ '01': [emvId] }, { connMessageFormat: format, enablerMsgFormat: null, connUrl });
  const expectRefused = (response: { status: number; body: { code: number; msg: string } }, reason: string) => {
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(10000);
    expect(response.body.msg).toContain('connUrl');
    expect(response.body.msg).toContain(reason);
  };

  it.each([
    ['ISO8583', 'tls://127.0.0.1:40513', 'its address is tcp://host:port, not tls://'],
    ['ISO8583', 'http://127.0.0.1:40513', 'its address is tcp://host:port, not http://'],
    ['ISO8583', 'tcp://127.0.0.1', 'needs a port'],
    ['ISO8583', 'tcp://127.0.0.1:40513/path', 'takes no path'],
    ['MPGS_AP', 'tcp://127.0.0.1:40513', 'its address is http(s)://…, not tcp://'],
    ['S2M_8583', 'tcp://user:secret@127.0.0.1:40513', 'must not carry credentials'],
  ])('should refuse a %s profile at %s, saying why', async (format, connUrl, reason) => {
    expectRefused(await pbo.post(ACQUIRER, direct(format, connUrl)), reason);
    expectRefused(await pbo.post(`${V2}/acquirer`, legacyAcquirerBody({ '01': [emvId] }, { connMessageFormat: format, enablerMsgFormat: null, connUrl })), reason);
  });

  it('should read the address as the enablerMsgFormat it is spoken in, and as either family for MOCK', async () => {
    expectRefused(await pbo.post(ACQUIRER, acquirerBody({ '01': [emvId] }, { connMessageFormat: 'SVC_ENABLER', enablerMsgFormat: 'ISO8583', connUrl: 'https://host.example' })), 'not https://');
    expect((await pbo.post(ACQUIRER, acquirerBody({ '01': [emvId] }, { connMessageFormat: 'SVC_ENABLER', enablerMsgFormat: 'MOCK', connUrl: 'https://host.example' }))).status).toBe(200);
    expectRefused(await pbo.post(ACQUIRER, acquirerBody({ '01': [emvId] }, { connMessageFormat: 'MOCK', enablerMsgFormat: null, connUrl: 'tls://host.example:1' })), 'neither');
  });

  it('should refuse, on PUT (v1 and v2), an address or a format change that leaves an address the connector refuses, and change nothing', async () => {
    const id = await createAcquirer(pbo, { '01': [emvId] }, { connMessageFormat: 'ISO8583', enablerMsgFormat: null, connUrl: 'tcp://127.0.0.1:40513' });
    const before = dataOf(await pbo.get(`${ACQUIRER}/${id}`));
    expectRefused(await pbo.put(`${ACQUIRER}/${id}`, { connUrl: 'tcp://127.0.0.1:40513/path' }), 'takes no path');
    expectRefused(await pbo.put(`${V2}/acquirer/${id}`, { connUrl: 'tls://127.0.0.1:40513' }), 'not tls://');
    // The stored tcp:// address is no address of a JSON host.
    expectRefused(await pbo.put(`${ACQUIRER}/${id}`, { connMessageFormat: 'POMELO_JSON' }), 'not tcp://');
    expectRefused(await pbo.put(`${ACQUIRER}/${id}`, { connMessageFormat: 'SVC_ENABLER', enablerMsgFormat: 'EZ_AIO' }), 'not tcp://');
    expect(dataOf(await pbo.get(`${ACQUIRER}/${id}`))).toEqual(before);
    // Both together, and a null address (the connector's configured default), are taken.
    expect((await pbo.put(`${ACQUIRER}/${id}`, { connMessageFormat: 'POMELO_JSON', connUrl: 'https://host.example/api' })).status).toBe(200);
    expect((await pbo.put(`${ACQUIRER}/${id}`, { connMessageFormat: 'ISO8583', connUrl: null })).status).toBe(200);
  });

  it('should take exactly the generated addresses the connector parser takes for the format', async () => {
    const host = fc.oneof(fc.domain(), fc.ipV4(), fc.constant('[::1]'), fc.constantFrom('', 'host name', 'hö.example'));
    const url = fc
      .record({
        scheme: fc.constantFrom('tcp', 'tls', 'http', 'https', 'ftp', 'TCP', ''),
        userinfo: fc.constantFrom('', 'user@', 'user:pw@'),
        host,
        port: fc.oneof(fc.constant(''), fc.integer({ min: 0, max: 70000 }).map((port) => `:${port}`), fc.constant(':x')),
        path: fc.constantFrom('', '/', '/path', '/a/b/', '?q=1', '#frag'),
      })
      .map(({ scheme, userinfo, host: name, port, path }) => `${scheme}${scheme === '' ? '' : '://'}${userinfo}${name}${port}${path}`);
    const format = fc.constantFrom<HostMessageFormat>(...ISO_HOST_FORMATS, ...JSON_HOST_FORMATS);
    await fc.assert(
      fc.asyncProperty(format, url, async (hostFormat, connUrl) => {
        const response = await pbo.post(ACQUIRER, direct(hostFormat, connUrl));
        if (connectorTakes(hostFormat, connUrl)) {
          expect({ connUrl, status: response.status, body: response.body }).toMatchObject({ status: 200 });
          const { id } = response.body.data as { id: number };
          expect(dataOf<{ connUrl: string }>(await pbo.get(`${ACQUIRER}/${id}`)).connUrl).toBe(connUrl);
        } else {
          expect({ connUrl, status: response.status, code: response.body.code }).toEqual({ connUrl, status: 400, code: 10000 });
          expect(response.body.msg).toMatch(/^connUrl/);
        }
      }),
      { numRuns: 60 },
    );
  });
});
