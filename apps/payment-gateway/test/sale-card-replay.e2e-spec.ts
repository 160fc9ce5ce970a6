import { HOST_AUTHORIZE_V1, HostAuthorizeRequestV1, HostResponseV1 } from '@app/contracts';
import { REQUEST_REPLY, RequestReplyTransport, ServedSubject } from '@app/messaging';
import { bodyOf } from '@app/testing';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { CardRead, cardReadHex, freshCardReads, TEST_CURRENCIES } from '../src/transaction/card/testing/test-card';
import { SaleTestApp, startGatewayAlone, Terminal, TransactionView } from './sale-support';

const MYR = TEST_CURRENCIES.filter((currency) => currency.alpha === 'MYR');

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
}

/** The same read in another encoding: its elements in another order, none in a template. */
function reencoded(read: CardRead): string {
  return cardReadHex([...read.elements].reverse(), null);
}

/**
 * A card read (card, ATC 9F36, cryptogram 9F26) is used once (outside review of issue 13): a
 * chip makes a new ATC and cryptogram for every transaction, so the same read again, without the
 * first request's Idempotency-Key or with another, is a duplicate or a replay. It is refused with
 * 409 `card-read-used` before anything reaches the host, whatever became of the first (approved or
 * declined), across PBOs, and when identical reads arrive at once; the Idempotency-Key of the first
 * still answers the stored result. The test plays the host connector to count what reaches it.
 */
describe('POST /transaction: a card read is used once', () => {
  let app: SaleTestApp;
  let terminal: Terminal;
  let other: Terminal;
  let served: ServedSubject;
  const received: HostAuthorizeRequestV1[] = [];
  let result: HostResponseV1['result'] = 'APPROVED';

  beforeAll(async () => {
    app = await startGatewayAlone({ hostTimeoutMs: 1000, replyMarginMs: 1000, reaskWaitMs: 1000 });
    const requests: RequestReplyTransport = app.app.get(REQUEST_REPLY);
    served = requests.serve(HOST_AUTHORIZE_V1, 'host-connector', (payload): Promise<HostResponseV1> => {
      const request = payload as HostAuthorizeRequestV1;
      received.push(request);
      const approved = result === 'APPROVED';
      return Promise.resolve({
        requestId: request.requestId,
        result,
        hostRespCode: approved ? '00' : '05',
        hostRespMessage: approved ? 'Approved' : 'Do not honour',
        mti: '0210',
        stan: String(received.length % 1_000_000).padStart(6, '0'),
        transmittedAt: '1127090000',
        rrn: String(received.length).padStart(12, '0'),
        approvalCode: approved ? 'A1B2C3' : null,
      });
    });
    const supportedPayments = ['VISA', 'MASTERCARD', 'UNIONPAY', 'AMEX', 'JCB', 'DISCOVER'];
    terminal = await app.newTerminal({ currency: 'MYR', supportedPayments });
    other = await app.newTerminal({ currency: 'MYR', supportedPayments });
  });

  afterAll(async () => {
    await served?.close();
    await app?.close();
  });

  beforeEach(() => {
    result = 'APPROVED';
  });

  // One memory of the reads drawn for the whole file: each test's first sale of a read is its first use.
  const reads = freshCardReads(MYR);
  const freshReads = () => reads;

  const bodyOfRead = (at: Terminal, read: CardRead, emvData = cardReadHex(read.elements, read.wrap), tranType: 'SALE' | 'AUTH' = 'SALE') => ({
    profileId: at.profileId,
    tranType,
    amount: read.sale.amount,
    emvData,
  });

  function expectCardReadUsed(response: { status: number; body: unknown; headers: Headers }): Problem {
    expect([response.status, response.headers.get('content-type')]).toEqual([409, expect.stringMatching(/^application\/problem\+json/)]);
    const problem = response.body as Problem;
    expect(problem).toMatchObject({ type: 'urn:softpos:problem:card-read-used', title: 'Card read already used', status: 409 });
    expect(problem.detail).toMatch(/^emvData: this card read \(PAN, ATC 9F36 and cryptogram 9F26\) was already used/);
    return problem;
  }

  it('should refuse the same read again, without a key, under another key, re-encoded, as an AUTH or from another PBO, sending nothing more to the host', async () => {
    await fc.assert(
      fc.asyncProperty(freshReads(), fc.constantFrom('SALE' as const, 'AUTH' as const), async (read, tranType) => {
        const before = received.length;
        const first = bodyOf<TransactionView>(await terminal.sale(bodyOfRead(terminal, read, undefined, tranType), { 'idempotency-key': randomUUID() }), 201);
        expect(first.tranStatus).toBe('APPROVED');

        const again = [
          await terminal.sale(bodyOfRead(terminal, read, undefined, tranType)),
          await terminal.sale(bodyOfRead(terminal, read, undefined, tranType), { 'idempotency-key': randomUUID() }),
          await terminal.sale(bodyOfRead(terminal, read, reencoded(read), tranType === 'SALE' ? 'AUTH' : 'SALE')),
        ];
        for (const response of again) expect(expectCardReadUsed(response).detail).toContain(`by transaction ${first.tranId};`);
        // Another PBO holding the same read is refused too, without learning whose transaction used it.
        const elsewhere = expectCardReadUsed(await other.sale(bodyOfRead(other, read)));
        expect(elsewhere.detail).not.toContain(first.tranId);
        expect(elsewhere.detail).not.toContain(read.pan);

        expect(received.length).toBe(before + 1);
      }),
      { numRuns: 15 },
    );
  });

  it('should answer the first request its stored result under its own Idempotency-Key, and refuse the read under any other, after an approval or a decline', async () => {
    await fc.assert(
      fc.asyncProperty(freshReads(), fc.constantFrom<HostResponseV1['result']>('APPROVED', 'DECLINED'), async (read, outcome) => {
        result = outcome;
        const key = randomUUID();
        const before = received.length;
        const first = bodyOf<TransactionView>(await terminal.sale(bodyOfRead(terminal, read), { 'idempotency-key': key }), 201);
        expect(first.tranStatus).toBe(outcome);

        // A cryptogram is single-use at the issuer: a declined read is not tried again.
        expectCardReadUsed(await terminal.sale(bodyOfRead(terminal, read)));
        const repeat = bodyOf<TransactionView>(await terminal.sale(bodyOfRead(terminal, read), { 'idempotency-key': key }), 201);

        expect(repeat).toEqual(first);
        expect(received.length).toBe(before + 1);
      }),
      { numRuns: 10 },
    );
  });

  it('should let exactly one of identical reads sent at once reach the host, and refuse the others', async () => {
    await fc.assert(
      fc.asyncProperty(freshReads(), fc.integer({ min: 2, max: 6 }), fc.boolean(), async (read, copies, keyed) => {
        const before = received.length;
        const responses = await Promise.all(
          Array.from({ length: copies }, () => terminal.sale(bodyOfRead(terminal, read), keyed ? { 'idempotency-key': randomUUID() } : {})),
        );

        const approved = responses.filter((response) => response.status === 201);
        expect(approved).toHaveLength(1);
        expect((approved[0].body as TransactionView).tranStatus).toBe('APPROVED');
        for (const response of responses.filter((candidate) => candidate.status !== 201)) expectCardReadUsed(response);
        expect(received.length).toBe(before + 1);
        const [{ count }] = await app.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM payment_gateway.payment_transaction WHERE group_id = $1 AND tc = $2`,
          [
            terminal.groupId,
            read.elements
              .find((element) => element.tag === '9F26')!
              .value.toString('hex')
              .toUpperCase(),
          ],
        );
        expect(count).toBe(1);
      }),
      { numRuns: 8 },
    );
  });

  it('should keep no card number with the read: the stored digest is keyed, not the PAN', async () => {
    const read = fc.sample(freshReads(), 1)[0];
    const sale = bodyOf<TransactionView>(await terminal.sale(bodyOfRead(terminal, read)), 201);

    const [row] = await app.query<{ card_read: string }>('SELECT card_read FROM payment_gateway.payment_transaction WHERE id = $1', [sale.tranId]);
    expect(row.card_read).toMatch(/^[0-9a-f]{64}$/);
    expect(row.card_read).not.toContain(read.pan);
  });
});
