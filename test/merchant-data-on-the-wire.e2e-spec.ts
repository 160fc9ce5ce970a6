import { Iso8583JsFields } from '@app/iso8583/test/iso-8583-js';
import { dataOf, startTestApp, TestApp, unique } from '@app/testing';
import { localOf } from '../apps/host-connector/test/wire-reading';
import { HostSandbox, hostSandboxSettingsFrom, StandaloneModule, startHostSandbox } from '../apps/standalone/src';
import { activated, activateTill, ADMIN_PASSWORD, Acquiring, newTid, onboardMerchant, tap, Till } from './money-support';
import { WireTap } from './wire-tap';

const MERCHANT = { mchName: 'Kopi Corner Sdn Bhd', contactAddress: '1 Jalan Ampang, Kuala Lumpur', country: 'MY', mcc: '5814', timeZone: 'Asia/Kuala_Lumpur' };

/** Field 43 as ISO 8583:1987 lays it out: name in 25, city in 13, country alpha-2 in 2, space-padded. */
const field43 = (name: string, city: string, country: string) => `${name.padEnd(25)}${city.padEnd(13)}${country}`;

/** Fields 12/13 in Kuala Lumpur, which keeps UTC+8 all year: field 7 (UTC, MMDDhhmmss) eight hours on, by hand. */
const klLocalOf = (transmittedAt: string) => localOf(transmittedAt, 8 * 60);

/**
 * Merchant data from merchant-management to the bytes the acquirer host receives (issue 16, item
 * 7): the acquirer profile's and device's `acqInstId` and the device's `subMchDba`, the merchant's
 * name, address, MCC, country and time zone, written over the v1 and the legacy v2 API, pushed to
 * the gateway with the activation profile, and sent by the host connector with a sale. What the
 * simulator received is read by the npm package `iso_8583` from a relay in front of it
 * (wire-tap.ts), not by our codec or the simulator's mapping.
 */
describe('merchant data from merchant-management reaches the host: fields 12, 13, 18, 19, 32 and 43 of a sale', () => {
  let hosts: HostSandbox;
  let app: TestApp;
  let wire: WireTap;

  beforeAll(async () => {
    hosts = await startHostSandbox(hostSandboxSettingsFrom({ HOST_ECHO_INTERVAL_MS: '0', HOST_TIMEOUT_MS: '3000' }));
    app = await startTestApp((options) => StandaloneModule.register(options, hosts.config));
    wire = await WireTap.start(hosts.simulator!.connUrls.ISO8583!);
  });

  afterAll(async () => {
    await app?.close();
    await wire?.close();
    await hosts?.close();
  });

  /** The one sale (0200) the host received from terminal `tid`, as iso_8583 read it. */
  function saleReceived(tid: string): Iso8583JsFields {
    const sales = wire.read().filter((request) => request[0] === '0200' && request[41] === tid);
    expect(sales).toHaveLength(1);
    return sales[0];
  }

  async function approvedSale(till: Till): Promise<void> {
    const sale = await tap(till, '12.50');
    expect(sale).toMatchObject({ tranStatus: 'APPROVED', hostMessageFormat: 'ISO8583' });
  }

  it('should put the device’s subMchDba in 43 and the acquirer profile’s acqInstId in 32 (v1), with the merchant in 18, 19, 43 and its clock in 12/13', async () => {
    const acquiring = await onboardMerchant(app, 'ISO8583', {
      acquirer: { connUrl: wire.url, connExtraParams: JSON.stringify({ acqInstId: '60012345', clientId: 'not for the gateway' }) },
      merchant: MERCHANT,
    });
    const tid = newTid();
    const till = await activateTill(app, acquiring, { mid: 'MID000000000042', tid }, 'Till 1', { subMchDba: 'Kopi Stall 7' });

    await approvedSale(till);

    const sale = saleReceived(tid);
    // The facilitator's name cut to 12 (`Kopi Corner `, trimmed), a star, the sub-merchant.
    expect(sale[43]).toBe(field43('Kopi Corner*Kopi Stall 7', 'Kuala Lumpur', 'MY'));
    expect([sale[32], sale[18], sale[19], sale[41], sale[42]]).toEqual(['60012345', '5814', '458', tid, 'MID000000000042']);
    expect({ 12: sale[12], 13: sale[13] }).toEqual(klLocalOf(sale[7]));
    // The simulator read the same with its own code.
    expect(hosts.simulator!.cardAcceptorSeen('ISO8583', tid)).toMatchObject({ acquirerId: '60012345', name: 'Kopi Corner*Kopi Stall 7' });
  });

  it('should take acqInstId and subMchDba written over the legacy v2 API, the device’s acqInstId over the acquirer profile’s', async () => {
    const acquiring: Acquiring = await onboardMerchant(app, 'ISO8583', { acquirer: { connUrl: wire.url }, merchant: MERCHANT });
    const { pbo } = acquiring;
    // The legacy acquirer update: connExtraParams as an object; the profile's devices get it on their next push.
    dataOf(await pbo.put(`/api/v2/acquirer/${acquiring.acquirer}`, { connExtraParams: { acqInstId: '60012345' } }));
    const tid = newTid();
    // The legacy device create: flat extParams, kept for every acquirer the merchant is bound to.
    const code = dataOf<{ activationCode: string }>(
      await pbo.post('/api/v2/device', {
        activateCodeAlias: unique('Till '),
        deviceType: 'COTS',
        mchId: acquiring.mchId,
        deviceAdmin: ADMIN_PASSWORD,
        extParams: { acqMid: 'MID000000000043', acqTid: tid, subMchDba: 'Warung Ali', acqInstId: '7001' },
      }),
    );
    const till = await activated(app, pbo, code.activationCode);

    await approvedSale(till);

    const sale = saleReceived(tid);
    expect(sale[43]).toBe(field43('Kopi Corner*Warung Ali', 'Kuala Lumpur', 'MY'));
    expect([sale[32], sale[18], sale[19], sale[42]]).toEqual(['7001', '5814', '458', 'MID000000000043']);
    expect({ 12: sale[12], 13: sale[13] }).toEqual(klLocalOf(sale[7]));
  });

  it('should refuse an acqInstId or subMchDba the host could not take where it is written, naming the field (10000)', async () => {
    const acquiring = await onboardMerchant(app, 'ISO8583', { acquirer: { connUrl: wire.url }, merchant: MERCHANT });
    const { pbo } = acquiring;
    const refusal = (response: { status: number; body: unknown }) => ({ status: response.status, ...(response.body as { code: number; msg: string }) });

    expect(refusal(await pbo.put(`/api/openapi/v1/acquirer/${acquiring.acquirer}`, { connExtraParams: JSON.stringify({ acqInstId: 'BANK-1' }) }))).toMatchObject({
      status: 400,
      code: 10000,
      msg: expect.stringContaining('connExtraParams.acqInstId must be 1 to 11 digits (the acquiring institution id, field 32)'),
    });
    expect(refusal(await pbo.put(`/api/v2/acquirer/${acquiring.acquirer}`, { connExtraParams: { acqInstId: 60012345 } }))).toMatchObject({
      status: 400,
      code: 10000,
      msg: expect.stringContaining('connExtraParams.acqInstId must be 1 to 11 digits'),
    });
    expect(
      refusal(
        await pbo.post('/api/openapi/v1/device', {
          mchId: acquiring.mchId,
          deviceAlias: 'Till 9',
          extParams: { acquirers: { [acquiring.acquirer]: { acqMid: 'MID000000000044', acqTid: newTid(), subMchDba: '   ' } } },
        }),
      ),
    ).toMatchObject({ status: 400, code: 10000, msg: expect.stringContaining(`extParams.acquirers.${acquiring.acquirer}.subMchDba must be 1 to 64 characters`) });
    expect(
      refusal(
        await pbo.post('/api/v2/device', {
          activateCodeAlias: unique('Till '),
          deviceType: 'COTS',
          mchId: acquiring.mchId,
          extParams: { acqMid: 'MID000000000044', acqTid: newTid(), acqInstId: '123456789012' },
        }),
      ),
    ).toMatchObject({ status: 400, code: 10000, msg: expect.stringContaining('extParams.acqInstId must be 1 to 11 digits') });
  });
});
