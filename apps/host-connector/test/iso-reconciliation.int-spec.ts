import { HOST_SETTLE_V1 } from '@app/contracts';
import { Iso8583Message } from '@app/iso8583';
import { randomDigits, randomIntBetween } from '@app/testing';
import { settlePayload } from './factories';
import { ConnectorHarness, startConnector } from './harness';
import { answerTo, IsoPeer } from './iso-peer';

/**
 * Reconciliation against a scripted host (hand-built answers, not our simulator): a balanced
 * 0510, and an out-of-balance 95 answered with a batch upload (0320 per transaction) and a closing
 * 0500 (960000), as a caller of host.settle.v1 sees it.
 */
describe('host-connector: ISO 8583 reconciliation and batch upload', () => {
  let connector: ConnectorHarness;
  let peer: IsoPeer;

  beforeAll(async () => {
    connector = await startConnector();
  });

  afterAll(() => connector.close());

  afterEach(() => peer.close());

  const iso = () => ({ hostMessageFormat: 'ISO8583' as const, connUrl: peer.url });

  /** A batch of 1–12 approved transactions with distinct STANs; totals are its sums. */
  function batch() {
    const count = randomIntBetween(1, 12);
    const stans = new Set<string>();
    while (stans.size < count) stans.add(randomDigits(6));
    const transactions = [...stans].map((stan, index) => ({
      kind: index % 3 === 2 ? ('REFUND' as const) : ('SALE' as const),
      amountMinor: String(randomIntBetween(1, 99_999)),
      original: { mti: '0200', stan, transmittedAt: `0704${randomDigits(6)}`, rrn: randomDigits(12), approvalCode: 'A1B2C3' },
    }));
    const sales = transactions.filter((t) => t.kind === 'SALE');
    const refunds = transactions.filter((t) => t.kind === 'REFUND');
    const sum = (items: typeof transactions) => items.reduce((total, t) => total + BigInt(t.amountMinor), 0n).toString();
    return { transactions, totals: { saleCount: sales.length, saleMinor: sum(sales), refundCount: refunds.length, refundMinor: sum(refunds) } };
  }

  /** A host that finds the first 0500 out of balance, answers each 0320 with `uploadCode` and the closing 0500 with `closingCode`. */
  const outOfBalanceHost =
    (uploadCode = '00', closingCode = '00') =>
    (message: Iso8583Message): Iso8583Message => {
      if (message.mti === '0320') return answerTo(message, uploadCode);
      if (message.mti === '0500' && message.fields[3] === '960000') return answerTo(message, closingCode, { 15: '0705' });
      return answerTo(message, '95', { 74: '0000000000', 76: '0000000001', 86: '0000000000000000', 88: '0000000000000800', 15: '0704' });
    };

  it('should send 0500 with 920000 and the totals, and answer BALANCED on 00 without uploading', async () => {
    peer = await IsoPeer.start((message) => answerTo(message, '00', { 15: '0704' }));
    const { transactions, totals } = batch();

    const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload(iso()), totals, transactions });

    expect(peer.received.map((m) => m.mti)).toEqual(['0500']);
    expect(peer.received[0].fields).toMatchObject({ 3: '920000', 60: '000001', 76: String(totals.saleCount).padStart(10, '0'), 88: totals.saleMinor.padStart(16, '0') });
    expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', reconciliation: 'BALANCED', settlementDate: '0704', mti: '0500' });
  });

  it('should answer 95 with an 0320 per transaction (its STAN and amount), then 0500 960000, and report BALANCED_AFTER_UPLOAD', async () => {
    peer = await IsoPeer.start(outOfBalanceHost());
    const { transactions, totals } = batch();

    const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload(iso()), totals, transactions });

    expect(peer.received.map((m) => m.mti)).toEqual(['0500', ...transactions.map(() => '0320'), '0500']);
    const uploads = peer.receivedOf('0320');
    expect(uploads.map((m) => [String(m.fields[90]).slice(4, 10), m.fields[4], m.fields[3]])).toEqual(
      transactions.map((t) => [t.original.stan, t.amountMinor.padStart(12, '0'), t.kind === 'REFUND' ? '200000' : '000000']),
    );
    expect(peer.received.at(-1)?.fields).toMatchObject({ 3: '960000', 60: '000001' });
    expect(reply).toMatchObject({
      result: 'APPROVED',
      hostRespCode: '00',
      reconciliation: 'BALANCED_AFTER_UPLOAD',
      uploadedCount: transactions.length,
      settlementDate: '0705',
      hostTotals: { saleCount: 1, saleMinor: '800', refundCount: 0, refundMinor: '0' },
    });
  });

  /** Fields 74/76/86/88 of a 0510 that reports these totals (credits: refunds; debits: sales). */
  const totalsFields = (totals: { saleCount: number; saleMinor: string; refundCount: number; refundMinor: string }) => ({
    74: String(totals.refundCount).padStart(10, '0'),
    76: String(totals.saleCount).padStart(10, '0'),
    86: totals.refundMinor.padStart(16, '0'),
    88: totals.saleMinor.padStart(16, '0'),
  });

  it.each([
    ['the first 0500', (message: Iso8583Message, theirs: Record<number, string>) => answerTo(message, '00', theirs)],
    [
      'the closing 0500 after an upload',
      (message: Iso8583Message, theirs: Record<number, string>) =>
        message.mti === '0320' ? answerTo(message, '00') : message.fields[3] === '960000' ? answerTo(message, '00', theirs) : answerTo(message, '95'),
    ],
  ])('should report OUT_OF_BALANCE when %s is answered 00 with totals other than ours', async (_case, answer) => {
    const { transactions, totals } = batch();
    const theirs = totalsFields({ ...totals, saleMinor: (BigInt(totals.saleMinor) + 1n).toString() });
    peer = await IsoPeer.start((message) => answer(message, theirs));

    const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload(iso()), totals, transactions });

    expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: '00', reconciliation: 'OUT_OF_BALANCE' });
    expect(reply.hostRespMessage).toContain(`but the host's totals differ: saleMinor ${BigInt(totals.saleMinor) + 1n} (ours ${totals.saleMinor})`);
  });

  it('should report BALANCED_AFTER_UPLOAD when the closing 0500 sends back our own totals', async () => {
    const { transactions, totals } = batch();
    peer = await IsoPeer.start((message) =>
      message.mti === '0320' ? answerTo(message, '00') : message.fields[3] === '960000' ? answerTo(message, '00', totalsFields(totals)) : answerTo(message, '95'),
    );

    const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload(iso()), totals, transactions });

    expect(reply).toMatchObject({ result: 'APPROVED', reconciliation: 'BALANCED_AFTER_UPLOAD', hostTotals: totals });
  });

  it('should report OUT_OF_BALANCE when the closing 0500 is still out of balance', async () => {
    peer = await IsoPeer.start(outOfBalanceHost('00', '95'));
    const { transactions, totals } = batch();

    const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload(iso()), totals, transactions });

    expect(peer.receivedOf('0320')).toHaveLength(transactions.length);
    expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: '95', reconciliation: 'OUT_OF_BALANCE', uploadedCount: transactions.length });
  });

  it('should stop the upload at a refused 0320 and not close the batch', async () => {
    peer = await IsoPeer.start(outOfBalanceHost('30'));
    const { transactions, totals } = batch();

    const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload(iso()), totals, transactions });

    expect(peer.received.map((m) => m.mti)).toEqual(['0500', '0320']);
    expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: '95', reconciliation: 'OUT_OF_BALANCE', uploadedCount: 0 });
    // Both STANs, each named for what it is: the transaction's own (what the merchant's records show) and the refused 0320's.
    const upload = peer.receivedOf('0320')[0];
    expect(String(upload.fields[11])).not.toBe(transactions[0].original.stan);
    expect(reply.hostRespMessage).toContain(`batch upload of the transaction of STAN ${transactions[0].original.stan} (its 0320: STAN ${String(upload.fields[11])}) refused with 30`);
  });

  it('should leave a batch out of balance when the request has no transactions to upload', async () => {
    peer = await IsoPeer.start(outOfBalanceHost());

    const reply = await connector.ask(HOST_SETTLE_V1, settlePayload(iso()));

    expect(peer.received.map((m) => m.mti)).toEqual(['0500']);
    expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: '95', reconciliation: 'OUT_OF_BALANCE', hostTotals: { saleCount: 1, saleMinor: '800' } });
  });
});
