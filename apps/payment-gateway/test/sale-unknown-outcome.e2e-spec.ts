import {
  decodeContract,
  GATEWAY_TRANSACTION_UPDATED_V1,
  GatewayTransactionUpdatedV1,
  HOST_AUTHORIZE_V1,
  HostAuthorizeRequestV1,
  HostResponseV1,
  isSealedEmvTlv,
} from '@app/contracts';
import { developmentFieldCipher } from '@app/common';
import { decodeTlv } from '@app/iso8583';
import { REQUEST_REPLY, RequestReplyTransport, ServedSubject } from '@app/messaging';
import { bodyOf, unique, waitFor } from '@app/testing';
import { TEST_VISA_PAN } from '../src/transaction/card/testing/test-card';
import { saleBody, SaleTestApp, startGatewayAlone, Terminal, TransactionView } from './sale-support';

/** The card data of a host request as the connector opens it: it travels sealed under the platform's key (the test apps' development key), never in clear. */
function openedCard(request: HostAuthorizeRequestV1): string {
  if (!isSealedEmvTlv(request.card.emvTlv)) throw new Error(`request ${request.requestId} carries its card data in clear`);
  return developmentFieldCipher().open(request.card.emvTlv);
}

/**
 * What the scripted connector does with a request it takes: record `answer` as the outcome after
 * `recordAfterMs` (never, when Infinity: a handler that stopped before sending) and reply after
 * `replyAfterMs` (a reply later than the gateway waits is a lost one); `unreadable` records an
 * approval and replies garbage; `never-received` is a request that reached no connector.
 */
type Script = { answer: Partial<HostResponseV1>; recordAfterMs?: number; replyAfterMs?: number } | 'unreadable' | 'never-received';

const later = <T>(ms: number, value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), ms));

const NOTHING_SENT_AFTER_MS = 3000;
const STILL_HANDLED = 'authorize is still being handled by an earlier request with the same requestId; ask again later';

/**
 * An outcome the gateway cannot learn at once: the test plays the host connector on
 * `host.authorize.v1` with its documented idempotency (a repeat of a requestId it handled gets
 * the recorded reply; one it never received is handled anew, and without a card number it can
 * send nothing: REJECTED), and scripts what it does with each request.
 */
describe('POST /transaction: an outcome the request cannot learn is never a decline', () => {
  let app: SaleTestApp;
  let requests: RequestReplyTransport;
  let served: ServedSubject | undefined;
  const received: HostAuthorizeRequestV1[] = [];

  beforeAll(async () => {
    app = await startGatewayAlone({
      hostTimeoutMs: 300,
      replyMarginMs: 200,
      reaskWaitMs: 300,
      resolverIntervalMs: 100,
      resolverBackoffMs: 100,
      resolverBackoffMaxMs: 400,
      nothingSentAfterMs: NOTHING_SENT_AFTER_MS,
    });
    requests = app.app.get(REQUEST_REPLY);
  });

  afterEach(async () => {
    await served?.close();
    served = undefined;
    received.length = 0;
  });

  afterAll(() => app?.close());

  function approved(request: HostAuthorizeRequestV1, overrides: Partial<HostResponseV1> = {}): HostResponseV1 {
    return {
      requestId: request.requestId,
      result: 'APPROVED',
      hostRespCode: '00',
      hostRespMessage: 'Approved',
      mti: '0200',
      stan: '000042',
      transmittedAt: '1123080000',
      rrn: '532708000042',
      approvalCode: 'A1B2C3',
      ...overrides,
    };
  }

  /**
   * Serves host.authorize.v1 as the connector does by requestId: a recorded outcome is replied at
   * once; a request still being handled makes the repeat wait for it until the repeat's deadline,
   * then answer HOST_UNAVAILABLE "still being handled"; a new request without a card number is
   * REJECTED (nothing can be sent); any other new one goes as `script(request, n)` says.
   */
  function connector(script: (request: HostAuthorizeRequestV1, n: number) => Script): void {
    const recorded = new Map<string, HostResponseV1>();
    const handling = new Set<string>();
    served = requests.serve(HOST_AUTHORIZE_V1, 'host-connector', async (payload) => {
      const request = payload as HostAuthorizeRequestV1;
      received.push(request);
      if (handling.has(request.requestId)) {
        const deadline = Date.now() + (request.timeoutMs ?? 1000);
        while (Date.now() < deadline && !recorded.has(request.requestId)) await later(20, undefined);
        return (
          recorded.get(request.requestId) ?? {
            ...approved(request),
            result: 'HOST_UNAVAILABLE',
            hostRespCode: null,
            hostRespMessage: STILL_HANDLED,
            mti: null,
            stan: null,
            transmittedAt: null,
            rrn: null,
            approvalCode: null,
          }
        );
      }
      const tags = decodeTlv(Buffer.from(openedCard(request), 'hex')).map((object) => object.tag);
      if (!tags.includes('5A') && !tags.includes('57')) {
        return {
          ...approved(request),
          result: 'REJECTED',
          hostRespCode: null,
          hostRespMessage: 'ISO8583: card EMV data holds no PAN (neither tag 5A nor tag 57)',
          mti: null,
          stan: null,
          transmittedAt: null,
          rrn: null,
          approvalCode: null,
        };
      }
      const step = script(request, received.length);
      if (step === 'never-received') return later(1000, {});
      handling.add(request.requestId);
      if (step === 'unreadable') {
        recorded.set(request.requestId, approved(request));
        return { ...approved(request), stan: 'not a STAN' };
      }
      const response = approved(request, step.answer);
      const recordAfterMs = step.recordAfterMs ?? 0;
      if (recordAfterMs === 0) recorded.set(request.requestId, response);
      else if (Number.isFinite(recordAfterMs)) setTimeout(() => recorded.set(request.requestId, response), recordAfterMs);
      return later(step.replyAfterMs ?? recordAfterMs, Number.isFinite(recordAfterMs) ? response : {});
    });
  }

  async function eventsOf(tranId: string): Promise<GatewayTransactionUpdatedV1[]> {
    const rows = await app.query<{ payload: unknown }>(
      `SELECT payload FROM payment_gateway.outbox WHERE subject = $1 AND payload->'transaction'->>'tranId' = $2 ORDER BY id`,
      [GATEWAY_TRANSACTION_UPDATED_V1, tranId],
    );
    return rows.map((row) => decodeContract(GatewayTransactionUpdatedV1, row.payload));
  }

  async function settled(terminal: Terminal, tranId: string): Promise<TransactionView> {
    let current: TransactionView | undefined;
    await waitFor(`transaction ${tranId} settled`, async () => {
      current = bodyOf<TransactionView>(await terminal.pbo.get(`/transaction/${tranId}`));
      return current.tranStatus !== 'PENDING';
    });
    return current!;
  }

  it('should ask again under the same requestId when the reply was lost, and record what the connector did', async () => {
    connector(() => ({ answer: {}, replyAfterMs: 1500 }));
    const terminal = await app.newTerminal();

    const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal)), 201);

    expect(sale).toMatchObject({ tranStatus: 'APPROVED', rrn: '532708000042', approvalCode: 'A1B2C3', trace: '000042' });
    expect(received).toHaveLength(2);
    // The same request, its card sealed anew (each seal has its own IV).
    const asOpened = (request: HostAuthorizeRequestV1) => ({ ...request, card: { ...request.card, emvTlv: openedCard(request) } });
    expect(asOpened(received[1])).toEqual(asOpened(received[0]));
    expect(received[0].requestId).toBe(sale.actions[0].actionId);
  });

  it('should read a reply that breaks the contract as unknown, never as a decline', async () => {
    connector(() => 'unreadable');
    const terminal = await app.newTerminal();

    const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal)), 201);

    expect(sale.tranStatus).toBe('APPROVED');
    expect(received.map((request) => request.requestId)).toEqual([sale.actions[0].actionId, sale.actions[0].actionId]);
  });

  it('should answer PENDING when neither ask is answered, publish it, and record the outcome once the connector tells it', async () => {
    connector(() => ({ answer: { result: 'DECLINED', hostRespCode: '05', hostRespMessage: 'Do not honour', approvalCode: null }, recordAfterMs: 1500 }));
    const terminal = await app.newTerminal();
    const headers = { 'idempotency-key': `key-${unique()}` };
    const body = saleBody(terminal);

    const pending = bodyOf<TransactionView>(await terminal.sale(body, headers), 201);

    expect(pending).toMatchObject({ tranStatus: 'PENDING', approvedAmount: null, batchNo: null, trace: '' });
    expect(pending.actions).toEqual([
      expect.objectContaining({
        actionStatus: 'PENDING',
        reason: 'Pending',
        hostRespMessage: expect.stringMatching(/^outcome unknown \(the host connector did not answer in time\)/) as string,
      }),
    ]);
    const resolved = await settled(terminal, pending.tranId);
    expect(resolved).toMatchObject({ tranStatus: 'DECLINED', batchNo: null });
    expect(resolved.actions).toEqual([
      expect.objectContaining({ actionStatus: 'FAILED', reason: 'HostDeclined', hostRespCode: '05', hostRespMessage: 'Do not honour' }),
    ]);
    // The resolver asked under the same requestId, with the chip data it kept and no card number.
    const resolverAsk = received[2];
    expect(resolverAsk.requestId).toBe(pending.actions[0].actionId);
    expect(decodeTlv(Buffer.from(openedCard(resolverAsk), 'hex')).map((object) => object.tag)).toEqual(['4F', '9F26', '95', '9F36', '9F02', '5F2A']);
    expect(openedCard(resolverAsk)).not.toContain(TEST_VISA_PAN);
    expect({ ...resolverAsk, card: null }).toEqual({ ...received[0], card: null });
    expect((await eventsOf(pending.tranId)).map((event) => [event.version, event.transaction.tranStatus])).toEqual([
      [2, 'PENDING'],
      [3, 'DECLINED'],
    ]);
    // The key's answer was PENDING: a repeat now answers what became of the sale.
    expect(bodyOf(await terminal.sale(body, headers), 201)).toEqual(resolved);
  });

  it('should decline, as nothing was sent, a sale the connector never received once its repeat cannot be sent without the card', async () => {
    connector(() => 'never-received');
    const terminal = await app.newTerminal();

    const pending = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal)), 201);
    expect(pending.tranStatus).toBe('PENDING');

    const resolved = await settled(terminal, pending.tranId);
    expect(resolved).toMatchObject({ tranStatus: 'DECLINED', trace: '' });
    expect(resolved.actions).toEqual([expect.objectContaining({ actionStatus: 'FAILED', reason: 'HostRejected', hostReference: null })]);
  });

  it('should keep a sale PENDING while a repeat is answered "still being handled" (HOST_UNAVAILABLE), and decline it only once nothing can be in flight', async () => {
    connector(() => ({ answer: {}, recordAfterMs: Infinity, replyAfterMs: 1000 }));
    const terminal = await app.newTerminal();

    const pending = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal)), 201);
    await waitFor('the resolver asking twice', () => received.length >= 4);
    expect(bodyOf<TransactionView>(await terminal.pbo.get(`/transaction/${pending.tranId}`)).tranStatus).toBe('PENDING');

    const resolved = await settled(terminal, pending.tranId);
    expect(resolved).toMatchObject({ tranStatus: 'DECLINED' });
    expect(resolved.actions).toEqual([expect.objectContaining({ actionStatus: 'FAILED', reason: 'HostUnavailable' })]);
    expect(Date.parse(resolved.updatedAt!.replace('000+00:00', 'Z')) - Date.parse(resolved.createdAt.replace('000+00:00', 'Z'))).toBeGreaterThanOrEqual(
      NOTHING_SENT_AFTER_MS,
    );
  });

  it('should decline at once, with nothing sent, when no host connector serves host.authorize.v1', async () => {
    const terminal = await app.newTerminal();

    const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal)), 201);

    expect(sale).toMatchObject({ tranStatus: 'DECLINED', trace: '', rrn: null });
    expect(sale.actions).toEqual([
      expect.objectContaining({
        actionStatus: 'FAILED',
        reason: 'HostConnectorUnavailable',
        hostRespCode: null,
        hostRespMessage: 'no host connector answers host.authorize.v1; nothing was sent',
      }),
    ]);
  });

  it.each([
    // The connector's text of an unreachable host names the address and how it failed (a port oracle): the caller reads one text.
    ['HOST_UNAVAILABLE', 'HostUnavailable', 'the acquirer host could not be reached'],
    ['REJECTED', 'HostRejected', 'said REJECTED'],
  ] as const)('should record a first answer %s as a decline with reason %s', async (result, reason, shown) => {
    connector(() => ({
      answer: { result, hostRespCode: null, hostRespMessage: `said ${result}`, mti: null, stan: null, transmittedAt: null, rrn: null, approvalCode: null },
    }));
    const terminal = await app.newTerminal();

    const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal)), 201);

    expect(sale).toMatchObject({ tranStatus: 'DECLINED', batchNo: null });
    expect(sale.actions).toEqual([expect.objectContaining({ actionStatus: 'FAILED', reason, hostRespMessage: shown })]);
    expect(received).toHaveLength(1);
  });

  it('should record a partial approval with the amount the host approved, which a sale captures', async () => {
    connector(() => ({ answer: { hostRespCode: '10', partial: true, approvedAmount: { minor: '600', currency: '458' } } }));
    const terminal = await app.newTerminal();

    const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal, { value: '10.00' })), 201);

    expect(sale).toMatchObject({
      tranStatus: 'APPROVED',
      amount: { value: '10.00', currency: 'MYR' },
      approvedAmount: { value: '6.00', currency: 'MYR' },
      capturedAmount: '6.00',
      batchNo: '000001',
    });
  });
});
