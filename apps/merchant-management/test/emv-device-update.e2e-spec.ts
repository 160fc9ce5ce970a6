import { acquirerBody, createCardAcquirer, createEmv, createMerchant, dataOf, emvBody } from '@app/testing';
import { legacyEmvBody, V2 } from './legacy-factories';
import { deviceScenarios, expectEnvelope, MASTERCARD_AID, Pbo, V1, VISA_AID } from './device-support';
import { setTimeout as delay } from 'node:timers/promises';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

const EMV = `${V1}/emv`;
const ACQUIRER = `${V1}/acquirer`;
const OTHER_VISA_AID = 'A0000000032010';

/**
 * An EMV config change reaches the phones that use it (docs/decisions.md, "Activation profile"):
 * an activated device whose acceptances carry the config's method is flagged to pull (deviceUpdate
 * 1), and the config's payment method never drifts from the method an acquirer lists it under.
 */
describe('EMV config changes and devices (v1)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  const { bind, createDevice, getDevice, activate, pullConfig } = deviceScenarios(() => app);

  /** A merchant bound to a VISA/MASTERCARD profile; answers the VISA EMV config's id. */
  async function boundMerchantWithEmv(pbo: Pbo) {
    const acquirer = await createCardAcquirer(pbo, ['01', '02']);
    const merchant = await createMerchant(pbo, { country: 'MY' });
    await bind(pbo, merchant.mchId, acquirer.id);
    return { merchant, visaEmvId: acquirer.emvs['01'][0] };
  }

  async function activatedDevice(pbo: Pbo, mchId: string, body: Record<string, unknown> = {}) {
    const created = await createDevice(pbo, { mchId, ...body });
    const activation = await activate(created.activationCode);
    return { id: created.id, token: activation.deviceToken };
  }

  const deviceUpdateOf = async (pbo: Pbo, id: string) => (await getDevice(pbo, id))?.deviceUpdate;
  const visaBody = (aid: string) => emvBody({ emvName: 'Visa CL', paymentMethod: '01', params: JSON.stringify({ aid, clFloorLimit: 0, clTransLimit: 100, clCVMLimit: 25000 }) });

  it('should flag the activated devices an EMV config reaches with deviceUpdate 1 until they pull, and no other device', async () => {
    const pbo = await app.newPbo();
    const { merchant, visaEmvId } = await boundMerchantWithEmv(pbo);
    const user = await activatedDevice(pbo, merchant.mchId);
    const mastercardOnly = await activatedDevice(pbo, merchant.mchId, { methodList: '02' });
    const pending = await createDevice(pbo, { mchId: merchant.mchId });
    const other = await boundMerchantWithEmv(pbo);
    const otherMerchantDevice = await activatedDevice(pbo, other.merchant.mchId);
    expect(await deviceUpdateOf(pbo, user.id)).toBe(0);

    dataOf(await pbo.put(`${EMV}/${visaEmvId}`, visaBody(`${VISA_AID},${OTHER_VISA_AID}`)));

    expect(await deviceUpdateOf(pbo, user.id)).toBe(1);
    expect(await deviceUpdateOf(pbo, mastercardOnly.id)).toBe(0);
    expect(await deviceUpdateOf(pbo, pending.id)).toBe(0);
    expect(await deviceUpdateOf(pbo, otherMerchantDevice.id)).toBe(0);
    const config = dataOf(await pullConfig(user.token));
    expect(config.emvAID).toEqual(
      expect.arrayContaining([
        { aid: VISA_AID, paymentMethod: '01' },
        { aid: OTHER_VISA_AID, paymentMethod: '01' },
        { aid: MASTERCARD_AID, paymentMethod: '02' },
      ]),
    );
    expect(await deviceUpdateOf(pbo, user.id)).toBe(0);
  });

  it('should flag the devices through the legacy PUT too, keeping the currency a v1 client set', async () => {
    const pbo = await app.newPbo();
    const { merchant, visaEmvId } = await boundMerchantWithEmv(pbo);
    const user = await activatedDevice(pbo, merchant.mchId);

    dataOf(await pbo.put(`${V2}/emv/${visaEmvId}`, legacyEmvBody({ params: { aid: `${VISA_AID},${OTHER_VISA_AID}`, clTransLimit: 100 } })));

    expect(await deviceUpdateOf(pbo, user.id)).toBe(1);
    expect(dataOf<{ currency: string | null; aid: string }>(await pbo.get(`${EMV}/${visaEmvId}`))).toMatchObject({ currency: 'MYR', aid: `${VISA_AID},${OTHER_VISA_AID}` });
  });

  it('should leave deviceUpdate 0 when a PUT sends the EMV config as it is', async () => {
    const pbo = await app.newPbo();
    const { merchant, visaEmvId } = await boundMerchantWithEmv(pbo);
    const body = visaBody(VISA_AID);
    dataOf(await pbo.put(`${EMV}/${visaEmvId}`, body));
    const user = await activatedDevice(pbo, merchant.mchId);
    dataOf(await pbo.put(`${EMV}/${visaEmvId}`, body));
    expect(await deviceUpdateOf(pbo, user.id)).toBe(0);
  });

  it('should never leave an acquirer listing an EMV config under a method that is not the config\'s, whatever the order of concurrent PUTs', async () => {
    const pbo = await app.newPbo();
    const pairs = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const visa = await createEmv(pbo, { paymentMethod: '01' });
        const mastercard = await createEmv(pbo, { paymentMethod: '02' });
        const moving = await createEmv(pbo, { paymentMethod: '01' });
        const acquirer = dataOf<{ id: number }>(await pbo.post(ACQUIRER, acquirerBody({ '01': [visa], '02': [mastercard] }))).id;
        return { visa, mastercard, moving, acquirer };
      }),
    );

    const outcomes = await Promise.all(
      pairs.map(async ({ visa, mastercard, moving, acquirer }, index) => {
        // The EMV PUT starts a little later in each pair, so the pairs cover many interleavings.
        const [listed, moved] = await Promise.all([
          pbo.put(`${ACQUIRER}/${acquirer}`, { emvList: JSON.stringify({ '01': [visa, moving], '02': [mastercard] }) }),
          delay(index % 4).then(() => pbo.put(`${EMV}/${moving}`, emvBody({ paymentMethod: '02' }))),
        ]);
        const method = dataOf<{ paymentMethod: string }>(await pbo.get(`${EMV}/${moving}`)).paymentMethod;
        const emvList = JSON.parse(dataOf<{ emvList: string }>(await pbo.get(`${ACQUIRER}/${acquirer}`)).emvList) as Record<string, number[]>;
        const listedUnder = Object.keys(emvList).filter((code) => emvList[code].includes(moving));
        return { listed: listed.status, moved: moved.status, method, listedUnder, listedBody: listed.body, movedBody: moved.body };
      }),
    );

    for (const outcome of outcomes) {
      // Either the acquirer listed it first (the move is refused) or the move came first (the listing is refused).
      expect(outcome.listedUnder.every((code) => code === outcome.method)).toBe(true);
      if (outcome.listed === 200) expectEnvelope({ status: outcome.moved, body: outcome.movedBody } as never, 409, 10000, /paymentMethod cannot change/);
      else expectEnvelope({ status: outcome.listed, body: outcome.listedBody } as never, 400, 10000, /configured for payment method 02/);
    }
  });
});
