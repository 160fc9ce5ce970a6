import { decodeContract, GATEWAY_TRANSACTION_UPDATED_V1, GatewayTransactionUpdatedV1 } from '@app/contracts';
import { bodyOf, waitFor } from '@app/testing';
import { TEST_VISA_PAN } from '../src/transaction/card/testing/test-card';
import { ProfileWithAcptView } from './factories';
import { Logger } from '@nestjs/common';
import { recordingLogger, saleBody, SaleTestApp, startGatewayWithConnector, Terminal, TransactionView } from './sale-support';

/**
 * The sale path end to end in one process: the gateway asks `host.authorize.v1` of the host
 * connector, which answers MOCK itself and speaks ISO 8583 over TCP to the host simulator. The
 * simulator's test amounts decide: minor units ending in 51 are declined, in 91 never answered.
 */
describe('POST /transaction: sales through the host connector', () => {
  let app: SaleTestApp;

  beforeAll(async () => {
    app = await startGatewayWithConnector({ hostTimeoutMs: 1500, replyMarginMs: 1500, reaskWaitMs: 1000 });
  });

  afterAll(() => app?.close());

  async function acceptancesOf(terminal: Terminal): Promise<ProfileWithAcptView['acceptances']> {
    return bodyOf<ProfileWithAcptView>(await terminal.pbo.get(`/profiles/${terminal.profileId}`)).acceptances;
  }

  async function eventsOf(tranId: string): Promise<GatewayTransactionUpdatedV1[]> {
    const rows = await app.query<{ payload: unknown }>(
      `SELECT payload FROM payment_gateway.outbox WHERE subject = $1 AND payload->'transaction'->>'tranId' = $2 ORDER BY id`,
      [GATEWAY_TRANSACTION_UPDATED_V1, tranId],
    );
    return rows.map((row) => decodeContract(GatewayTransactionUpdatedV1, row.payload));
  }

  describe.each(['MOCK', 'ISO8583'])('with a %s acceptance', (hostMessageFormat) => {
    it('should approve a sale and answer 201 with the whole transaction, as GET and the event show it', async () => {
      const terminal = await app.newTerminal({ hostMessageFormat, extraParams: { subMchDba: 'Kopi Stall' } });
      const [acceptance] = await acceptancesOf(terminal);

      const response = await terminal.sale(saleBody(terminal, { value: '12.50', posReference: 'ORDER-1' }));

      const sale = bodyOf<TransactionView>(response, 201);
      expect(response.headers.get('x-service-request-id')).toMatch(/^req_[A-Za-z0-9_-]{22}$/);
      expect(response.headers.get('location')).toBe(`/transaction/${sale.tranId}`);
      expect(sale).toMatchObject({
        tranType: 'SALE',
        tranStatus: 'APPROVED',
        amount: { value: '12.50', currency: 'MYR' },
        approvedAmount: { value: '12.50', currency: 'MYR' },
        capturedAmount: '12.50',
        refundedAmount: '0.00',
        paymentMethod: 'VISA',
        entryMode: 'NFC',
        accountMasked: '476173******0119',
        accountBin: '476173',
        accountLast4: '0119',
        issCountryCode: '458',
        cvmPerformed: 'NO_CVM',
        cvmSignatureUrl: null,
        aid: 'A0000000031010',
        appName: 'CARD CREDIT',
        tvr: '0000008000',
        tsi: 'E800',
        atc: '0001',
        profileId: terminal.profileId,
        acceptanceId: acceptance.acptId,
        acceptanceName: acceptance.acptName,
        timeZone: 'Asia/Kuala_Lumpur',
        sdkId: terminal.deviceId,
        posReference: 'ORDER-1',
        description: null,
        callbackUrl: null,
        merchantName: 'Kopi Corner Sdn Bhd',
        merchantAddr: '1 Jalan Ampang, Kuala Lumpur',
        mcc: '5814',
        primaryMid: terminal.mid,
        primaryTid: terminal.tid,
        subMid: null,
        subTid: null,
        hostMessageFormat,
        providerReference: null,
        linkedTranId: null,
        batchNo: '000001',
        settleState: 'OPEN',
      });
      expect(sale.tranId).toMatch(/^tran_[A-Za-z0-9_-]{22}$/);
      expect(sale.tc).toMatch(/^[0-9A-F]{16}$/);
      expect(sale.trace).toMatch(/^[0-9]{6}$/);
      expect(sale.rrn).toMatch(/^[0-9A-Za-z]{12}$/);
      expect(sale.approvalCode).toMatch(/^[0-9A-Za-z ]{6}$/);
      expect(sale.actions).toEqual([
        {
          actionId: expect.stringMatching(/^act_[A-Za-z0-9_-]{22}$/) as string,
          tranId: sale.tranId,
          actionType: 'NEW',
          actionStatus: 'SUCCESS',
          trace: sale.trace,
          requestId: response.headers.get('x-service-request-id'),
          amount: { value: '12.50', currency: 'MYR' },
          reason: 'HostSuccess',
          hostRespCode: '00',
          hostRespMessage: expect.any(String) as string,
          rrn: sale.rrn,
          approvalCode: sale.approvalCode,
          hostReference: { mti: '0200', stan: sale.trace, transmittedAt: expect.stringMatching(/^[0-9]{10}$/) as string },
          posReference: 'ORDER-1',
          extraData: null,
          // The sale's approval books in the terminal's open batch.
          batchNo: '000001',
          // Nothing was reversed.
          reversal: null,
          createdAt: sale.createdAt,
          updatedAt: sale.updatedAt,
        },
      ]);
      expect(sale.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
      expect(JSON.stringify(sale)).not.toContain(TEST_VISA_PAN);

      expect(bodyOf(await terminal.pbo.get(`/transaction/${sale.tranId}`))).toEqual(sale);
      expect(bodyOf(await terminal.pbo.get('/transaction/posReference/ORDER-1'))).toEqual(sale);
      expect(await eventsOf(sale.tranId)).toEqual([
        expect.objectContaining({ version: 2, groupId: terminal.groupId, merchantId: '123456789012345', transaction: sale }),
      ]);
      if (hostMessageFormat === 'ISO8583') {
        // The card acceptor as the host read it: the profile's merchant, the acceptance's sub-merchant, Kuala Lumpur.
        expect(app.hosts!.simulator!.cardAcceptorSeen('ISO8583', terminal.tid)).toMatchObject({
          name: 'Kopi Corner*Kopi Stall',
          city: 'Kuala Lumpur',
          country: 'MY',
          mcc: '5814',
          countryCode: '458',
        });
      }
    });

    it('should decline a sale whose amount ends in 51, keep it out of the batch and publish it', async () => {
      const terminal = await app.newTerminal({ hostMessageFormat });

      const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal, { value: '20.51' })), 201);

      expect(sale).toMatchObject({ tranStatus: 'DECLINED', approvedAmount: null, capturedAmount: '0.00', batchNo: null, approvalCode: null });
      expect(sale.actions).toEqual([expect.objectContaining({ actionStatus: 'FAILED', reason: 'HostDeclined', hostRespCode: '51', trace: sale.trace })]);
      expect(await eventsOf(sale.tranId)).toEqual([expect.objectContaining({ version: 2, transaction: sale })]);
    });

    it('should answer a sale the host never answers (amount ending in 91) as REVERSED, reason HostTimeout', async () => {
      const terminal = await app.newTerminal({ hostMessageFormat });

      const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal, { value: '30.91' })), 201);

      expect(sale).toMatchObject({ tranStatus: 'REVERSED', approvedAmount: null, capturedAmount: '0.00', batchNo: null });
      expect(sale.actions).toEqual([
        expect.objectContaining({
          actionStatus: 'FAILED',
          reason: 'HostTimeout',
          hostRespCode: null,
          hostReference: expect.objectContaining({ mti: '0200' }) as object,
        }),
      ]);
      // The 201 shows the reversal the connector queued (MOCK: acknowledged by the connector itself at once), as GET
      // shows it right after: the same, or the host's acknowledgement since.
      const acknowledged = { state: 'ACKNOWLEDGED', attempts: 1, lastResponseCode: '00', effect: 'UNDOES_REQUEST' };
      expect(sale.actions[0].reversal).toEqual(hostMessageFormat === 'MOCK' ? acknowledged : { state: 'PENDING', attempts: 0, lastResponseCode: null, effect: 'UNDOES_REQUEST' });
      const shown = bodyOf<TransactionView>(await terminal.pbo.get(`/transaction/${sale.tranId}`));
      if (shown.actions[0].reversal?.state === sale.actions[0].reversal?.state) expect(shown).toEqual(sale);
      else expect(shown.actions[0].reversal).toEqual(acknowledged);
      // The connector's reversal reaches the action; the host (MOCK: the connector itself) acknowledges it.
      await waitFor('the reversal acknowledged on the transaction', async () => bodyOf<TransactionView>(await terminal.pbo.get(`/transaction/${sale.tranId}`)).actions[0].reversal?.state === 'ACKNOWLEDGED');
      const events = await eventsOf(sale.tranId);
      expect(events).toContainEqual(expect.objectContaining({ transaction: sale }));
      expect(events.at(-1)!.transaction).toMatchObject({ tranStatus: 'REVERSED', actions: [{ reversal: { state: 'ACKNOWLEDGED', lastResponseCode: '00' } }] });
    });
  });

  it("should put a terminal's approvals in its open batch and keep every other terminal's batch apart", async () => {
    const terminal = await app.newTerminal();
    const other = await app.newTerminal({ groupId: terminal.groupId });

    const batches = [];
    for (const [each, value] of [
      [terminal, '1.00'],
      [terminal, '2.51'],
      [terminal, '3.00'],
      [other, '4.00'],
    ] as const) {
      batches.push(bodyOf<TransactionView>(await each.sale(saleBody(each, { value })), 201).batchNo);
    }

    expect(batches).toEqual(['000001', null, '000001', '000001']);
    const rows = await app.query(`SELECT tid, currency, batch_no FROM payment_gateway.terminal_batch WHERE group_id = $1 ORDER BY tid`, [terminal.groupId]);
    expect(rows).toEqual(
      [
        { tid: terminal.tid, currency: 'MYR', batch_no: '000001' },
        { tid: other.tid, currency: 'MYR', batch_no: '000001' },
      ].sort((a, b) => a.tid.localeCompare(b.tid)),
    );
  });

  it('should authorise an AUTH as a pre-authorisation that captures nothing yet', async () => {
    const terminal = await app.newTerminal({ hostMessageFormat: 'ISO8583' });

    const auth = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal, { value: '50.00', tranType: 'AUTH' })), 201);

    expect(auth).toMatchObject({
      tranType: 'AUTH',
      tranStatus: 'APPROVED',
      approvedAmount: { value: '50.00', currency: 'MYR' },
      capturedAmount: '0.00',
      batchNo: '000001',
    });
    expect(auth.actions[0].hostReference).toMatchObject({ mti: '0100' });
  });

  it('should route the card to the acceptance that takes its payment method, by the AID', async () => {
    const terminal = await app.newTerminal({
      supportedPayments: ['VISA'],
      acceptances: [
        {
          acptName: 'Acquirer B',
          hostMessageFormat: 'MOCK',
          supportedPayments: ['MASTERCARD', 'VISA'],
          primaryMid: 'MIDB',
          primaryTid: 'TIDB0001',
          extraParams: {},
        },
      ],
    });
    const [visaAcceptance, mastercardAcceptance] = await acceptancesOf(terminal);

    const mastercard = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal, { pan: '5413330089010434', aid: 'A0000000041010' })), 201);
    const visa = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal)), 201);

    expect(mastercard).toMatchObject({
      paymentMethod: 'MASTERCARD',
      acceptanceId: mastercardAcceptance.acptId,
      primaryMid: 'MIDB',
      primaryTid: 'TIDB0001',
      accountMasked: '541333******0434',
    });
    expect(visa).toMatchObject({ paymentMethod: 'VISA', acceptanceId: visaAcceptance.acptId, primaryTid: terminal.tid });
  });

  it('should show a currency of another exponent in its own decimals (JPY)', async () => {
    const terminal = await app.newTerminal({ currency: 'JPY' });

    const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal, { value: '1250', currency: 'JPY' })), 201);

    expect(sale).toMatchObject({ tranStatus: 'APPROVED', amount: { value: '1250', currency: 'JPY' }, capturedAmount: '1250', refundedAmount: '0' });
  });

  describe('a profile stored without timeZone (upserted by a producer that sends none)', () => {
    const { lines, logger } = recordingLogger();
    beforeAll(() => Logger.overrideLogger(logger));
    afterAll(() => Logger.overrideLogger(false));

    /** hhmmss `hours` from the UTC time in field 7 (MMDDhhmmss) of the same message. */
    const shiftedBy = (transmittedAt: string, hours: number) => {
      const hour = (Number(transmittedAt.slice(4, 6)) + hours) % 24;
      return `${String(hour).padStart(2, '0')}${transmittedAt.slice(6, 10)}`;
    };

    it.each([
      ['MY', 8, 'the local time of Asia/Kuala_Lumpur'],
      ['US', 0, 'UTC'],
      [null, 0, 'UTC'],
    ])('should send the host (field 12) the local time of countryCode %s’s zone, else UTC, and log the fallback', async (countryCode, hours, sent) => {
      const terminal = await app.newTerminal({ hostMessageFormat: 'ISO8583', profile: { timeZone: undefined, countryCode } });

      const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal)), 201);

      expect(sale.tranStatus).toBe('APPROVED');
      const { transmittedAt } = sale.actions[0].hostReference!;
      expect(app.hosts!.simulator!.cardAcceptorSeen('ISO8583', terminal.tid)?.localTime).toBe(shiftedBy(transmittedAt, hours));
      expect(lines.filter((line) => line.includes(`sale on profile ${terminal.profileId}: no timeZone`)).map((line) => line.includes(`: hosts are sent ${sent}`))).toEqual([true]);
    });
  });
});
