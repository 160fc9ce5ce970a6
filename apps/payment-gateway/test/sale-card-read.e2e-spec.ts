import { developmentFieldCipher } from '@app/common';
import { HOST_AUTHORIZE_V1, HostAuthorizeRequestV1, HostResponseV1, isSealedEmvTlv } from '@app/contracts';
import { REQUEST_REPLY, RequestReplyTransport, ServedSubject } from '@app/messaging';
import { bodyOf } from '@app/testing';
import { Logger } from '@nestjs/common';
import fc from 'fast-check';
import { tagLabel } from '../src/transaction/card/emv-data-elements';
import { CardRead, cardReadHex, cardReads, freshCardReads, mutationsOf, TEST_CURRENCIES } from '../src/transaction/card/testing/test-card';
import { SaleTestApp, startGatewayAlone, Terminal, TransactionView, recordingLogger } from './sale-support';

const MYR = TEST_CURRENCIES.filter((currency) => currency.alpha === 'MYR');

/**
 * The sale intake checks the card read as EMV defines it (outside review of issue 13): generated
 * valid reads of the six schemes are taken and sent to the host as given; the same reads with any
 * one element made into what no card gives are refused with 400 naming the tag and the rule,
 * nothing is stored, nothing reaches the host, and no refusal or log line shows the card number.
 * The test plays the host connector on host.authorize.v1 to see what reaches it.
 */
describe('POST /transaction: the card read', () => {
  let app: SaleTestApp;
  let terminal: Terminal;
  let served: ServedSubject;
  const received: HostAuthorizeRequestV1[] = [];
  const { lines: logLines, logger: recorder } = recordingLogger();

  beforeAll(async () => {
    app = await startGatewayAlone({ hostTimeoutMs: 1000, replyMarginMs: 1000, reaskWaitMs: 1000 });
    Logger.overrideLogger(recorder);
    const requests: RequestReplyTransport = app.app.get(REQUEST_REPLY);
    served = requests.serve(HOST_AUTHORIZE_V1, 'host-connector', (payload): Promise<HostResponseV1> => {
      const request = payload as HostAuthorizeRequestV1;
      received.push(request);
      return Promise.resolve({
        requestId: request.requestId,
        result: 'APPROVED',
        hostRespCode: '00',
        hostRespMessage: 'Approved',
        mti: '0210',
        stan: String(received.length % 1_000_000).padStart(6, '0'),
        transmittedAt: '1127090000',
        rrn: String(received.length).padStart(12, '0'),
        approvalCode: 'A1B2C3',
      });
    });
    terminal = await app.newTerminal({ currency: 'MYR', supportedPayments: ['VISA', 'MASTERCARD', 'UNIONPAY', 'AMEX', 'JCB', 'DISCOVER'] });
  });

  afterAll(async () => {
    await served?.close();
    await app?.close();
    Logger.overrideLogger(false);
  });

  beforeEach(() => {
    received.length = 0;
  });

  async function transactionCount(): Promise<number> {
    const [{ count }] = await app.query<{ count: number }>('SELECT count(*)::int AS count FROM payment_gateway.payment_transaction WHERE group_id = $1', [
      terminal.groupId,
    ]);
    return count;
  }

  const bodyOfRead = (read: CardRead, emvData: string) => ({ profileId: terminal.profileId, tranType: 'SALE', amount: read.sale.amount, emvData });

  it('should take valid card reads of every scheme and send each to the host as read', async () => {
    await fc.assert(
      // Each a new tap: a read used before is refused 409 (sale-card-replay.e2e-spec.ts).
      fc.asyncProperty(freshCardReads(MYR), async (read) => {
        const emvData = cardReadHex(read.elements, read.wrap);
        const before = received.length;

        const sale = bodyOf<TransactionView>(await terminal.sale(bodyOfRead(read, emvData)), 201);

        expect(sale).toMatchObject({ tranStatus: 'APPROVED', accountBin: read.pan.slice(0, 6), accountLast4: read.pan.slice(-4) });
        expect(received.length).toBe(before + 1);
        const sealed = received[received.length - 1].card.emvTlv;
        expect(isSealedEmvTlv(sealed) && developmentFieldCipher().open(sealed)).toBe(emvData);
      }),
      { numRuns: 30 },
    );
  });

  it('should refuse a card read with any one element made into what no card gives, with 400 naming the tag, storing nothing and sending nothing', async () => {
    const stored = await transactionCount();
    const pans: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        cardReads(MYR).chain((read) => mutationsOf(read).map((mutation) => ({ read, mutation }))),
        async ({ read, mutation }) => {
          pans.push(read.pan);
          const response = await terminal.sale(bodyOfRead(read, mutation.emvData));
          const detail = (response.body as { detail?: string }).detail ?? '';
          const named = `emvData ${tagLabel(mutation.tag)} `;

          expect([mutation.kind, response.status, response.headers.get('content-type')]).toEqual([
            mutation.kind,
            400,
            expect.stringMatching(/^application\/problem\+json/),
          ]);
          expect([mutation.kind, detail.slice(0, named.length)]).toEqual([mutation.kind, named]);
          expect([mutation.kind, detail.slice(named.length)]).toEqual([mutation.kind, expect.stringMatching(mutation.reason)]);
          expect(detail).not.toContain(read.pan);
        },
      ),
      { numRuns: 200 },
    );
    expect(received).toEqual([]);
    expect(await transactionCount()).toBe(stored);
    expect(logLines.filter((line) => pans.some((pan) => line.includes(pan)))).toEqual([]);
  });
});
