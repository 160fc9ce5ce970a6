import { ApiClient, EnvelopeBody, HttpResponse, TEST_AUTH, unique } from '@app/testing';
import { SignJWT } from 'jose';
import { acquirerBody, createAcquirer, createEmv, createMerchant, emvBody, merchantBody, MerchantView } from './factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * Tenancy: a PBO reaches only its own objects. Another PBO's object answers 403 / 13000 on
 * every route that addresses it, directly or by reference from a body, and is never listed.
 */

const V1 = '/api/openapi/v1';
type Body = Record<string, unknown>;
type Pbo = ApiClient & { groupId: string };

interface Page<T> {
  total: number;
  records: T[];
}

/** The objects of one PBO: an EMV config, a card acquirer profile using it, a merchant bound to that profile. */
interface Objects {
  emvId: number;
  profileId: number;
  merchant: MerchantView;
}

async function createObjects(pbo: Pbo): Promise<Objects> {
  const emvId = await createEmv(pbo, { paymentMethod: '01' });
  const profileId = await createAcquirer(pbo, { '01': [emvId] });
  const merchant = await createMerchant(pbo);
  dataOf(await pbo.post(`${V1}/mchInfo/payment/${merchant.mchId}`, paymentConfigBody(profileId, emvId)));
  return { emvId, profileId, merchant };
}

function paymentConfigBody(profileId: number, emvId: number): Body {
  return { acquirerProfileId: String(profileId), currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01', emvs: [{ emvId }] }] };
}

/** What a PBO reads of its objects, field for field. */
async function readBack(pbo: Pbo, objects: Objects) {
  return {
    emv: dataOf<{ id: number; emvName: string }>(await pbo.get(`${V1}/emv/${objects.emvId}`)),
    acquirer: dataOf<{ profileId: number; profileName: string }>(await pbo.get(`${V1}/acquirer/${objects.profileId}`)),
    merchant: dataOf<MerchantView>(await pbo.get(`${V1}/mchInfo/${objects.merchant.mchId}`)),
    paymentConfig: dataOf<Page<unknown>>(await pbo.get(`${V1}/mchInfo/payment/${objects.merchant.mchId}`)),
    emvs: dataOf<Page<unknown>>(await pbo.get(`${V1}/emv?pageSize=-1`)),
    acquirers: dataOf<Page<unknown>>(await pbo.get(`${V1}/acquirer?pageSize=-1`)),
    merchants: dataOf<Page<unknown>>(await pbo.get(`${V1}/mchInfo?pageSize=-1`)),
  };
}

function expectEnvelope(response: HttpResponse<EnvelopeBody>, status: number, code: number, msg: RegExp = /\S/): void {
  expect({ status: response.status, body: response.body }).toEqual({ status, body: { code, msg: expect.stringMatching(msg) } });
}

/** A signed, unexpired token with the given claims (as the CLI would sign one, claims aside). */
async function tokenWith(claims: Record<string, unknown>, subject?: string): Promise<string> {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime('10m');
  if (subject) jwt = jwt.setSubject(subject);
  return jwt.sign(new TextEncoder().encode(TEST_AUTH.secret));
}

describe('tenancy between PBOs', () => {
  let app: MerchantManagementTestApp;
  let pboA: Pbo;
  let pboB: Pbo;
  let a: Objects;
  let b: Objects;
  let aBefore: Awaited<ReturnType<typeof readBack>>;
  let bBefore: Awaited<ReturnType<typeof readBack>>;

  beforeAll(async () => {
    app = await startMerchantManagement();
    pboA = await app.newPbo();
    pboB = await app.newPbo();
    a = await createObjects(pboA);
    b = await createObjects(pboB);
    aBefore = await readBack(pboA, a);
    bBefore = await readBack(pboB, b);
  });
  afterAll(() => app.close());

  interface Call {
    name: string;
    method: string;
    path: () => string;
    body?: () => unknown;
  }
  const call = (name: string, method: string, path: () => string, body?: () => unknown): Call => ({ name, method, path, body });

  /** Every route that addresses one of A's objects, called by B. */
  const callsOnAsObjects: Call[] = [
    call('GET /emv/{A}', 'GET', () => `${V1}/emv/${a.emvId}`),
    call(
      'PUT /emv/{A}',
      'PUT',
      () => `${V1}/emv/${a.emvId}`,
      () => emvBody(),
    ),
    call('DELETE /emv/{A}', 'DELETE', () => `${V1}/emv/${a.emvId}`),
    call('GET /acquirer/{A}', 'GET', () => `${V1}/acquirer/${a.profileId}`),
    call(
      'PUT /acquirer/{A} (name only)',
      'PUT',
      () => `${V1}/acquirer/${a.profileId}`,
      () => ({ profileName: unique('taken-') }),
    ),
    call(
      "PUT /acquirer/{A} (listing B's EMV config)",
      'PUT',
      () => `${V1}/acquirer/${a.profileId}`,
      () => acquirerBody({ '01': [b.emvId] }),
    ),
    call('DELETE /acquirer/{A}', 'DELETE', () => `${V1}/acquirer/${a.profileId}`),
    call('GET /mchInfo/{A}', 'GET', () => `${V1}/mchInfo/${a.merchant.mchId}`),
    call(
      'PUT /mchInfo/{A}',
      'PUT',
      () => `${V1}/mchInfo/${a.merchant.mchId}`,
      () => merchantBody(),
    ),
    call('DELETE /mchInfo/{A}', 'DELETE', () => `${V1}/mchInfo/${a.merchant.mchId}`),
    call('GET /mchInfo/payment/{A}', 'GET', () => `${V1}/mchInfo/payment/${a.merchant.mchId}`),
    call('GET /mchInfo/payment/{A} (page 2)', 'GET', () => `${V1}/mchInfo/payment/${a.merchant.mchId}?pageNumber=2&pageSize=1`),
    call(
      "POST /mchInfo/payment/{A} (B's profile)",
      'POST',
      () => `${V1}/mchInfo/payment/${a.merchant.mchId}`,
      () => paymentConfigBody(b.profileId, b.emvId),
    ),
    call(
      "POST /mchInfo/payment/{A} (A's profile)",
      'POST',
      () => `${V1}/mchInfo/payment/${a.merchant.mchId}`,
      () => paymentConfigBody(a.profileId, a.emvId),
    ),
    call(
      "PUT /mchInfo/payment/{A} (B's profile)",
      'PUT',
      () => `${V1}/mchInfo/payment/${a.merchant.mchId}`,
      () => paymentConfigBody(b.profileId, b.emvId),
    ),
    call(
      "PUT /mchInfo/payment/{A} (A's profile)",
      'PUT',
      () => `${V1}/mchInfo/payment/${a.merchant.mchId}`,
      () => paymentConfigBody(a.profileId, a.emvId),
    ),
    call('DELETE /mchInfo/payment/{A}', 'DELETE', () => `${V1}/mchInfo/payment/${a.merchant.mchId}?acquirerProfileId=${a.profileId}&currency=MYR`),
    // B's own objects, with a body or query that references one of A's.
    call(
      "POST /acquirer listing A's EMV config",
      'POST',
      () => `${V1}/acquirer`,
      () => acquirerBody({ '01': [a.emvId] }),
    ),
    call(
      "POST /acquirer listing B's and A's EMV configs",
      'POST',
      () => `${V1}/acquirer`,
      () => acquirerBody({ '01': [b.emvId, a.emvId] }),
    ),
    call(
      "PUT /acquirer/{B} listing A's EMV config",
      'PUT',
      () => `${V1}/acquirer/${b.profileId}`,
      () => ({ emvList: JSON.stringify({ '01': [b.emvId, a.emvId] }) }),
    ),
    call(
      "POST /mchInfo/payment/{B} with A's profile",
      'POST',
      () => `${V1}/mchInfo/payment/${b.merchant.mchId}`,
      () => paymentConfigBody(a.profileId, a.emvId),
    ),
    call(
      "POST /mchInfo/payment/{B} with A's profile, methods omitted",
      'POST',
      () => `${V1}/mchInfo/payment/${b.merchant.mchId}`,
      () => ({ acquirerProfileId: String(a.profileId), currency: 'MYR' }),
    ),
    call(
      "PUT /mchInfo/payment/{B} with A's profile",
      'PUT',
      () => `${V1}/mchInfo/payment/${b.merchant.mchId}`,
      () => paymentConfigBody(a.profileId, a.emvId),
    ),
    call(
      "POST /mchInfo/payment/{B} with B's profile and A's EMV config",
      'POST',
      () => `${V1}/mchInfo/payment/${b.merchant.mchId}`,
      () => paymentConfigBody(b.profileId, a.emvId),
    ),
    call(
      "PUT /mchInfo/payment/{B} with B's profile and A's EMV config",
      'PUT',
      () => `${V1}/mchInfo/payment/${b.merchant.mchId}`,
      () => paymentConfigBody(b.profileId, a.emvId),
    ),
    call(
      "DELETE /mchInfo/payment/{B} naming A's profile",
      'DELETE',
      () => `${V1}/mchInfo/payment/${b.merchant.mchId}?acquirerProfileId=${a.profileId}&currency=MYR`,
    ),
  ];

  it.each(callsOnAsObjects)('should refuse B $name with 403 and code 13000', async ({ method, path, body }) => {
    const response = await pboB.request(method, path(), body?.());
    expectEnvelope(response, 403, 13000);
  });

  describe("B's lists", () => {
    it.each([
      { name: 'GET /emv', path: `${V1}/emv`, key: 'id', idOfA: () => a.emvId },
      { name: 'GET /acquirer', path: `${V1}/acquirer`, key: 'profileId', idOfA: () => a.profileId },
      { name: 'GET /mchInfo', path: `${V1}/mchInfo`, key: 'mchId', idOfA: () => a.merchant.mchId },
    ])('should show B only its own objects in $name?pageSize=-1', async ({ path, key, idOfA }) => {
      const page = dataOf<Page<Record<string, unknown>>>(await pboB.get(`${path}?pageSize=-1`));
      expect(page.records.length).toBeGreaterThan(0);
      expect(page.records.map((record) => record[key])).not.toContain(idOfA());
      expect(page.records.map((record) => record.groupId)).toEqual(page.records.map(() => pboB.groupId));
      expect(page.total).toBe(page.records.length);
    });

    it("should not list A's objects to B by id or name", async () => {
      const records = async (path: string) => dataOf<Page<unknown>>(await pboB.get(path)).records;
      const emvA = aBefore.emv;
      const acquirerA = aBefore.acquirer;
      expect({
        emvByName: await records(`${V1}/emv?pageSize=-1&emvName=${encodeURIComponent(emvA.emvName)}`),
        acquirerByName: await records(`${V1}/acquirer?pageSize=-1&profileName=${encodeURIComponent(acquirerA.profileName)}`),
        merchantByMchId: await records(`${V1}/mchInfo?pageSize=-1&mchId=${a.merchant.mchId}`),
        merchantByUuid: await records(`${V1}/mchInfo?pageSize=-1&uuid=${a.merchant.uuid}`),
        merchantByName: await records(`${V1}/mchInfo?pageSize=-1&mchName=${encodeURIComponent(a.merchant.mchName as string)}`),
      }).toEqual({ emvByName: [], acquirerByName: [], merchantByMchId: [], merchantByUuid: [], merchantByName: [] });
    });
  });

  describe('the group comes only from the token', () => {
    it.each([
      call(
        'POST /mchInfo',
        'POST',
        () => `${V1}/mchInfo`,
        () => merchantBody(),
      ),
      call(
        'PUT /mchInfo/{B}',
        'PUT',
        () => `${V1}/mchInfo/${b.merchant.mchId}`,
        () => merchantBody(),
      ),
      call(
        'POST /emv',
        'POST',
        () => `${V1}/emv`,
        () => emvBody(),
      ),
      call(
        'PUT /emv/{B}',
        'PUT',
        () => `${V1}/emv/${b.emvId}`,
        () => emvBody(),
      ),
      call(
        'POST /acquirer',
        'POST',
        () => `${V1}/acquirer`,
        () => acquirerBody({ '01': [b.emvId] }),
      ),
      call(
        'PUT /acquirer/{B}',
        'PUT',
        () => `${V1}/acquirer/${b.profileId}`,
        () => ({ profileName: unique('renamed-') }),
      ),
      call(
        'POST /mchInfo/payment/{B}',
        'POST',
        () => `${V1}/mchInfo/payment/${b.merchant.mchId}`,
        () => paymentConfigBody(b.profileId, b.emvId),
      ),
      call(
        'PUT /mchInfo/payment/{B}',
        'PUT',
        () => `${V1}/mchInfo/payment/${b.merchant.mchId}`,
        () => paymentConfigBody(b.profileId, b.emvId),
      ),
    ])('should refuse groupId in the body of $name with code 10000', async ({ method, path, body }) => {
      const response = await pboB.request(method, path(), { ...(body!() as Body), groupId: pboA.groupId });
      expectEnvelope(response, 400, 10000, /^groupId is not an accepted field/);
    });

    it.each([`${V1}/mchInfo`, `${V1}/emv`, `${V1}/acquirer`])('should refuse groupId in the query of GET %s with code 10000', async (path) => {
      const response = await pboB.get(`${path}?groupId=${pboA.groupId}`);
      expectEnvelope(response, 400, 10000, /^groupId is not an accepted field/);
    });

    it.each([
      ['without a groupId claim', {}],
      ['with an empty groupId', { groupId: '' }],
      ['with a numeric groupId', { groupId: 42 }],
      ['with a groupId list', { groupId: ['x'] }],
    ])('should refuse a token %s with 401 and code 11000', async (_name, claims) => {
      const client = new ApiClient(app.baseUrl, await tokenWith(claims, pboA.groupId));
      for (const [method, path, body] of [
        ['GET', `${V1}/mchInfo?pageSize=-1`, undefined],
        ['GET', `${V1}/emv/${a.emvId}`, undefined],
        ['POST', `${V1}/mchInfo`, merchantBody()],
      ] as const) {
        const response = await client.request(method, path, body);
        expect({ route: `${method} ${path}`, status: response.status, body: response.body }).toEqual({
          route: `${method} ${path}`,
          status: 401,
          body: { code: 11000, msg: expect.any(String), data: 401 },
        });
      }
    });

    it('should take the group from groupId, not from the subject, when they differ', async () => {
      const client = new ApiClient(app.baseUrl, await tokenWith({ groupId: pboB.groupId }, pboA.groupId));
      expectEnvelope(await client.get(`${V1}/emv/${a.emvId}`), 403, 13000);
      expect(dataOf<{ id: number }>(await client.get(`${V1}/emv/${b.emvId}`)).id).toBe(b.emvId);
    });

    it("should not show A's objects to a token whose group does not exist", async () => {
      const client = await app.clientFor(unique('ghost-'));
      expectEnvelope(await client.get(`${V1}/emv/${a.emvId}`), 403, 13000);
      expectEnvelope(await client.get(`${V1}/mchInfo/${a.merchant.mchId}`), 403, 13000);
      expect((await client.post(`${V1}/mchInfo`, merchantBody())).body).toMatchObject({ code: 11000 });
      const list = await client.get<Page<unknown>>(`${V1}/mchInfo?pageSize=-1`);
      expect(list.status === 401 || list.body.data?.records.length === 0).toBe(true);
    });
  });

  describe('afterwards', () => {
    it('should let A read all its objects back unchanged', async () => {
      expect(await readBack(pboA, a)).toEqual(aBefore);
    });

    it("should have left B's own objects unchanged by the refused requests", async () => {
      expect(await readBack(pboB, b)).toEqual(bBefore);
    });
  });
});
