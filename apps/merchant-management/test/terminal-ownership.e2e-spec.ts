import { uniqueTid } from '@app/host-protocol/testing/factories';
import { createCardAcquirer, createMerchant, dataOf, unique } from '@app/testing';
import fc from 'fast-check';
import { deviceScenarios, expectEnvelope, Pbo, V1 } from './device-support';
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
