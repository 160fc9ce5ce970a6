import { HOST_AUTHORIZE_V1, HOST_CAPTURE_V1, HOST_REFUND_V1, HOST_REVERSE_V1, HOST_SETTLE_V1, HOST_VOID_V1 } from '@app/contracts';
import { developmentFieldCipher } from '@app/common';
import { encodeTlv, Iso8583Message } from '@app/iso8583';
import { cardDataIn, dumpSchemas, openedSealedTexts, textsOf, trackDataIn, waitFor } from '@app/testing';
import fc from 'fast-check';
import { HOST_CONNECTOR_SCHEMA } from '../src/database';
import { authorizePayload, followUpPayload, settlePayload } from './factories';
import { ConnectorHarness, startConnector } from './harness';
import { answerTo, IsoPeer } from './iso-peer';

/**
 * What the connector keeps of a card for follow-ups (issue 16, PCI DSS 3.3.1): after
 * authorisation only PAN, expiry and PAN sequence number, and for the sale's reversal its field 55
 * (the cryptogram and what the issuer checks it with; r16c M4), sealed; never track 2 (tag 57),
 * not even sealed; deleted when the transaction can no longer be followed up.
 */

/** A chip card as the SDK reads it: PAN, track 2 equivalent, expiry, PAN sequence number, cryptogram. */
interface ChipCard {
  pan: string;
  /** YYMM */
  expiry: string;
  /** 0 to 99 */
  panSequence: number;
  /** Service code and discretionary data after the expiry in track 2. */
  discretionary: string;
  cryptogram: string;
}

const chipCard: fc.Arbitrary<ChipCard> = fc.record({
  pan: fc.stringMatching(/^4[0-9]{12,18}$/),
  expiry: fc.stringMatching(/^[2-9][0-9](0[1-9]|1[0-2])$/),
  panSequence: fc.integer({ min: 0, max: 99 }),
  discretionary: fc.stringMatching(/^[0-9]{3,13}$/),
  cryptogram: fc.uint8Array({ minLength: 8, maxLength: 8 }).map((bytes) => Buffer.from(bytes).toString('hex').toUpperCase()),
});

const bcd = (digits: string) => Buffer.from(digits.length % 2 === 1 ? `${digits}F` : digits, 'hex');
const track2Hex = (card: ChipCard) => `${card.pan}D${card.expiry}${card.discretionary}`;

function emvTlvOf(card: ChipCard): string {
  return encodeTlv([
    { tag: '5A', value: bcd(card.pan) },
    { tag: '57', value: bcd(track2Hex(card)) },
    { tag: '5F24', value: Buffer.from(`${card.expiry}31`, 'hex') },
    { tag: '5F34', value: Buffer.from(String(card.panSequence).padStart(2, '0'), 'hex') },
    { tag: '9F26', value: Buffer.from(card.cryptogram, 'hex') },
    { tag: '9F02', value: Buffer.from('000000001000', 'hex') },
  ])
    .toString('hex')
    .toUpperCase();
}

/**
 * A follow-up built from the kept card: PAN, expiry, entry mode 010 (the ISO8583 preset's
 * `followUpEntryMode`), never track 2 or chip data.
 */
function expectKeptCardOnly(message: Iso8583Message, card: ChipCard, entryMode = '010'): void {
  expect(message.fields).toMatchObject({ 2: card.pan, 14: card.expiry, 22: entryMode, 23: String(card.panSequence).padStart(3, '0') });
  expect(message.fields[35]).toBeUndefined();
  expect(message.fields[55]).toBeUndefined();
}

/**
 * A sale's reversal built from the kept card: PAN, expiry, entry mode 071 (as the sale was
 * entered), the sale's own field 55 (`host.reversalIcc`, on by default), never track 2.
 */
function expectSaleReversal(message: Iso8583Message, card: ChipCard, sale: Iso8583Message): void {
  expect(message.fields).toMatchObject({ 2: card.pan, 14: card.expiry, 22: '071', 23: String(card.panSequence).padStart(3, '0') });
  expect(message.fields[35]).toBeUndefined();
  expect(sale.fields[55]).toBeDefined();
  expect(message.fields[55]).toEqual(sale.fields[55]);
}

let tidSequence = 0;
const freshTid = () => `K${String(process.pid % 1000).padStart(3, '0')}${String(++tidSequence).padStart(4, '0')}`;

describe('host-connector: card data kept for follow-ups', () => {
  let connector: ConnectorHarness;
  let peer: IsoPeer;

  beforeAll(async () => {
    connector = await startConnector();
    peer = await IsoPeer.start();
  });

  afterAll(async () => {
    await peer?.close();
    await connector?.close();
  });

  beforeEach(() => {
    peer.handler = (message) => answerTo(message);
  });

  const received = (tid: string, mti: string): Iso8583Message[] => peer.received.filter((message) => message.mti === mti && message.fields[41] === tid);
  const keptRows = (tid: string) => connector.query<{ sealed_card: string }>(`SELECT sealed_card FROM host_connector.kept_card WHERE tid = $1`, [tid]);
  /** Whose card is kept on the terminal: the STANs of its kept rows, sorted. */
  const keptStans = async (tid: string) =>
    (await connector.query<{ stan: string }>(`SELECT stan FROM host_connector.kept_card WHERE tid = $1 ORDER BY stan`, [tid])).map((row) => row.stan);
  const terminal = (tid: string) => ({ hostMessageFormat: 'ISO8583' as const, connUrl: peer.url, tid });
  /** Every row of the connector's tables, with every sealed value in them opened with the data key. */
  async function tablesOpened(): Promise<{ tables: Array<{ label: string; text: string }>; opened: Array<{ label: string; text: string }> }> {
    const tables = textsOf(await dumpSchemas(connector.database.url, [HOST_CONNECTOR_SCHEMA]));
    const cipher = developmentFieldCipher();
    return { tables, opened: openedSealedTexts(tables, (sealed) => cipher.open(sealed)) };
  }

  async function sale(tid: string, card: ChipCard) {
    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', terminal(tid), { card: { emvTlv: emvTlvOf(card), entryMode: 'NFC' } }));
    expect(reply).toMatchObject({ result: 'APPROVED' });
    return { kind: 'SALE', mti: reply.mti, stan: reply.stan, transmittedAt: reply.transmittedAt, rrn: reply.rrn, approvalCode: reply.approvalCode };
  }

  /** The setup of every follow-up case: a chip card (generated unless given) sold on a terminal of its own, and the sale as a follow-up names it. */
  async function soldOnFreshTerminal(card: ChipCard = fc.sample(chipCard, 1)[0]) {
    const tid = freshTid();
    return { card, tid, original: await sale(tid, card) };
  }

  it("should keep PAN, expiry and PAN sequence number only, send refunds days later with them (after the batch is settled too) and no track 2 or chip data, and keep nothing once the sale is refunded in full and the refunds settled", async () => {
    await fc.assert(
      fc.asyncProperty(chipCard, fc.integer({ min: 1, max: 29 }), fc.integer({ min: 1, max: 999 }), async (card, daysLater, firstRefundMinor) => {
        const { tid, original } = await soldOnFreshTerminal(card);
        const [authorisation] = received(tid, '0200');
        // The authorisation itself carries the track and the chip data, as it must.
        expect(authorisation.fields[35]).toBe(`${card.pan}=${card.expiry}${card.discretionary}`);
        expect(authorisation.fields[55]).toBeDefined();

        // Sealed, and once opened only what a follow-up may carry: the card, and the sale's 55 for its reversal.
        const rows = await keptRows(tid);
        expect(rows).toHaveLength(1);
        expect(rows[0].sealed_card).toMatch(/^v1\./);
        expect(JSON.parse(developmentFieldCipher().open(rows[0].sealed_card))).toEqual({
          pan: card.pan,
          expiry: card.expiry,
          panSequence: String(card.panSequence).padStart(3, '0'),
          reversalIcc: (authorisation.fields[55] as Buffer).toString('hex').toUpperCase(),
        });

        // Days later (the row aged as time would age it; the database's clock is not the test's).
        await connector.query(`UPDATE host_connector.kept_card SET expires_at = expires_at - $2 * interval '1 day' WHERE tid = $1`, [tid, daysLater]);
        const refundReply = await connector.ask(HOST_REFUND_V1, followUpPayload(String(firstRefundMinor), terminal(tid), { original }));
        expect(refundReply).toMatchObject({ result: 'APPROVED' });
        const [refund] = received(tid, '0200').slice(1);
        expect(refund.fields[3]).toBe('200000');
        expectKeptCardOnly(refund, card);

        // Before settlement: PANs sealed, never a track, not even opened.
        const before = await tablesOpened();
        expect(before.opened.length).toBeGreaterThanOrEqual(2);
        expect(trackDataIn([...before.tables, ...before.opened], [card.pan])).toEqual([]);
        expect(cardDataIn(before.tables, [card.pan])).toEqual([]);
        // The cryptogram: sealed in the sale's row only (for its reversal), never in clear, never in the refund's.
        expect(before.tables.some(({ text }) => text.includes(card.cryptogram))).toBe(false);
        expect(before.opened.filter(({ text }) => text.includes(card.cryptogram))).toHaveLength(1);

        // The batch settled: the refund can no longer be followed up, its copy goes; the sale can still be refunded, its card stays sealed.
        const refundOriginal = (reply: typeof refundReply) => ({
          kind: 'REFUND',
          mti: '0200',
          stan: reply.stan,
          transmittedAt: reply.transmittedAt,
          rrn: reply.rrn,
          approvalCode: reply.approvalCode,
        });
        const settled = await connector.ask(HOST_SETTLE_V1, {
          ...settlePayload(terminal(tid)),
          totals: { saleCount: 1, saleMinor: '1000', refundCount: 1, refundMinor: String(firstRefundMinor) },
          transactions: [
            { kind: 'SALE', amountMinor: '1000', original },
            { kind: 'REFUND', amountMinor: String(firstRefundMinor), original: refundOriginal(refundReply) },
          ],
        });
        expect(settled).toMatchObject({ result: 'APPROVED' });
        expect(await keptStans(tid)).toEqual([original.stan]);

        // A refund of the rest after settlement still carries the card (2, 14, 22, 23) a card-present host matches on; it ends the sale's follow-ups.
        const restReply = await connector.ask(HOST_REFUND_V1, followUpPayload(String(1000 - firstRefundMinor), terminal(tid), { original, finalRefund: true }));
        expect(restReply).toMatchObject({ result: 'APPROVED' });
        const rest = received(tid, '0200')[2];
        expect(rest.fields[3]).toBe('200000');
        expectKeptCardOnly(rest, card);
        expect(await keptStans(tid)).toEqual([restReply.stan]);

        // Its batch settled: nothing of the card is kept anywhere, nor logged.
        const closed = await connector.ask(HOST_SETTLE_V1, {
          ...settlePayload(terminal(tid)),
          batchNo: '000002',
          totals: { saleCount: 0, saleMinor: '0', refundCount: 1, refundMinor: String(1000 - firstRefundMinor) },
          transactions: [{ kind: 'REFUND', amountMinor: String(1000 - firstRefundMinor), original: refundOriginal(restReply) }],
        });
        expect(closed).toMatchObject({ result: 'APPROVED' });
        expect(await keptRows(tid)).toHaveLength(0);
        const after = await tablesOpened();
        expect(cardDataIn([...after.tables, ...after.opened], [card.pan])).toEqual([]);
        expect(after.opened.some(({ text }) => text.includes(card.cryptogram))).toBe(false);
        expect(connector.logger.lines.filter((line) => line.includes(card.pan) || line.toUpperCase().includes(card.cryptogram))).toEqual([]);
      }),
      { numRuns: 5 },
    );
  });

  it("should keep a sale's card through part refunds and delete it at the one the gateway marks final, not at one the host approves only in part", async () => {
    const { card, tid, original } = await soldOnFreshTerminal();
    // The host approves the "final" refund only in part (10, 300 of the 600 asked): something is still left to refund.
    peer.handler = (message) =>
      message.fields[3] === '200000' && message.fields[4] === '000000000600' ? answerTo(message, '10', { 4: '000000000300' }) : answerTo(message);

    const part = await connector.ask(HOST_REFUND_V1, followUpPayload('400', terminal(tid), { original }));
    expect(part).toMatchObject({ result: 'APPROVED', partial: false });
    expect(await keptStans(tid)).toEqual([original.stan, part.stan as string].sort());

    const halfApproved = await connector.ask(HOST_REFUND_V1, followUpPayload('600', terminal(tid), { original, finalRefund: true }));
    expect(halfApproved).toMatchObject({ result: 'APPROVED', partial: true });
    expect(await keptStans(tid)).toContain(original.stan);

    peer.handler = (message) => answerTo(message);
    const last = await connector.ask(HOST_REFUND_V1, followUpPayload('300', terminal(tid), { original, finalRefund: true }));
    expect(last).toMatchObject({ result: 'APPROVED' });
    expectKeptCardOnly(received(tid, '0200')[3], card);
    expect(await keptStans(tid)).not.toContain(original.stan);
  });

  it('should keep the cards of a batch the host refuses to settle: its transactions can still be followed up', async () => {
    const { tid, original } = await soldOnFreshTerminal();
    peer.handler = (message) => answerTo(message, message.mti === '0500' ? '96' : '00');

    const refused = await connector.ask(HOST_SETTLE_V1, { ...settlePayload(terminal(tid)), transactions: [{ kind: 'SALE', amountMinor: '1000', original }] });

    expect(refused).not.toMatchObject({ result: 'APPROVED' });
    expect(await keptRows(tid)).toHaveLength(1);
  });

  it('should have written both the recovery record and the card when the sale reaches the host (one statement before sending)', async () => {
    const tid = freshTid();
    const card = fc.sample(chipCard, 1)[0];
    peer.handler = (message) => (message.mti === '0200' ? null : answerTo(message));
    const payload = authorizePayload('1000', terminal(tid), { card: { emvTlv: emvTlvOf(card), entryMode: 'NFC' } });
    const reply = connector.ask(HOST_AUTHORIZE_V1, payload);
    await waitFor('the sale at the host', () => received(tid, '0200').length === 1);

    // On the wire and unanswered: what recovery and the reversal would need is already committed.
    const [logged] = await connector.query<{ pending_reversal: unknown; response: unknown }>(
      `SELECT pending_reversal, response FROM host_connector.request_log WHERE request_id = $1`,
      [payload.requestId],
    );
    expect(logged).toMatchObject({ response: null, pending_reversal: expect.objectContaining({ requestId: expect.any(String) }) });
    expect(await keptRows(tid)).toHaveLength(1);
    const [sent] = received(tid, '0200');
    peer.push(answerTo(sent));
    expect(await reply).toMatchObject({ result: 'APPROVED' });
  });

  it("should delete the card kept for a sale once its void is approved, the void's own with it", async () => {
    const { card, tid, original } = await soldOnFreshTerminal();

    const reply = await connector.ask(HOST_VOID_V1, followUpPayload('1000', terminal(tid), { original }));

    expect(reply).toMatchObject({ result: 'APPROVED' });
    expectSaleReversal(received(tid, '0400')[0], card, received(tid, '0200')[0]);
    expect(await keptRows(tid)).toHaveLength(0);
  });

  it("should keep the card of a sale whose void or refund the host declines, and delete the declined message's own copy at once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('void', 'refund'), fc.constantFrom('05', '12', '30', '94', '96'), async (operation, code) => {
        const { tid, original } = await soldOnFreshTerminal();
        peer.handler = (message) => (message.fields[41] === tid && message.fields[11] !== original.stan ? answerTo(message, code) : answerTo(message));

        const reply = await connector.ask(operation === 'void' ? HOST_VOID_V1 : HOST_REFUND_V1, followUpPayload('1000', terminal(tid), { original, finalRefund: true }));

        expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: code });
        // Only the sale's: it can still be voided, refunded or reversed.
        expect(await keptStans(tid)).toEqual([original.stan]);
      }),
      { numRuns: 6 },
    );
  });

  it("should delete a void's own copy with its sale's when the void, sent as a reversal and unanswered, is acknowledged on a repeat (0401)", async () => {
    const { card, tid, original } = await soldOnFreshTerminal();
    let answerRepeats = false;
    peer.handler = (message) => (message.fields[41] === tid && (message.mti === '0400' || (message.mti === '0401' && !answerRepeats)) ? null : answerTo(message));

    const reply = await connector.ask(HOST_VOID_V1, followUpPayload('1000', terminal(tid), { original, timeoutMs: 300 }));

    expect(reply).toMatchObject({ result: 'REVERSED' });
    // Until a repeat is acknowledged both are kept: the sale may still stand.
    await waitFor('a repeat unanswered', () => received(tid, '0401').length > 0, 30_000);
    expect(await keptStans(tid)).toEqual([original.stan, reply.stan as string].sort());
    answerRepeats = true;
    await waitFor('the repeat acknowledged', async () => received(tid, '0401').length > 0 && (await keptRows(tid)).length === 0, 60_000);
    const [repeat] = received(tid, '0401');
    expect(repeat.fields[11]).toBe(reply.stan);
    // A void sent as a reversal of a chip sale is that sale's reversal: its kept card and the sale's 55.
    expectSaleReversal(repeat, card, received(tid, '0200')[0]);
  }, 90_000);

  it("should delete a pre-authorisation's card once its capture is approved (the capture carries it on), and the capture's once it is voided", async () => {
    const tid = freshTid();
    const card = fc.sample(chipCard, 1)[0];
    const preauth = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('5000', terminal(tid), { kind: 'PREAUTH', card: { emvTlv: emvTlvOf(card), entryMode: 'NFC' } }));
    expect(preauth).toMatchObject({ result: 'APPROVED', mti: '0100' });
    const authorisation = { kind: 'PREAUTH', mti: '0100', stan: preauth.stan, transmittedAt: preauth.transmittedAt, rrn: preauth.rrn, approvalCode: preauth.approvalCode };

    const capture = await connector.ask(HOST_CAPTURE_V1, followUpPayload('4200', terminal(tid), { original: authorisation }));

    expect(capture).toMatchObject({ result: 'APPROVED', mti: '0220' });
    expectKeptCardOnly(received(tid, '0220')[0], card);
    expect(await keptStans(tid)).toEqual([capture.stan]);
    const captured = { kind: 'CAPTURE', mti: '0220', stan: capture.stan, transmittedAt: capture.transmittedAt, rrn: capture.rrn, approvalCode: capture.approvalCode };
    const voided = await connector.ask(HOST_VOID_V1, followUpPayload('4200', terminal(tid), { original: captured }));
    expect(voided).toMatchObject({ result: 'APPROVED' });
    expect(await keptRows(tid)).toHaveLength(0);
  });

  it("should keep a pre-authorisation's card when its capture is declined, for the capture tried again", async () => {
    const tid = freshTid();
    const preauth = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('5000', terminal(tid), { kind: 'PREAUTH' }));
    const authorisation = { kind: 'PREAUTH', mti: '0100', stan: preauth.stan, transmittedAt: preauth.transmittedAt, rrn: preauth.rrn, approvalCode: preauth.approvalCode };
    peer.handler = (message) => answerTo(message, message.mti === '0220' ? '05' : '00');

    const capture = await connector.ask(HOST_CAPTURE_V1, followUpPayload('4200', terminal(tid), { original: authorisation }));

    expect(capture).toMatchObject({ result: 'DECLINED' });
    expect(await keptStans(tid)).toEqual([preauth.stan]);
  });

  it("should reverse an unanswered sale with the kept card entered as the sale was (071) and the sale's chip data, no track 2, then keep nothing once the reversal is acknowledged", async () => {
    const card = fc.sample(chipCard, 1)[0];
    const tid = freshTid();
    peer.handler = (message) => (message.mti === '0200' ? null : answerTo(message));

    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', terminal(tid), { card: { emvTlv: emvTlvOf(card), entryMode: 'NFC' } }));

    expect(reply).toMatchObject({ result: 'REVERSED' });
    await waitFor('the reversal acknowledged', async () => received(tid, '0400').length > 0 && (await keptRows(tid)).length === 0);
    const [reversal] = received(tid, '0400');
    expectSaleReversal(reversal, card, received(tid, '0200')[0]);
  });

  it('should keep the card while a reversal refused with 12 is answered 94 (no acknowledgement), repeat every 0401 with it, and delete it after the 00', async () => {
    const cardFields = (message: Iso8583Message) => [2, 14, 22, 23, 55].map((n) => message.fields[n]);
    await fc.assert(
      fc.asyncProperty(chipCard, fc.integer({ min: 1, max: 3 }), async (card, duplicates) => {
        const tid = freshTid();
        const script = ['12', ...Array<string>(duplicates).fill('94'), '00'];
        let attempt = 0;
        peer.handler = (message) =>
          message.fields[41] !== tid ? answerTo(message) : message.mti === '0200' ? null : answerTo(message, script[Math.min(attempt++, script.length - 1)]);

        const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', terminal(tid), { card: { emvTlv: emvTlvOf(card), entryMode: 'NFC' } }));

        expect(reply).toMatchObject({ result: 'REVERSED' });
        const reversalRow = async () =>
          (await connector.query<{ status: string; ack_resp_code: string }>(`SELECT status, ack_resp_code FROM host_connector.reversal WHERE tid = $1`, [tid]))[0];
        // The card goes when the 00 is read; the worker records the acknowledgement just after.
        await waitFor(
          'the 00 to the last repeat, recorded',
          async () => received(tid, '0401').length === script.length - 1 && (await keptRows(tid)).length === 0 && (await reversalRow())?.status !== 'PENDING',
          60_000,
        );
        const [first, ...repeats] = received(tid, '0401');
        expectSaleReversal(first, card, received(tid, '0200')[0]);
        // Every transmission the same card fields, the 0400 included.
        for (const repeat of [...received(tid, '0400'), ...repeats]) expect(cardFields(repeat)).toEqual(cardFields(first));
        expect(await reversalRow()).toMatchObject({ status: 'ACKNOWLEDGED', ack_resp_code: '00' });
      }),
      { numRuns: 3, endOnFailure: true },
    );
  }, 200_000);

  it('should decline a void sent as a reversal that the host answers 94 on its first transmission, and keep the card', async () => {
    const { card, tid, original } = await soldOnFreshTerminal();
    peer.handler = (message) => answerTo(message, message.mti === '0400' ? '94' : '00');

    const reply = await connector.ask(HOST_VOID_V1, followUpPayload('1000', terminal(tid), { original }));

    expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: '94' });
    expect(reply.hostRespMessage).toContain('duplicates nothing sent before');
    expectSaleReversal(received(tid, '0400')[0], card, received(tid, '0200')[0]);
    expect(await keptStans(tid)).toEqual([original.stan]);
  });

  it("should send a later reversal (of an approved sale) with the kept card entered as the sale was and the sale's chip data: no track 2", async () => {
    const { card, tid, original } = await soldOnFreshTerminal();

    const reply = await connector.ask(HOST_REVERSE_V1, followUpPayload('1000', terminal(tid), { original }));

    expect(reply).toMatchObject({ result: 'APPROVED' });
    expectSaleReversal(received(tid, '0400')[0], card, received(tid, '0200')[0]);
    expect(await keptRows(tid)).toHaveLength(0);
  });

  it("should find a sale's card after a restart on another host port (the standalone simulator's), keyed by the terminal and the sale", async () => {
    const { card, tid, original } = await soldOnFreshTerminal();
    await connector.close({ drop: false });
    await peer.close();
    peer = await IsoPeer.start();
    connector = await startConnector({ database: connector.database });

    const reply = await connector.ask(HOST_REFUND_V1, followUpPayload('400', terminal(tid), { original }));

    expect(reply).toMatchObject({ result: 'APPROVED' });
    expectKeptCardOnly(received(tid, '0200')[0], card);
  });

  it("should not give one terminal's follow-up another terminal's card, even naming the same STAN and time", async () => {
    const { original } = await soldOnFreshTerminal();
    const other = freshTid();

    await connector.ask(HOST_REFUND_V1, followUpPayload('400', terminal(other), { original }));

    const [refund] = received(other, '0200');
    expect(refund.fields[2]).toBeUndefined();
    expect(refund.fields[35]).toBeUndefined();
  });
});
