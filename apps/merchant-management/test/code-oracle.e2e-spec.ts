import { createMerchant, dataOf, MerchantView } from '@app/testing';
import fc from 'fast-check';
import { Body, deviceScenarios, Device, expectEnvelope, Pbo, V1 } from './device-support';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

const V2 = '/api/v2';

/** A route that takes an activation code from a PBO, given the code and a merchant of the caller's. */
type Route = (code: string, ownMchId: string) => [method: string, path: string, body?: Body];

const ROUTES: Record<string, Route> = {
  'GET device/{id}': (code) => ['GET', `${V1}/device/${code}`],
  'GET device/emv/{id}': (code) => ['GET', `${V1}/device/emv/${code}`],
  'GET device?deviceId=': (code, mchId) => ['GET', `${V1}/device?mchId=${mchId}&deviceId=${code}`],
  'PUT device/{id}': (code) => ['PUT', `${V1}/device/${code}`, { deviceAlias: 'mine now' }],
  'DELETE device/{id}': (code) => ['DELETE', `${V1}/device/${code}`],
  'DELETE device/{id}?deviceStatus=2': (code) => ['DELETE', `${V1}/device/${code}?deviceStatus=2`],
  'DELETE device/{id}?deviceStatus=3': (code) => ['DELETE', `${V1}/device/${code}?deviceStatus=3`],
  'DELETE device/{id}/idle': (code) => ['DELETE', `${V1}/device/${code}/idle`],
  'POST device/code': (code) => ['POST', `${V1}/device/code`, { deviceId: code, email: 'thief@example.com' }],
  'legacy GET device?deviceId=': (code, mchId) => ['GET', `${V2}/device?mchId=${mchId}&deviceId=${code}`],
  'legacy PUT device/{id}': (code) => ['PUT', `${V2}/device/${code}`, { deviceAlias: 'mine now' }],
  'legacy DELETE device/{id}': (code) => ['DELETE', `${V2}/device/${code}`],
};

/**
 * Oracles (issue 14, class 7): a 12-digit activation code is a secret, bare or as a `CD-` id, so
 * another PBO's code answers exactly as an unknown one on every route that takes one (status, content type and
 * body, the code itself aside), and a PBO's lookups of codes that are not its own are throttled.
 */
describe('activation codes of another PBO', () => {
  let app: MerchantManagementTestApp;
  const { createDevice, activate, boundMerchant } = deviceScenarios(() => app);
  let owner: { pbo: Pbo; merchant: MerchantView };

  beforeAll(async () => {
    app = await startMerchantManagement();
    owner = await boundMerchant();
  });
  afterAll(() => app.close());

  /** One of the owner's codes in `state`: pending, activated, or activated and idled (its code usable again). */
  async function foreignCode(state: 'pending' | 'active' | 'idle'): Promise<string> {
    const created = await createDevice(owner.pbo, { mchId: owner.merchant.mchId });
    if (state === 'pending') return created.activationCode;
    const { deviceId } = await activate(created.activationCode);
    if (state === 'idle') dataOf(await owner.pbo.delete(`${V1}/device/${deviceId}/idle`));
    return created.activationCode;
  }

  function answer(response: { status: number; body: unknown; headers: Headers }, code: string): string {
    return JSON.stringify({
      status: response.status,
      type: response.headers.get('content-type'),
      body: JSON.stringify(response.body).split(code).join('<code>'),
    });
  }

  it("should answer another PBO's code on every route exactly as an unknown code, and change nothing of it", async () => {
    const unknownCode = fc.stringMatching(/^[0-9]{12}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(ROUTES)),
        fc.constantFrom('pending', 'active', 'idle') as fc.Arbitrary<'pending' | 'active' | 'idle'>,
        unknownCode,
        // The code bare, or as the `CD-` id the owner's device list shows for a pending device: the same secret.
        fc.constantFrom('', 'CD-'),
        async (label, state, unknown, prefix) => {
          const theirs = await foreignCode(state);
          fc.pre(unknown !== theirs);
          // A PBO of its own each time: two lookups that find nothing stay far below the throttle.
          const attacker = await app.newPbo();
          const mchId = (await createMerchant(attacker, { country: 'MY' })).mchId;
          const before = dataOf<Device>(await owner.pbo.get(`${V1}/device/${theirs}`));

          const [method, path, body] = ROUTES[label](`${prefix}${theirs}`, mchId);
          const foreign = await attacker.request(method, path, body);
          const [, unknownPath, unknownBody] = ROUTES[label](`${prefix}${unknown}`, mchId);
          const missing = await attacker.request(method, unknownPath, unknownBody);

          expect(answer(foreign, theirs)).toBe(answer(missing, unknown));
          expect(foreign.status).toBeLessThan(500);
          expect(dataOf<Device>(await owner.pbo.get(`${V1}/device/${theirs}`))).toEqual(before);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('should throttle a PBO that looks up codes not its own, never count its own codes, and never refuse them', async () => {
    const attacker = await app.newPbo();
    const guesses = fc.sample(fc.stringMatching(/^[0-9]{12}$/), 10);
    for (const guess of guesses) expect(dataOf(await attacker.get(`${V1}/device/${guess}`))).toBeNull();

    const throttled = await attacker.get(`${V1}/device/${await foreignCode('pending')}`);
    expectEnvelope(throttled, 429, 16000, /too many lookups/);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(throttled.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    // Past the limit its own codes stay reachable (a few mistyped codes must not lock it out of its devices); others stay refused.
    const own = (await createDevice(attacker, { mchId: (await createMerchant(attacker, { country: 'MY' })).mchId })).activationCode;
    expect(dataOf<Device>(await attacker.get(`${V1}/device/${own}`))).toMatchObject({ deviceId: `CD-${own}` });
    expectEnvelope(await attacker.get(`${V1}/device/${guesses[0]}`), 429, 16000, /too many lookups/);

    // The owner names its own codes as often as it likes.
    const mine = await foreignCode('pending');
    for (let i = 0; i < 15; i++) expect(dataOf<Device>(await owner.pbo.get(`${V1}/device/${mine}`))).not.toBeNull();
  });
});
