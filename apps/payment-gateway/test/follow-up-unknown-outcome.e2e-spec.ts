import {
  HOST_AUTHORIZE_V1,
  HOST_REFUND_V1,
  HOST_SETTLE_V1,
  HOST_VOID_V1,
  HostAuthorizeRequestV1,
  HostFollowUpRequestV1,
  HostResponseV1,
  HostSettleRequestV1,
} from '@app/contracts';
import { REQUEST_REPLY, RequestReplyTransport, ServedSubject } from '@app/messaging';
import { bodyOf, unique, waitFor } from '@app/testing';
import { expectProblem } from './support';
import { approvedReply, current, eventsOf, followUp, sell, settle } from './follow-up-support';
import { SaleTestApp, startGatewayAlone, TransactionView } from './sale-support';

const later = <T>(ms: number, value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), ms));

/**
 * A refund (or a settlement) whose outcome the request cannot learn is never shown as failed: the test plays the
 * host connector (as its idempotency by requestId does: a repeat of a request it handled gets the
 * recorded reply) and makes its reply come too late for the gateway.
 */
describe('a follow-up or settlement whose outcome the request cannot learn', () => {
  let app: SaleTestApp;
  let requests: RequestReplyTransport;
  const served: ServedSubject[] = [];
  const refunds: HostFollowUpRequestV1[] = [];
  /** How long the connector takes to record a refund's approval (replies come only after). */
  let recordAfterMs = 0;

  beforeAll(async () => {
    app = await startGatewayAlone({
      hostTimeoutMs: 300,
      replyMarginMs: 200,
      reaskWaitMs: 300,
      resolverIntervalMs: 100,
      resolverBackoffMs: 100,
      resolverBackoffMaxMs: 400,
      // Far above the 1.2 s the connector takes to record: under load, a check must never give up on an answer that is on its way.
      nothingSentAfterMs: 30_000,
      settleTimeoutMs: 300,
    });
    requests = app.app.get(REQUEST_REPLY);
    let stan = 0;
    served.push(
      requests.serve(HOST_AUTHORIZE_V1, 'host-connector', (payload) => {
        stan += 1;
        return Promise.resolve(approvedReply((payload as HostAuthorizeRequestV1).requestId, '0200', String(stan).padStart(6, '0')));
      }),
    );
    const recorded = new Map<string, HostResponseV1>();
    served.push(
      requests.serve(HOST_SETTLE_V1, 'host-connector', async (payload) => {
        const request = payload as HostSettleRequestV1;
        settles.push(request);
        const done = recorded.get(request.requestId);
        if (done) return done;
        const reply: HostResponseV1 = {
          ...approvedReply(request.requestId, '0500', '000900'),
          reconciliation: 'BALANCED',
          hostTotals: request.totals,
        };
        recorded.set(request.requestId, reply);
        // The host reconciled it, but the reply is lost: it comes long after the gateway stopped waiting.
        return later(5000, reply);
      }),
    );
    served.push(
      requests.serve(HOST_REFUND_V1, 'host-connector', async (payload) => {
        const request = payload as HostFollowUpRequestV1;
        refunds.push(request);
        const done = recorded.get(request.requestId);
        if (done) return done;
        if (refunds.filter((each) => each.requestId === request.requestId).length > 1) return later(request.timeoutMs ?? 300, {});
        stan += 1;
        const reply = approvedReply(request.requestId, '0200', String(stan).padStart(6, '0'));
        setTimeout(() => recorded.set(request.requestId, reply), recordAfterMs);
        // The first reply is lost: it comes long after the gateway stopped waiting.
        return later(5000, reply);
      }),
    );
    // A void is approved at once, but its first reply is lost: the gateway's second ask gets it.
    served.push(
      requests.serve(HOST_VOID_V1, 'host-connector', (payload) => {
        const request = payload as HostFollowUpRequestV1;
        const done = recorded.get(request.requestId);
        if (done) return Promise.resolve(done);
        stan += 1;
        const reply = approvedReply(request.requestId, '0400', String(stan).padStart(6, '0'));
        recorded.set(request.requestId, reply);
        return later(5000, reply);
      }),
    );
  });

  const settles: HostSettleRequestV1[] = [];

  afterEach(() => {
    refunds.length = 0;
    settles.length = 0;
  });

  afterAll(async () => {
    for (const each of served) await each.close();
    await app?.close();
  });

  it('should ask again at once under the same requestId and answer what the connector did', async () => {
    recordAfterMs = 0;
    const terminal = await app.newTerminal();
    const sale = await sell(terminal, { value: '10.00' });

    const refunded = bodyOf<TransactionView>(await followUp(terminal, sale.tranId, 'refund', { amount: '4.00' }));

    expect(refunded).toMatchObject({ tranStatus: 'APPROVED', refundedAmount: '4.00' });
    expect(refunds.map((request) => request.requestId)).toEqual([refunded.actions[1].actionId, refunded.actions[1].actionId]);
    expect(refunds[1]).toEqual(refunds[0]);
    expect(refunds[0]).toMatchObject({
      amount: { minor: '400', currency: '458' },
      original: { kind: 'SALE', mti: '0200', stan: sale.trace, rrn: sale.rrn, approvalCode: 'A1B2C3' },
      target: { hostMessageFormat: 'MOCK', mid: terminal.mid, tid: terminal.tid },
    });
  });

  it('should refuse a repeat of the same key while the first is in flight with 409 and Retry-After, then answer it the first one’s outcome', async () => {
    recordAfterMs = 0;
    const terminal = await app.newTerminal();
    const sale = await sell(terminal, { value: '10.00' });
    const key = unique('refund-');

    const first = followUp(terminal, sale.tranId, 'refund', { amount: '4.00' }, key);
    await waitFor('the first refund at the connector', () => Promise.resolve(refunds.length >= 1));
    const repeat = await followUp(terminal, sale.tranId, 'refund', { amount: '4.00' }, key);

    expectProblem(repeat, 409, /^the refund act_[A-Za-z0-9_-]{22} of this request is still in flight; ask again later$/);
    // Its request asks for 300 + 200 ms, then 300 ms more (hostTimeoutMs + replyMarginMs + reaskWaitMs): under a second, so 1.
    expect(repeat.headers.get('retry-after')).toBe('1');
    const refunded = bodyOf<TransactionView>(await first);
    expect(bodyOf<TransactionView>(await followUp(terminal, sale.tranId, 'refund', { amount: '4.00' }, key))).toEqual(refunded);
  });

  it('should refuse a repeat of a void while the first is in flight with 409 and Retry-After, then answer it the void', async () => {
    const terminal = await app.newTerminal();
    const sale = await sell(terminal, { value: '10.00' });
    const key = unique('void-');

    const first = followUp(terminal, sale.tranId, 'void', undefined, key);
    await waitFor('the void in flight', async () => (await current(terminal, sale.tranId)).actions.length === 2);
    const repeat = await followUp(terminal, sale.tranId, 'void', undefined, key);

    expectProblem(repeat, 409, /^the void act_[A-Za-z0-9_-]{22} of this request is still in flight; ask again later$/);
    expect(repeat.headers.get('retry-after')).toBe('1');
    const voided = bodyOf<TransactionView>(await first);
    expect(voided.tranStatus).toBe('VOIDED');
    expect(bodyOf<TransactionView>(await followUp(terminal, sale.tranId, 'void', undefined, key))).toEqual(voided);
  });

  it('should answer 504 while the outcome is unknown, keep the action PENDING (refusing others), and record it once the connector tells it', async () => {
    recordAfterMs = 1200;
    const terminal = await app.newTerminal();
    const sale = await sell(terminal, { value: '10.00' });
    const key = unique('refund-');

    const unknown = await followUp(terminal, sale.tranId, 'refund', { amount: '4.00' }, key);

    expectProblem(
      unknown,
      504,
      /the outcome of the refund act_[A-Za-z0-9_-]{22} is not known yet: outcome unknown \(the host connector did not answer in time\)/,
    );
    const pending = await current(terminal, sale.tranId);
    expect(pending).toMatchObject({ tranStatus: 'APPROVED', refundedAmount: '0.00' });
    expect(pending.actions[1]).toMatchObject({ actionType: 'REFUND', actionStatus: 'PENDING', reason: 'Pending' });
    expectProblem(await followUp(terminal, sale.tranId, 'void'), 409, /has REFUND action act_[A-Za-z0-9_-]{22} in flight/);
    let resolved: TransactionView | undefined;
    await waitFor('the resolver to record the refund', async () => {
      resolved = await current(terminal, sale.tranId);
      return resolved.actions[1].actionStatus !== 'PENDING';
    });
    expect(resolved).toMatchObject({ refundedAmount: '4.00' });
    expect(resolved!.actions[1]).toMatchObject({ actionStatus: 'SUCCESS', reason: 'HostSuccess', hostRespCode: '00' });
    expect(new Set(refunds.map((request) => request.requestId))).toEqual(new Set([pending.actions[1].actionId]));
    expect(bodyOf<TransactionView>(await followUp(terminal, sale.tranId, 'refund', { amount: '4.00' }, key))).toEqual(resolved);
    expect((await eventsOf(app, sale.tranId)).map((event) => [event.version, event.transaction.actions[1]?.actionStatus ?? null])).toEqual([
      [2, null],
      [3, 'PENDING'],
      [4, 'SUCCESS'],
    ]);
  });

  it('should answer a settlement whose reply was lost 504, keep the batch SETTLING, and let the next settlement ask the same host request again', async () => {
    const terminal = await app.newTerminal();
    const sale = await sell(terminal, { value: '10.00' });

    const lost = await settle(app, terminal, sale.acceptanceId, '000001');
    const settling = await current(terminal, sale.tranId);
    const taken = await settle(app, terminal, sale.acceptanceId, '000001');
    const again = await settle(app, terminal, sale.acceptanceId, '000001');

    expect(lost).toMatchObject({ outcome: null, refusal: { status: 504, detail: expect.stringMatching(/is not known yet/) as string } });
    expect(settling.settleState).toBe('SETTLING');
    expect(taken).toMatchObject({
      outcome: 'SETTLED',
      reconciliation: 'BALANCED',
      tranIds: [sale.tranId],
      totals: { paymentCount: 1, paymentAmount: '10.00' },
    });
    expect(again).toEqual(taken);
    expect(settles).toHaveLength(2);
    expect(settles[1]).toEqual(settles[0]);
    expect(await current(terminal, sale.tranId)).toMatchObject({ settleState: 'SETTLED' });
  });
});
