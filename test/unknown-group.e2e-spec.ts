import { signDeviceToken, signPboToken } from '@app/common';
import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { ApiClient, gatewayBase, queryDatabase, startTestApp, TEST_AUTH, TestApp, unique } from '@app/testing';
import fc from 'fast-check';
import { PboService } from '../apps/merchant-management/src';
import { StandaloneModule } from '../apps/standalone/src';

const GATEWAY_BASE = gatewayBase(DEFAULT_GATEWAY_NAMESPACE);

/** A route of each context under each kind of token: what a caller sees is compared without the request id. */
const PBO_ROUTES = [
  { context: 'merchant-management', method: 'GET', path: '/api/openapi/v1/emv' },
  { context: 'payment-gateway', method: 'GET', path: `${GATEWAY_BASE}/profiles` },
  { context: 'transactions', method: 'GET', path: '/api/v2/order' },
] as const;
const DEVICE_ROUTES = [
  { context: 'merchant-management', method: 'GET', path: '/api/sdk/v1/config', body: undefined },
  {
    context: 'payment-gateway',
    method: 'POST',
    path: `${GATEWAY_BASE}/transaction`,
    body: { profileId: 'prof_unknown', tranType: 'SALE', amount: { value: '1.00', currency: 'MYR' }, emvData: '9F0206000000000100' },
  },
] as const;

interface Seen {
  status: number;
  body: unknown;
}

/** The answer without what differs per request (the gateway's requestId). */
function shown(response: { status: number; body: unknown }): Seen {
  const body = response.body as Record<string, unknown>;
  const { requestId: _requestId, ...rest } = body ?? {};
  return { status: response.status, body: rest };
}

/**
 * Tokens of groups that do not exist (issue 14, class 6), in standalone with every context asking
 * merchant-management over the in-process transport, as a distributed deployment does over NATS:
 * a validly signed PBO or device token of an unknown or deleted group answers exactly as a wrongly
 * signed one, on every context's routes.
 */
describe('tokens of groups that do not exist', () => {
  let app: TestApp;
  let pbos: PboService;

  beforeAll(async () => {
    app = await startTestApp((options) => StandaloneModule.register(options), { groups: 'merchant-management' });
    pbos = app.app.get(PboService);
  });

  afterAll(() => app?.close());

  const badPboToken = () => signPboToken({ ...TEST_AUTH, secret: 'another-secret-of-enough-length-0123456789abcdef' }, 'grp_whatever', 600);
  const badDeviceToken = () =>
    signDeviceToken({ ...TEST_AUTH, deviceSecret: 'another-device-secret-of-enough-length-0123456789' }, { deviceId: 'SDK00', groupId: 'grp_whatever', profileId: null }, 600);

  async function asPbo(token: string, route: (typeof PBO_ROUTES)[number]): Promise<Seen> {
    return shown(await new ApiClient(app.baseUrl, token).request(route.method, route.path));
  }

  async function asDevice(token: string, route: (typeof DEVICE_ROUTES)[number]): Promise<Seen> {
    return shown(await new ApiClient(app.baseUrl, token).request(route.method, route.path, route.body));
  }

  it("should take an existing group's PBO token on every context", async () => {
    const pbo = await pbos.create({ name: unique('PBO ') });
    const token = await signPboToken(TEST_AUTH, pbo.groupId, 600);

    for (const route of PBO_ROUTES) expect({ route: route.path, status: (await asPbo(token, route)).status }).toEqual({ route: route.path, status: 200 });
  });

  it('should refuse PBO and device tokens of any group that does not exist exactly as wrongly signed ones, on every context', async () => {
    const expectedPbo = await Promise.all(PBO_ROUTES.map(async (route) => asPbo(await badPboToken(), route)));
    const expectedDevice = await Promise.all(DEVICE_ROUTES.map(async (route) => asDevice(await badDeviceToken(), route)));
    expect(expectedPbo.map((seen) => seen.status)).toEqual([401, 401, 401]);
    expect(expectedDevice.map((seen) => seen.status)).toEqual([401, 401]);

    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), async (groupId) => {
        fc.pre((await pbos.find(groupId)) === null);
        const pboToken = await signPboToken(TEST_AUTH, groupId, 600);
        const deviceToken = await signDeviceToken(TEST_AUTH, { deviceId: `SDK${groupId.length}`, groupId, profileId: 'prof_unknown' }, 600);

        for (const [index, route] of PBO_ROUTES.entries()) expect({ route: route.path, ...(await asPbo(pboToken, route)) }).toEqual({ route: route.path, ...expectedPbo[index] });
        for (const [index, route] of DEVICE_ROUTES.entries())
          expect({ route: route.path, ...(await asDevice(deviceToken, route)) }).toEqual({ route: route.path, ...expectedDevice[index] });
      }),
      { numRuns: 15 },
    );
  });

  it('should refuse the tokens of a group deleted before they were used', async () => {
    const pbo = await pbos.create({ name: unique('PBO ') });
    const pboToken = await signPboToken(TEST_AUTH, pbo.groupId, 600);
    const deviceToken = await signDeviceToken(TEST_AUTH, { deviceId: 'SDK01', groupId: pbo.groupId, profileId: 'prof_unknown' }, 600);
    await queryDatabase(app.options.databaseUrl, 'DELETE FROM merchant_management.pbo WHERE group_id = $1', [pbo.groupId]);

    for (const route of PBO_ROUTES) expect({ route: route.path, status: (await asPbo(pboToken, route)).status }).toEqual({ route: route.path, status: 401 });
    for (const route of DEVICE_ROUTES) expect({ route: route.path, status: (await asDevice(deviceToken, route)).status }).toEqual({ route: route.path, status: 401 });
  });
});
