import { HOST_AUTHORIZE_V1, HOST_CAPTURE_V1, HOST_REFUND_V1, HostAuthorizeRequestV1, HostFollowUpRequestV1, HostResponseV1 } from '@app/contracts';
import { REQUEST_REPLY, RequestReplyTransport, ServedSubject } from '@app/messaging';
import { bodyOf } from '@app/testing';
import { approvedReply, followUp, sell } from './follow-up-support';
import { SaleTestApp, startGatewayAlone, TransactionView } from './sale-support';

/**
 * The host order a connector filed a transaction under (`HostResponseV1.orderId`, MPGS_AP) is what
 * its follow-ups name (`HostOriginalV1.orderId`): the gateway keeps it per action, so a refund of a
 * capture names the order the capture was filed under, not the capture. The test plays the
 * connector, filing each authorisation under an order of its own, each capture under an order of
 * its own too (`<original's>-C`, so what the refund names tells which action it came from), and
 * each refund under the order its original names.
 */
describe('follow-ups name the host order of their original', () => {
  let app: SaleTestApp;
  const served: ServedSubject[] = [];
  const followUps: HostFollowUpRequestV1[] = [];
  /** Whether the connector answering is one older than issue 16 (no orderId in its replies). */
  let olderConnector = false;
  let stan = 0;

  const reply = (requestId: string, mti: string, orderId: string | undefined): HostResponseV1 => {
    stan += 1;
    return { ...approvedReply(requestId, mti, String(stan).padStart(6, '0')), ...(olderConnector ? {} : { orderId: orderId ?? null }) };
  };

  beforeAll(async () => {
    app = await startGatewayAlone();
    const requests: RequestReplyTransport = app.app.get(REQUEST_REPLY);
    served.push(
      requests.serve(HOST_AUTHORIZE_V1, 'host-connector', (payload) => {
        const request = payload as HostAuthorizeRequestV1;
        return Promise.resolve(reply(request.requestId, request.kind === 'PREAUTH' ? '0100' : '0200', `ORDER-${request.requestId.slice(-12)}`));
      }),
    );
    for (const subject of [HOST_CAPTURE_V1, HOST_REFUND_V1]) {
      served.push(
        requests.serve(subject, 'host-connector', (payload) => {
          const request = payload as HostFollowUpRequestV1;
          followUps.push(request);
          const capture = subject === HOST_CAPTURE_V1;
          const orderId = request.original.orderId ?? undefined;
          return Promise.resolve(reply(request.requestId, capture ? '0220' : '0200', capture && orderId !== undefined ? `${orderId}-C` : orderId));
        }),
      );
    }
  });

  afterEach(() => {
    followUps.length = 0;
    olderConnector = false;
  });

  afterAll(async () => {
    for (const each of served) await each.close();
    await app?.close();
  });

  it('should name the order of the authorisation in a capture, and the order the capture was filed under in its refund', async () => {
    const terminal = await app.newTerminal();
    const auth = await sell(terminal, { value: '50.00', tranType: 'AUTH' });
    const order = `ORDER-${auth.actions[0].actionId.slice(-12)}`;

    bodyOf<TransactionView>(await followUp(terminal, auth.tranId, 'capture', { amount: '50.00' }));
    bodyOf<TransactionView>(await followUp(terminal, auth.tranId, 'refund', { amount: '20.00' }));

    expect(followUps.map((request) => [request.original.kind, request.original.orderId])).toEqual([
      ['PREAUTH', order],
      ['CAPTURE', `${order}-C`],
    ]);
    expect(followUps[1].original.stan).not.toBe(followUps[0].original.stan);
  });

  it('should name no order for an original whose connector reply had none', async () => {
    olderConnector = true;
    const terminal = await app.newTerminal();
    const sale = await sell(terminal, { value: '10.00' });

    bodyOf<TransactionView>(await followUp(terminal, sale.tranId, 'refund', { amount: '4.00' }));

    expect(followUps).toHaveLength(1);
    expect(followUps[0].original).toMatchObject({ kind: 'SALE', orderId: null });
  });
});
