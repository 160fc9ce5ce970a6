import { AllowList } from '@app/common';
import { HOST_ADDRESS_CHECK_V1 } from '@app/contracts';
import { uniqueTid } from '@app/host-protocol/testing/factories';
import { HostAddressPolicy, RequestReplyError } from '@app/messaging';
import { createCardAcquirer, createMerchant, dataOf, unique } from '@app/testing';
import fc from 'fast-check';
import { hostAddressCheckReply, socketAddressesOfHost } from '../../host-connector/src';
import { deviceScenarios, expectEnvelope, Pbo, V1 } from './device-support';
import { legacyDeviceBody, V2 } from './legacy-factories';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * One owner per terminal identity (docs/decisions.md, "One owner per terminal identity"), as
 * merchant-management's API tells it: a device whose MID/TID at an acquirer host (format and
 * address) a device of another PBO already names is refused with 409, naming the MID/TID.
 */
describe('a MID/TID at a host belongs to one PBO (merchant-management)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const { createDevice, bind } = deviceScenarios(() => app);

  /** A PBO with a merchant bound to a VISA acquirer reached directly over `format` at `connUrl`. */
  async function pboAtHost(connUrl: string, format = 'ISO8583'): Promise<{ pbo: Pbo; mchId: string; acquirerId: number }> {
    const pbo = await app.newPbo();
    const acquirer = await createCardAcquirer(pbo, ['01'], { connMessageFormat: format, enablerMsgFormat: undefined, connUrl, enablerParams: 'acqMid,acqTid' });
    const merchant = await createMerchant(pbo, { country: 'MY' });
    await bind(pbo, merchant.mchId, acquirer.id);
    return { pbo, mchId: merchant.mchId, acquirerId: acquirer.id };
  }

  const terminal = (at: { acquirerId: number }, mid: string, tid: string) => ({ acquirers: { [at.acquirerId]: { acqMid: mid, acqTid: tid } } });
  const newMid = () => `M${unique()}`.toUpperCase().slice(0, 15);

  it("should refuse another PBO's device with the same MID/TID at the same host (however the address is spelt), naming them", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('tcp://acq.example:5000', 'tcp://ACQ.example:5000', 'tcp://acq.example:5000/'), async (spelling) => {
        const [mid, tid] = [newMid(), uniqueTid()];
        const a = await pboAtHost('tcp://acq.example:5000');
        const b = await pboAtHost(spelling);
        await createDevice(a.pbo, { mchId: a.mchId, extParams: terminal(a, mid, tid) });

        const refused = await b.pbo.post(`${V1}/device`, { mchId: b.mchId, extParams: terminal(b, mid, tid) });
        expectEnvelope(refused, 409, 10000, new RegExp(`^MID ${mid} / TID ${tid} at ISO8583 host tcp://acq\\.example:5000 is another PBO's terminal$`));
        expect(JSON.stringify(refused.body)).not.toContain(a.pbo.groupId);
        // The same PBO may name its own terminal again (a second device of the merchant).
        await createDevice(a.pbo, { mchId: a.mchId, extParams: terminal(a, mid, tid) });
      }),
      { numRuns: 3 },
    );
  });

  it('should take another TID, another host or another format, and refuse a PUT that moves a device onto the terminal', async () => {
    const [mid, tid] = [newMid(), uniqueTid()];
    const a = await pboAtHost('tcp://acq.example:5100');
    await createDevice(a.pbo, { mchId: a.mchId, extParams: terminal(a, mid, tid) });
    const sameHost = await pboAtHost('tcp://acq.example:5100');
    const otherHost = await pboAtHost('tcp://acq.example:5101');
    const otherFormat = await pboAtHost('tcp://acq.example:5100', 'S2M_8583');

    const own = await createDevice(sameHost.pbo, { mchId: sameHost.mchId, extParams: terminal(sameHost, mid, uniqueTid()) });
    await createDevice(otherHost.pbo, { mchId: otherHost.mchId, extParams: terminal(otherHost, mid, tid) });
    await createDevice(otherFormat.pbo, { mchId: otherFormat.mchId, extParams: terminal(otherFormat, mid, tid) });

    const moved = await sameHost.pbo.put(`${V1}/device/${own.id}`, { extParams: JSON.stringify(terminal(sameHost, mid, tid)) });
    expectEnvelope(moved, 409, 10000, new RegExp(`MID ${mid} / TID ${tid}`));
  });

  // r14c item 4: two PBOs creating a device on one terminal at the same moment both got 200 (3 of 6 trials).
  it('should let exactly one PBO have a terminal when several write it at the same moment, on any write path (v1 or /api/v2 create, PUT of an older device)', async () => {
    type Path = 'v1' | 'v2' | 'put';
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom<Path>('v1', 'v2', 'put'), { minLength: 2, maxLength: 4 }), fc.constantFrom<string | null>(null, 'tcp://acq.example:5900'), async (paths, connUrl) => {
        const [mid, tid] = [newMid(), uniqueTid()];
        const writers = await Promise.all(
          paths.map(async (path) => {
            const at = await pboAtHost(connUrl as string);
            // A PUT moves a device created before the race (on another terminal) onto this one.
            const older = path === 'put' ? await createDevice(at.pbo, { mchId: at.mchId, extParams: terminal(at, mid, uniqueTid()) }) : undefined;
            return { at, path, older };
          }),
        );
        const answers = await Promise.all(
          writers.map(({ at, path, older }) =>
            path === 'v1'
              ? at.pbo.post(`${V1}/device`, { mchId: at.mchId, extParams: terminal(at, mid, tid) })
              : path === 'v2'
                ? at.pbo.post(`${V2}/device`, legacyDeviceBody(at.mchId, { extParams: terminal(at, mid, tid) }))
                : at.pbo.put(`${V1}/device/${older!.id}`, { extParams: JSON.stringify(terminal(at, mid, tid)) }),
          ),
        );
        const statuses = answers.map((answer) => answer.status);
        expect({ paths, statuses: [...statuses].sort() }).toEqual({ paths, statuses: ['200', ...paths.slice(1).map(() => '409')].map(Number).sort() });
        for (const refused of answers.filter((answer) => answer.status === 409)) expectEnvelope(refused, 409, 10000, new RegExp(`^MID ${mid} / TID ${tid} at `));
      }),
      { numRuns: 8 },
    );
  });

  it("should free the terminal when the owner's device is decommissioned or its code deleted", async () => {
    const [mid, tid] = [newMid(), uniqueTid()];
    const a = await pboAtHost('tcp://acq.example:5200');
    const b = await pboAtHost('tcp://acq.example:5200');
    const code = await createDevice(a.pbo, { mchId: a.mchId, extParams: terminal(a, mid, tid) });
    expectEnvelope(await b.pbo.post(`${V1}/device`, { mchId: b.mchId, extParams: terminal(b, mid, tid) }), 409, 10000);

    dataOf(await a.pbo.delete(`${V1}/device/${code.id}`));

    await createDevice(b.pbo, { mchId: b.mchId, extParams: terminal(b, mid, tid) });
  });
});

/**
 * The terminal at the connector's default host, however its address is spelt (issue 14, review
 * r14; docs/decisions.md, "A terminal is claimed at write time on the connector's endpoint"): the
 * host connector's own answer to `host.address.check.v1` (its default ISO8583 address being the
 * standalone simulator's) names an explicit spelling of the default as the default, so a device of
 * another PBO there is 409 on v1 and on /api/v2, before any sign-on can race for the terminal.
 */
describe("a MID/TID at the connector's default host belongs to one PBO, whether or not the acquirer spells the default", () => {
  const DEFAULT_ISO = 'tcp://127.0.0.1:18583';
  const connector = {
    defaultUrls: { ISO8583: DEFAULT_ISO },
    allowList: AllowList.parse('acq.example', { allowLoopback: true, variable: 'HOST_ALLOWLIST' }),
  };
  let silent = false;
  const connectorPolicy: HostAddressPolicy = {
    check: (request) =>
      silent && request.connUrl !== undefined
        ? Promise.reject(new RequestReplyError('TIMEOUT', HOST_ADDRESS_CHECK_V1, 'no answer'))
        : hostAddressCheckReply(request, connector, (address) => socketAddressesOfHost(address)),
  };
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement({ hostAddresses: connectorPolicy });
  });
  afterAll(() => app.close());

  const { createDevice, bind } = deviceScenarios(() => app);
  const newMid = () => `5${String(unique()).replace(/\D/g, '')}`.padEnd(15, '5').slice(0, 15);

  async function pboAt(connUrl: string | null): Promise<{ pbo: Pbo; mchId: string; acquirerId: number }> {
    const pbo = await app.newPbo();
    const acquirer = await createCardAcquirer(pbo, ['01'], { connMessageFormat: 'ISO8583', enablerMsgFormat: undefined, connUrl, enablerParams: 'acqMid,acqTid' });
    const merchant = await createMerchant(pbo, { country: 'MY' });
    await bind(pbo, merchant.mchId, acquirer.id);
    return { pbo, mchId: merchant.mchId, acquirerId: acquirer.id };
  }
  const terminal = (at: { acquirerId: number }, mid: string, tid: string) => ({ acquirers: { [at.acquirerId]: { acqMid: mid, acqTid: tid } } });
  const defaultSpellings = [DEFAULT_ISO, `${DEFAULT_ISO}/`, 'tcp://[::ffff:127.0.0.1]:18583', 'tcp://[0:0:0:0:0:FFFF:7f00:1]:18583'];

  it('should refuse (409) on v1 and /api/v2 the device of a second PBO whose acquirer spells the default address, either way round', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...defaultSpellings), fc.boolean(), fc.constantFrom('v1', 'v2'), async (spelling, ownerSpells, api) => {
        const [mid, tid] = [newMid(), uniqueTid()];
        // 1. PBO1's device at the default host (no connUrl, or its spelling), not signed on.
        const owner = await pboAt(ownerSpells ? spelling : null);
        await createDevice(owner.pbo, { mchId: owner.mchId, extParams: terminal(owner, mid, tid) });
        // 2. PBO2 at the default host too, with no connUrl: 409.
        const plain = await pboAt(ownerSpells ? null : spelling);
        // 3. PBO2 through an acquirer spelling the other way: 409 as well.
        const other = await pboAt(ownerSpells ? null : spelling);
        const post = (at: typeof other) =>
          api === 'v1'
            ? at.pbo.post(`${V1}/device`, { mchId: at.mchId, extParams: terminal(at, mid, tid) })
            : at.pbo.post(`${V2}/device`, legacyDeviceBody(at.mchId, { extParams: terminal(at, mid, tid) }));
        for (const at of [plain, other]) {
          const refused = await post(at);
          expectEnvelope(refused, 409, 10000, new RegExp(`^MID ${mid} / TID ${tid} at the default ISO8583 host is another PBO's terminal$`));
          expect(JSON.stringify(refused.body)).not.toContain(owner.pbo.groupId);
        }
        // Another port of the same machine is another host.
        const elsewhere = await pboAt('tcp://127.0.0.1:18584');
        await createDevice(elsewhere.pbo, { mchId: elsewhere.mchId, extParams: terminal(elsewhere, mid, tid) });
      }),
      { numRuns: 6 },
    );
  });

  it('should refuse (409) a host name that resolves to the default host (localhost for 127.0.0.1), either way round, on v1 and /api/v2 (r14f)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('tcp://localhost:18583', 'tcp://LocalHost:18583'), fc.boolean(), fc.constantFrom('v1', 'v2'), async (name, ownerNames, api) => {
        const [mid, tid] = [newMid(), uniqueTid()];
        // 1. The owner's device (not signed on) at the default host, or at a name of it.
        const owner = await pboAt(ownerNames ? name : null);
        await createDevice(owner.pbo, { mchId: owner.mchId, extParams: terminal(owner, mid, tid) });
        // 2. Another PBO naming the same host the other way: the connector's claim would see one host; so does the 409.
        const other = await pboAt(ownerNames ? null : name);
        const refused =
          api === 'v1'
            ? await other.pbo.post(`${V1}/device`, { mchId: other.mchId, extParams: terminal(other, mid, tid) })
            : await other.pbo.post(`${V2}/device`, legacyDeviceBody(other.mchId, { extParams: terminal(other, mid, tid) }));
        const host = ownerNames ? 'the default ISO8583 host' : `ISO8583 host ${name.toLowerCase()}`;
        expectEnvelope(refused, 409, 10000, new RegExp(`^MID ${mid} / TID ${tid} at ${host.replace(/\./g, '\\.')} is another PBO's terminal$`));
        expect(JSON.stringify(refused.body)).not.toContain(owner.pbo.groupId);
        // A name of another port is another host.
        const elsewhere = await pboAt('tcp://localhost:18584');
        await createDevice(elsewhere.pbo, { mchId: elsewhere.mchId, extParams: terminal(elsewhere, mid, tid) });
      }),
      { numRuns: 6 },
    );
  });

  it("should refuse (409) an acquirer change that moves a PBO's device onto another PBO's terminal (the re-push binding and merchant changes share), changing nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(null, ...defaultSpellings), fc.constantFrom('v1', 'v2'), fc.boolean(), async (spelling, api, moverFirst) => {
        const [mid, tid] = [newMid(), uniqueTid()];
        const owner = await pboAt(null);
        const mover = await pboAt('tcp://127.0.0.1:18584');
        // 1. The owner's device at the default host (not signed on), and the other PBO's on the same
        //    MID/TID at another port of the machine (another host, free), in either order: an older
        //    device elsewhere gives no right to the owner's host (r14e).
        const devices = moverFirst ? [mover, owner] : [owner, mover];
        for (const at of devices) await createDevice(at.pbo, { mchId: at.mchId, extParams: terminal(at, mid, tid) });
        const before = await mover.pbo.get(`${V1}/acquirer/${mover.acquirerId}`);

        // 2. The mover's acquirer moved to the default host (no connUrl, or a spelling of the default): 409, nothing changed.
        const moved = api === 'v1' ? await mover.pbo.put(`${V1}/acquirer/${mover.acquirerId}`, { connUrl: spelling }) : await mover.pbo.put(`${V2}/acquirer/${mover.acquirerId}`, { connUrl: spelling });
        expectEnvelope(moved, 409, 10000, new RegExp(`^MID ${mid} / TID ${tid} at the default ISO8583 host is another PBO's terminal$`));
        expect((await mover.pbo.get(`${V1}/acquirer/${mover.acquirerId}`)).body).toEqual(before.body);
        // Another change of that acquirer, which moves no device, is still taken.
        expect((await mover.pbo.put(`${V1}/acquirer/${mover.acquirerId}`, { profileName: `renamed ${unique()}` })).status).toBe(200);
      }),
      { numRuns: 10 },
    );
  });

  it('should answer 503 and save nothing when the connector does not say which host an address reaches', async () => {
    const owner = await pboAt('tcp://acq.example:7000');
    const before = dataOf<{ total: number }>(await owner.pbo.get(`${V1}/device?mchId=${owner.mchId}`)).total;
    silent = true;
    try {
      const refused = await owner.pbo.post(`${V1}/device`, { mchId: owner.mchId, extParams: terminal(owner, newMid(), uniqueTid()) });
      expect({ status: refused.status, msg: refused.body.msg }).toEqual({ status: 503, msg: expect.stringMatching(/^the host connector did not say which host/) });
    } finally {
      silent = false;
    }
    expect(dataOf<{ total: number }>(await owner.pbo.get(`${V1}/device?mchId=${owner.mchId}`)).total).toBe(before);
  });
});
