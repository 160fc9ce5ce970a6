import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { ApiClient, createCardAcquirer, createMerchant, dataOf, gatewayBase, startTestApp, TestApp, unique, waitFor } from '@app/testing';
import { TEST_CARDS } from '@app/host-protocol';
import { PboService } from '../../merchant-management/src';
import { StandaloneModule } from '../../standalone/src';
import { cliDataDir, CliRun, runCli } from './cli-process';

/**
 * `npm run -s cli -- sale`: the CLI plays the phone against every context in one process
 * (StandaloneModule: merchant-management, the gateway, the host connector with the MOCK host), as
 * the README's walkthrough does: a PBO's card acquirer, a merchant, a device activated by the CLI,
 * then sales taken with test cards and printed as the gateway's Transaction.
 *
 * Needs the gateway's `POST /{ns}/api/v1/transaction` (issue 13, built alongside): until it is
 * merged, these tests fail with the gateway's 404.
 */

interface Transaction {
  tranId: string;
  tranType: string;
  tranStatus: string;
  amount: { value: string; currency: string };
  paymentMethod: string;
  accountMasked: string;
  accountLast4: string;
  sdkId: string;
  profileId: string;
  posReference: string | null;
  rrn: string | null;
  approvalCode: string | null;
  actions: { actionType: string; actionStatus: string }[];
}

const transactionOf = (run: CliRun): Transaction => {
  if (run.status !== 0) throw new Error(`the CLI failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as Transaction;
};

describe('cli: sale (needs the gateway transaction endpoint)', () => {
  let app: TestApp;
  let pbo: ApiClient;
  let dataDir: string;
  let deviceId: string;
  let profileId: string;

  beforeAll(async () => {
    app = await startTestApp((options) => StandaloneModule.register(options));
    const created = await app.app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur' });
    pbo = await app.clientFor(created.groupId);
    const acquirer = await createCardAcquirer(pbo, ['01', '02']);
    const merchant = await createMerchant(pbo, { country: 'MY' });
    dataOf(await pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirer.id), currency: 'MYR' }));
    const code = dataOf<{ activationCode: string; profileId: string }>(
      await pbo.post('/api/openapi/v1/device', {
        mchId: merchant.mchId,
        deviceAlias: 'CLI till',
        extParams: { acquirers: { [acquirer.id]: { acqMid: '000000000000042', acqTid: 'TCLI0001' } } },
      }),
    );
    profileId = code.profileId;
    await waitFor(
      'the device profile at the gateway',
      async () => (await pbo.get(`${gatewayBase(DEFAULT_GATEWAY_NAMESPACE)}/profiles/${profileId}`)).status === 200,
      30_000,
    );
    dataDir = cliDataDir();
    const activated = await runCli(dataDir, ['device', 'activate', '--code', code.activationCode, '--url', app.baseUrl]);
    if (activated.status !== 0) throw new Error(`activation failed: ${activated.stderr}`);
    deviceId = (JSON.parse(activated.stdout) as { deviceId: string }).deviceId;
  });
  afterAll(() => app?.close());

  it('should take a sale with a test card and print the approved Transaction, masked', async () => {
    const run = await runCli(dataDir, ['sale', '--amount', '12.5', '--card', 'visa', '--pos-reference', 'cli-0001']);

    const transaction = transactionOf(run);
    expect(transaction).toMatchObject({
      tranId: expect.stringMatching(/^tran_[A-Za-z0-9_-]{22}$/),
      tranType: 'SALE',
      tranStatus: 'APPROVED',
      amount: { value: '12.50', currency: 'MYR' },
      paymentMethod: 'VISA',
      accountMasked: '476173******0119',
      accountLast4: '0119',
      sdkId: deviceId,
      profileId,
      posReference: 'cli-0001',
      rrn: expect.stringMatching(/\S/),
      approvalCode: expect.stringMatching(/\S/),
    });
    expect(transaction.actions[0]).toMatchObject({ actionType: 'NEW', actionStatus: 'SUCCESS' });
    expect(run.stdout + run.stderr).not.toContain(TEST_CARDS.visa.pan);
  });

  it("should tap the scheme of the device's first AID by default and print a declined test amount without failing", async () => {
    const transaction = transactionOf(await runCli(dataDir, ['sale', '--amount', '10.51']));

    expect(transaction).toMatchObject({ tranType: 'SALE', tranStatus: 'DECLINED', amount: { value: '10.51', currency: 'MYR' } });
    expect(['VISA', 'MASTERCARD']).toContain(transaction.paymentMethod);
  });

  it('should ask for a pre-authorisation with --auth', async () => {
    const transaction = transactionOf(await runCli(dataDir, ['sale', '--amount', '40.00', '--card', 'mastercard', '--auth']));

    expect(transaction).toMatchObject({ tranType: 'AUTH', tranStatus: 'APPROVED', paymentMethod: 'MASTERCARD', accountMasked: '541333******0434' });
  });

  it('should answer the stored Transaction to a repeat with the same Idempotency-Key', async () => {
    const key = `cli-${unique()}`;
    const first = transactionOf(await runCli(dataDir, ['sale', '--amount', '7.00', '--idempotency-key', key]));
    const again = transactionOf(await runCli(dataDir, ['sale', '--amount', '7.00', '--idempotency-key', key]));

    expect(again.tranId).toBe(first.tranId);
  });

  it("should fail with the gateway's problem detail when the gateway refuses: a currency the profile does not take", async () => {
    const run = await runCli(dataDir, ['sale', '--amount', '5.00', '--currency', 'USD']);

    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 1, stdout: '' });
    expect(run.stderr).toMatch(/^error: sale refused: .*currency.* \(HTTP 400, request \S+\)$/im);
  });
});
