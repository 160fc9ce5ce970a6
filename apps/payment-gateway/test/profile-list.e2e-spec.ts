import { createProfile, ProfilePageView, ProfileWithAcptView } from './factories';
import { bodyOf, GatewayClient, GatewayTestApp, startGateway } from './support';

/** GET /profiles: cursor pages of the PBO's own profiles, oldest first. */
describe('gateway profile list', () => {
  let app: GatewayTestApp;
  let pbo: GatewayClient;
  let created: ProfileWithAcptView[];

  beforeAll(async () => {
    app = await startGateway();
    pbo = await app.newPbo();
    created = [];
    for (let i = 0; i < 25; i++) created.push(await createProfile(pbo));
    // Another PBO's profiles are never listed nor counted.
    const other = await app.newPbo();
    for (let i = 0; i < 3; i++) await createProfile(other);
  });

  afterAll(() => app.close());

  async function page(query: string): Promise<ProfilePageView> {
    return bodyOf<ProfilePageView>(await pbo.get(`/profiles${query}`));
  }

  function expectProblem(response: { status: number; body: unknown }, detail: RegExp): void {
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400, detail: expect.stringMatching(detail) as string });
  }

  it('should page forward through every profile of the PBO once, oldest first', async () => {
    const first = await page('?pageSize=10');
    const second = await page(`?pageSize=10&cursor=${first.nextCursor}`);
    const third = await page(`?pageSize=10&cursor=${second.nextCursor}`);

    expect([first, second, third].map((p) => [p.hasNext, p.data.length, p.totalSize, p.pageSize])).toEqual([
      [true, 10, 25, 10],
      [true, 10, 25, 10],
      [false, 5, 25, 10],
    ]);
    expect(third.nextCursor).toBeNull();
    expect([...first.data, ...second.data, ...third.data].map((p) => p.profileId)).toEqual(created.map((p) => p.profileId));
  });

  it('should list profiles without their acceptances', async () => {
    const { data } = await page('?pageSize=1');

    const { acceptances: _acceptances, acptSelection: _acptSelection, ...profile } = created[0];
    expect(data).toEqual([profile]);
  });

  it('should answer 20 profiles per page by default', async () => {
    const first = await page('');

    expect(first).toMatchObject({ pageSize: 20, hasNext: true });
    expect(first.data).toHaveLength(20);
  });

  it("should go back from a page's currentCursor to the page before it", async () => {
    const first = await page('?pageSize=10');
    const second = await page(`?pageSize=10&cursor=${first.nextCursor}`);

    const back = await page(`?pageSize=10&isForward=false&cursor=${second.currentCursor}`);

    expect(back.data.map((p) => p.profileId)).toEqual(first.data.map((p) => p.profileId));
    expect(back.hasNext).toBe(false);
    expect(back.nextCursor).toBeNull();
  });

  it('should continue backward with nextCursor', async () => {
    const last = await page('?pageSize=10&isForward=false');
    const before = await page(`?pageSize=10&isForward=false&cursor=${last.nextCursor}`);

    expect(last.hasNext).toBe(true);
    expect(before.data.map((p) => p.profileId)).toEqual(created.slice(5, 15).map((p) => p.profileId));
  });

  it('should start from the newest page when going backward without a cursor', async () => {
    const last = await page('?pageSize=10&isForward=false');

    expect(last.data.map((p) => p.profileId)).toEqual(created.slice(15).map((p) => p.profileId));
    expect(last.currentCursor).toBe((await page(`?pageSize=10&cursor=${(await page('?pageSize=15')).nextCursor}`)).currentCursor);
  });

  it('should answer an empty page for a PBO without profiles', async () => {
    const empty = bodyOf<ProfilePageView>(await (await app.newPbo()).get('/profiles'));

    expect(empty).toEqual({ hasNext: false, pageSize: 20, totalSize: 0, currentCursor: '', nextCursor: null, data: [] });
  });

  it.each([['0'], ['101'], ['ten'], ['1.5']])('should refuse pageSize=%s, naming the field', async (pageSize) => {
    expectProblem(await pbo.get(`/profiles?pageSize=${pageSize}`), /^pageSize /);
  });

  it('should refuse isForward that is not true or false', async () => {
    expectProblem(await pbo.get('/profiles?isForward=yes'), /^isForward /);
  });

  it('should refuse a cursor it did not issue', async () => {
    expectProblem(await pbo.get('/profiles?cursor=bm90LWEtY3Vyc29y'), /^cursor is not a cursor this API issued$/);
  });

  it('should refuse an unknown query parameter', async () => {
    expectProblem(await pbo.get('/profiles?pageNumber=2'), /^pageNumber is not an accepted field$/);
  });
});
