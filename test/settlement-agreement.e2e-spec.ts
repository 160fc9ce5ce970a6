import { TXN_BATCH_SETTLED_V1 } from '@app/contracts';
import { ApiClient, envelopeData, expectSuccess, queryDatabase, startTestApp, TestApp, transactionsClient, unique, waitFor } from '@app/testing';
import { SmtpTestServer, startSmtpTestServer } from '@app/testing/smtp-test-server';
import type { components as TransactionsComponents } from '@app/testing/openapi/transactions';
import fc from 'fast-check';
import { HostSandbox, hostSandboxSettingsFrom, StandaloneModule, startHostSandbox } from '../apps/standalone/src';
import { Acquiring, activateTill, ADMIN_PASSWORD, gatewayTransaction, GatewayTransaction, newTid, onboardMerchant, orderOf, tap, Till } from './money-support';

/**
 * The transactions context's settlement batches agree with the gateway's terminal batches
 * (outside review of issue 13), over HTTP in standalone with an ISO 8583 acquirer at the host
 * simulator, which keeps its own totals per terminal and answers a settlement BALANCED only when
 * ours are its own. A batch is the gateway's (PBO, host format, MID, TID, currency, batchNo); each
 * action counts in the batch it was booked in.
 */

type Batch = TransactionsComponents['schemas']['LegacyBatchDto'];
type BatchDetail = TransactionsComponents['schemas']['LegacyBatchDetailDto'];
type Totals = Pick<Batch, 'paymentCount' | 'paymentAmt' | 'refundCount' | 'refundAmt' | 'voidCount' | 'voidAmt'>;

const MID = 'MID000000000077';
const ZERO: Totals = { paymentCount: 0, paymentAmt: 0, refundCount: 0, refundAmt: 0, voidCount: 0, voidAmt: 0 };

const totalsOf = (batch: Totals): Totals => ({
  paymentCount: batch.paymentCount,
  paymentAmt: batch.paymentAmt,
  refundCount: batch.refundCount,
  refundAmt: batch.refundAmt,
  voidCount: batch.voidCount,
  voidAmt: batch.voidAmt,
});

/** One line of a settlement report's CSV: the batch and the kind, amount, action and order of a booking. */
interface CsvLine {
  batchNo: string;
  kind: string;
  amount: string;
  actionId: string;
  tranId: string;
}

describe('settlement batches agree with the gateway over HTTP', () => {
  let hosts: HostSandbox;
  let smtp: SmtpTestServer;
  let app: TestApp;
  let acquiring: Acquiring;

  beforeAll(async () => {
    hosts = await startHostSandbox(hostSandboxSettingsFrom({ HOST_ECHO_INTERVAL_MS: '0', HOST_TIMEOUT_MS: '2000' }));
    smtp = await startSmtpTestServer();
    app = await startTestApp((options) => StandaloneModule.register(options, hosts.config), {
      mail: { transport: 'smtp', url: `smtp://127.0.0.1:${smtp.port}` },
    });
    acquiring = await onboardMerchant(app, 'ISO8583');
  });

  afterAll(async () => {
    await app?.close();
    await smtp?.close();
    await hosts?.close();
  });

  /** The lines of the CSV the settlement report of `batchId` attaches, received by the SMTP server. */
  async function reportLines(batchId: string): Promise<CsvLine[]> {
    const email = `${unique('owner-')}@merchant.example`;
    expectSuccess(await tx().POST('/api/v2/settlement/email', { body: { batchIds: JSON.stringify([{ batchId }]), email, mchId: acquiring.mchId } }));
    const mail = smtp.received.find((received) => received.envelope.to.includes(email))!;
    const [header, ...rows] = mail.parsed.attachments[0].content.toString('utf8').trimEnd().split('\r\n');
    const columns = header.split(',');
    // No field of these lines holds a comma or a quote (amounts, ids, digits, a masked PAN and a generated merchant name).
    return rows.map((row) => {
      const fields = row.split(',');
      const field = (name: string) => fields[columns.indexOf(name)];
      return { batchNo: field('batchNo'), kind: field('kind'), amount: field('amount'), actionId: field('actionId'), tranId: field('tranId') };
    });
  }

  /** What the CSV lines sum to, per kind, as the batch's totals (payments are SALE and CAPTURE lines). */
  function csvTotals(lines: CsvLine[]): Totals {
    const of = (kinds: string[]) => lines.filter((line) => kinds.includes(line.kind));
    const amount = (picked: CsvLine[]) => Math.round(picked.reduce((sum, line) => sum + Math.round(Number(line.amount) * 100), 0)) / 100;
    const payments = of(['SALE', 'CAPTURE']);
    const refunds = of(['REFUND']);
    const voids = of(['VOID']);
    return {
      paymentCount: payments.length,
      paymentAmt: amount(payments),
      refundCount: refunds.length,
      refundAmt: amount(refunds),
      voidCount: voids.length,
      voidAmt: amount(voids),
    };
  }

  const tx = () => transactionsClient(acquiring.pbo);

  /** The batches of a terminal, oldest batch number first. */
  async function batchesOf(tid: string): Promise<Batch[]> {
    const page = envelopeData(await tx().GET('/api/v2/settlement', { params: { query: { pageSize: -1 } } }));
    return page.records.filter((batch) => batch.acquirerTid === tid).sort((a, b) => a.acquirerRefNo.localeCompare(b.acquirerRefNo));
  }

  /** The terminal's batches once `until` holds of them. */
  async function batchesWhen(tid: string, until: (batches: Batch[]) => boolean): Promise<Batch[]> {
    let batches: Batch[] = [];
    await waitFor(`the batches of terminal ${tid}`, async () => until((batches = await batchesOf(tid))));
    return batches;
  }

  const detail = async (batchId: string): Promise<BatchDetail> =>
    envelopeData(await tx().GET('/api/v2/settlement/{batchId}', { params: { path: { batchId } } }));

  async function settle(batchId: string): Promise<BatchDetail> {
    expect(envelopeData(await tx().POST('/api/v2/settlement/settle', { body: { batchId } }))).toMatchObject({ state: 1 });
    return detail(batchId);
  }

  const path = (transactionId: string) => ({ params: { path: { transactionId } } });
  const refund = (tranId: string, amount: number) =>
    tx().POST('/api/v2/order/refund/{transactionId}', { ...path(tranId), body: { refundAmount: amount, refundReason: 'returned', adminPwd: ADMIN_PASSWORD } });
  const voidOrder = (tranId: string) => tx().POST('/api/v2/order/void/{transactionId}', { ...path(tranId), body: { adminPwd: ADMIN_PASSWORD } });
  const capture = (tranId: string, amount: string) => tx().POST('/api/v2/order/capture/{transactionId}', { ...path(tranId), body: { amount } });

  /** A device of its own terminal (a new TID on the merchant's MID). */
  async function newTerminal(): Promise<{ tid: string; till: Till }> {
    const tid = newTid();
    return { tid, till: await activateTill(app, acquiring, { mid: MID, tid }) };
  }

  it('should book a refund made after its sale settled in the terminal next batch, which settles balanced with it, and leave the settled batch as it was', async () => {
    const { tid, till } = await newTerminal();
    const sale = await tap(till, '20.00');
    await orderOf(acquiring.pbo, sale.tranId);
    const [first] = await batchesWhen(tid, (batches) => batches.length === 1);
    expect(first).toMatchObject({ acquirerRefNo: sale.batchNo, profileName: acquiring.acquirerName, profileMessage: 'ISO8583' });
    expect(await settle(first.batchId)).toMatchObject({ reconciliation: 'BALANCED', paymentCount: 1, paymentAmt: 20 });

    envelopeData(await refund(sale.tranId, 5));
    const refunded = await gatewayTransaction(acquiring.pbo, sale.tranId);
    const refundBatchNo = refunded.actions.find((action) => action.actionType === 'REFUND')!.batchNo;
    expect(refundBatchNo).not.toBe(sale.batchNo);

    const batches = await batchesWhen(tid, (found) => found.length === 2);
    expect(batches.map((batch) => [batch.acquirerRefNo, batch.state, totalsOf(batch)])).toEqual([
      [sale.batchNo, 1, { ...ZERO, paymentCount: 1, paymentAmt: 20 }],
      [refundBatchNo, 0, { ...ZERO, refundCount: 1, refundAmt: 5 }],
    ]);
    const second = await settle(batches[1].batchId);
    expect(second).toMatchObject({ reconciliation: 'BALANCED', ...ZERO, refundCount: 1, refundAmt: 5, difference: ZERO });
    expect(second.transactions).toEqual([{ transType: 'REFUND', paymentMethod: 'VISA', count: 1, amount: 5 }]);
    expect((await orderOf(acquiring.pbo, sale.tranId)).settleState).toBe(1);

    // Each report lists what its batch booked: the sale in the first, the refund in the next one only.
    const refundActionId = refunded.actions.find((action) => action.actionType === 'REFUND')!.actionId;
    const saleActionId = refunded.actions.find((action) => action.actionType === 'NEW')!.actionId;
    expect(await reportLines(first.batchId)).toEqual([{ batchNo: sale.batchNo, kind: 'SALE', amount: '20.00', actionId: saleActionId, tranId: sale.tranId }]);
    expect(await reportLines(second.batchId)).toEqual([
      { batchNo: refundBatchNo, kind: 'REFUND', amount: '5.00', actionId: refundActionId, tranId: sale.tranId },
    ]);
  });

  it('should count the void of a partly captured authorisation at its captured amount, and settle balanced with no difference', async () => {
    const { tid, till } = await newTerminal();
    const auth = await tap(till, '30.00', 'AUTH');
    const kept = await tap(till, '12.00');
    const voidedSale = await tap(till, '7.00');
    await orderOf(acquiring.pbo, auth.tranId);
    envelopeData(await capture(auth.tranId, '20.00'));
    await orderOf(acquiring.pbo, voidedSale.tranId);
    expect(envelopeData(await voidOrder(voidedSale.tranId))).toMatchObject({ state: 4, refundAmount: 7 });
    expect(envelopeData(await voidOrder(auth.tranId))).toMatchObject({ state: 4, refundAmount: 20 });
    await orderOf(acquiring.pbo, kept.tranId);

    const [batch] = await batchesWhen(tid, (batches) => batches.length === 1 && batches[0].voidCount === 2);
    const open = await detail(batch.batchId);
    expect(totalsOf(open)).toEqual({ paymentCount: 1, paymentAmt: 12, refundCount: 0, refundAmt: 0, voidCount: 2, voidAmt: 27 });
    expect(open.transactions).toEqual([
      { transType: 'SALE', paymentMethod: 'VISA', count: 1, amount: 12 },
      { transType: 'VOID', paymentMethod: 'VISA', count: 2, amount: 27 },
    ]);

    const settled = await settle(batch.batchId);
    expect(settled).toMatchObject({ reconciliation: 'BALANCED', difference: ZERO, hostTotals: { paymentCount: 1, paymentAmt: 12, voidCount: 0, voidAmt: 0 } });
    expect(totalsOf(settled)).toEqual(totalsOf(open));
  });

  it('should count the void of an authorisation never captured nowhere: it moved no money', async () => {
    const { tid, till } = await newTerminal();
    const auth = await tap(till, '40.00', 'AUTH');
    const sale = await tap(till, '8.00');
    await orderOf(acquiring.pbo, auth.tranId);
    expect(envelopeData(await voidOrder(auth.tranId))).toMatchObject({ state: 4, refundAmount: 0 });
    await orderOf(acquiring.pbo, sale.tranId);
    await orderOf(acquiring.pbo, auth.tranId, (order) => order.state === 4);

    const [batch] = await batchesWhen(tid, (batches) => batches.length === 1 && batches[0].paymentCount === 1);
    const open = await detail(batch.batchId);
    expect(totalsOf(open)).toEqual({ ...ZERO, paymentCount: 1, paymentAmt: 8 });
    expect(open.transactions).toEqual([{ transType: 'SALE', paymentMethod: 'VISA', count: 1, amount: 8 }]);
    const settled = await settle(batch.batchId);
    expect(settled).toMatchObject({ reconciliation: 'BALANCED', difference: ZERO });
    expect(totalsOf(settled)).toEqual(totalsOf(open));
    expect(csvTotals(await reportLines(batch.batchId))).toEqual(totalsOf(settled));
  });

  it('should make one batch of two devices on one MID/TID, and settle both devices orders with it at once', async () => {
    const tid = newTid();
    const tills = [await activateTill(app, acquiring, { mid: MID, tid }, 'Till A'), await activateTill(app, acquiring, { mid: MID, tid }, 'Till B')];
    expect(tills[0].profileId).not.toBe(tills[1].profileId);
    const sales = [await tap(tills[0], '10.00'), await tap(tills[1], '15.00')];
    expect(sales[0].acceptanceId).not.toBe(sales[1].acceptanceId);
    expect(sales[1].batchNo).toBe(sales[0].batchNo);
    for (const sale of sales) await orderOf(acquiring.pbo, sale.tranId);

    const [batch] = await batchesWhen(tid, (batches) => batches.length === 1 && batches[0].paymentCount === 2);
    expect(totalsOf(batch)).toEqual({ ...ZERO, paymentCount: 2, paymentAmt: 25 });
    expect(await settle(batch.batchId)).toMatchObject({ reconciliation: 'BALANCED', paymentCount: 2, paymentAmt: 25 });
    for (const sale of sales) {
      expect((await orderOf(acquiring.pbo, sale.tranId)).settleState).toBe(1);
      expect((await gatewayTransaction(acquiring.pbo, sale.tranId)).settleState).toBe('SETTLED');
    }
    expect((await batchesOf(tid)).map((each) => [each.batchId, each.state])).toEqual([[batch.batchId, 1]]);
  });

  it('should publish txn.batch.settled through the transactions outbox when a batch settles', async () => {
    const { tid, till } = await newTerminal();
    const sale = await tap(till, '9.00');
    await orderOf(acquiring.pbo, sale.tranId);
    const [batch] = await batchesWhen(tid, (batches) => batches.length === 1);
    await settle(batch.batchId);

    const rows = await queryDatabase<{ payload: Record<string, unknown> }>(
      app.database.url,
      `SELECT payload FROM transactions.outbox WHERE subject = $1 AND payload->>'batchId' = $2`,
      [TXN_BATCH_SETTLED_V1, batch.batchId],
    );
    expect(rows.map((row) => row.payload)).toEqual([
      expect.objectContaining({
        batchNo: sale.batchNo,
        mid: MID,
        tid,
        currency: 'MYR',
        hostMessageFormat: 'ISO8583',
        profileName: acquiring.acquirerName,
        reconciliation: 'BALANCED',
        totals: { paymentCount: 1, paymentAmount: '9.00', refundCount: 0, refundAmount: '0.00', voidCount: 0, voidAmount: '0.00' },
        tranIds: [sale.tranId],
      }),
    ]);
  });

  it('should give declined and reversed orders no settle state, and no batch', async () => {
    const { tid, till } = await newTerminal();
    const declined = await tap(till, '10.51');
    const reversed = await tap(till, '10.91');
    expect([declined.tranStatus, reversed.tranStatus]).toEqual(['DECLINED', 'REVERSED']);
    // Each order as its transaction ended (a busy machine may list an earlier version of it first).
    for (const { tranId, tranStatus } of [declined, reversed]) expect((await orderOf(acquiring.pbo, tranId, (order) => order.tranStatus === tranStatus)).settleState).toBeNull();
    const waiting = envelopeData(await tx().GET('/api/v2/order', { params: { query: { settleState: 0, deviceId: till.deviceId, pageSize: -1 } } }));
    expect(waiting.records).toEqual([]);
    expect(await batchesOf(tid)).toEqual([]);
  });

  describe('model: random money on one terminal', () => {
    /** A sale or an authorisation; an authorisation may be captured (a share of it) at once, and either voided at once. */
    type Step =
      | { kind: 'SALE' | 'AUTH'; quarters: number; captureShare: number | null; voidNow: boolean }
      | { kind: 'CAPTURE' | 'REFUND'; pick: number; share: number }
      | { kind: 'VOID'; pick: number }
      | { kind: 'SETTLE' };

    // Amounts in quarters (multiples of 0.25): never the simulator's test amounts (…51 declined, …91 unanswered).
    const quarters = fc.integer({ min: 1, max: 400 });
    const step: fc.Arbitrary<Step> = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('SALE' as const), quarters, captureShare: fc.constant(null), voidNow: fc.boolean() }) },
      {
        weight: 2,
        arbitrary: fc.record({ kind: fc.constant('AUTH' as const), quarters, captureShare: fc.option(fc.integer({ min: 1, max: 100 })), voidNow: fc.boolean() }),
      },
      { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('CAPTURE' as const, 'REFUND' as const), pick: fc.nat(), share: fc.integer({ min: 1, max: 100 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('VOID' as const), pick: fc.nat() }) },
      { weight: 2, arbitrary: fc.constant({ kind: 'SETTLE' as const }) },
    );

    const quartersOf = (value: string) => Math.round(Number(value) * 4);
    const decimalOf = (quarters: number) => (quarters / 4).toFixed(2);
    const minorTotals = (totals: Totals) => ({
      paymentCount: totals.paymentCount,
      paymentMinor: String(Math.round(totals.paymentAmt * 100)),
      refundCount: totals.refundCount,
      refundMinor: String(Math.round(totals.refundAmt * 100)),
      voidCount: totals.voidCount,
      voidMinor: String(Math.round(totals.voidAmt * 100)),
    });

    /** Every order has caught up with its gateway transaction (same status, batch and actions). */
    async function caughtUp(pbo: ApiClient, tranIds: string[]): Promise<void> {
      for (const tranId of tranIds) {
        const gateway: GatewayTransaction = await gatewayTransaction(pbo, tranId);
        await orderOf(
          pbo,
          tranId,
          (order) => order.tranStatus === gateway.tranStatus && order.batchNo === gateway.batchNo && (order.actions ?? []).length === gateway.actions.length,
        );
      }
    }

    /** The gateway's stored batch (its totals in minor units), by terminal and batch number. */
    async function gatewayBatch(tid: string, batchNo: string): Promise<Record<string, unknown> | undefined> {
      const rows = await queryDatabase<{ totals: Record<string, unknown> }>(
        app.database.url,
        'SELECT totals FROM payment_gateway.batch_settlement WHERE mid = $1 AND tid = $2 AND batch_no = $3',
        [MID, tid, batchNo],
      );
      return rows[0]?.totals;
    }

    it("should keep every transactions batch's totals equal to the gateway's batch totals, for any sequence of sale, auth, capture, void, refund and settle", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 8 }), async (steps) => {
          const { tid, till } = await newTerminal();
          const taken: string[] = [];
          const compared = new Set<string>();
          const refundBatchOf = new Map<string, string>();

          /** Settles the terminal's open batch, if it holds anything, checking that what we counted is what the gateway settled. */
          async function settleOpenBatch(): Promise<void> {
            await caughtUp(acquiring.pbo, taken);
            // Where the gateway booked each refund: a refund after its sale's batch settled is in a later batch's report only.
            const transactions: GatewayTransaction[] = [];
            for (const tranId of taken) transactions.push(await gatewayTransaction(acquiring.pbo, tranId));
            for (const transaction of transactions)
              for (const action of transaction.actions)
                if (action.actionType === 'REFUND' && action.actionStatus === 'SUCCESS') refundBatchOf.set(action.actionId, action.batchNo!);
            const uncaptured = (transaction: GatewayTransaction) =>
              transaction.tranType === 'AUTH' && transaction.tranStatus === 'APPROVED' && quartersOf(transaction.capturedAmount) === 0;
            for (const batch of await batchesOf(tid)) {
              if (batch.state !== 0) continue;
              const held = transactions.filter((transaction) => transaction.batchNo === batch.acquirerRefNo);
              // Authorisations not captured yet and nothing else: refused, nothing sent, the batch stays open (review r14t).
              if (held.length > 0 && held.every(uncaptured) && ![...refundBatchOf.values()].includes(batch.acquirerRefNo)) {
                const refused = await tx().POST('/api/v2/settlement/settle', { body: { batchId: batch.batchId } });
                expect([refused.response.status, (refused.error as { msg?: string } | undefined)?.msg]).toEqual([
                  409,
                  expect.stringMatching(/has nothing to settle: it holds only authorisations not captured yet/),
                ]);
                expect((await detail(batch.batchId)).state).toBe(0);
                continue;
              }
              const counted = await detail(batch.batchId);
              const settled = envelopeData(await tx().POST('/api/v2/settlement/settle', { body: { batchId: batch.batchId } }));
              expect(settled.state).toBe(1);
              const after = await detail(batch.batchId);
              expect(minorTotals(counted)).toEqual(await gatewayBatch(tid, batch.acquirerRefNo));
              expect(totalsOf(after)).toEqual(totalsOf(counted));
              expect(after.difference).toEqual(ZERO);
              // The report's CSV lists what the batch booked: its lines sum per kind to the batch's stored totals.
              const lines = await reportLines(batch.batchId);
              expect(csvTotals(lines)).toEqual(totalsOf(after));
              expect(new Set(lines.map((line) => line.batchNo))).toEqual(new Set(lines.length === 0 ? [] : [batch.acquirerRefNo]));
              for (const line of lines.filter((each) => each.kind === 'REFUND')) expect(refundBatchOf.get(line.actionId)).toBe(batch.acquirerRefNo);
              compared.add(batch.acquirerRefNo);
            }
          }

          for (const next of steps) {
            if (next.kind === 'SETTLE') {
              await settleOpenBatch();
              continue;
            }
            if ('quarters' in next) {
              const transaction = await tap(till, decimalOf(next.quarters), next.kind);
              expect(transaction.tranStatus).toBe('APPROVED');
              taken.push(transaction.tranId);
              await orderOf(acquiring.pbo, transaction.tranId);
              if (next.captureShare !== null)
                envelopeData(await capture(transaction.tranId, decimalOf(Math.max(1, Math.floor((next.quarters * next.captureShare) / 100)))));
              if (next.voidNow) envelopeData(await voidOrder(transaction.tranId));
              continue;
            }
            if (taken.length === 0) continue;
            // One of the last two taken, so that capture, void and refund meet on one transaction often.
            const tranId = taken[taken.length - 1 - (next.pick % Math.min(taken.length, 2))];
            const current = await gatewayTransaction(acquiring.pbo, tranId);
            let status: number;
            if (next.kind === 'VOID') status = (await voidOrder(tranId)).response.status;
            else if (next.kind === 'CAPTURE') {
              const authorised = quartersOf(current.approvedAmount?.value ?? current.amount.value);
              status = (await capture(tranId, decimalOf(Math.max(1, Math.floor((authorised * next.share) / 100))))).response.status;
            } else {
              const left = quartersOf(current.capturedAmount) - quartersOf(current.refundedAmount);
              const amount = Math.max(1, Math.floor((left * next.share) / 100));
              status = (await refund(tranId, Number(decimalOf(amount)))).response.status;
            }
            // Done, or refused by the money rules (voided, settled, nothing left): never anything else.
            expect([200, 409]).toContain(status);
          }
          await settleOpenBatch();
          // Then a refund of part of whatever is left of each, all after their batches settled, and their own batch settled.
          for (const tranId of taken) {
            const current = await gatewayTransaction(acquiring.pbo, tranId);
            const left = quartersOf(current.capturedAmount) - quartersOf(current.refundedAmount);
            if (current.tranStatus === 'APPROVED' && left > 0) envelopeData(await refund(tranId, Number(decimalOf(Math.ceil(left / 2)))));
          }
          await settleOpenBatch();
          // Every batch the terminal had, open ones included, was the gateway's and is settled with its totals.
          const batches = await batchesOf(tid);
          expect(batches.filter((batch) => batch.state !== 0).map((batch) => batch.acquirerRefNo)).toEqual([...compared].sort());
          for (const batch of batches.filter((each) => each.state === 0)) expect(totalsOf(batch)).toEqual(ZERO);
        }),
        // Each run onboards a terminal and talks to the simulator: a few runs, and the first counterexample as found (its seed replays it).
        // The example: a batch of one AUTH not captured is refused, then settles once a sale joins it (review r13a).
        {
          numRuns: 8,
          endOnFailure: true,
          examples: [[[{ kind: 'AUTH', quarters: 8, captureShare: null, voidNow: false }, { kind: 'SETTLE' }, { kind: 'SALE', quarters: 12, captureShare: null, voidNow: false }]]],
        },
      );
    }, 360_000);
  });
});
