import { decodeContract, GATEWAY_TRANSACTION_REFUND_V1, GatewayTransactionReplyV1 } from '@app/contracts';
import { connectNatsOrFail, IdleConsumer, idleConsumer, NATS_URL, runId, unique } from '@app/testing';
import { NatsConnection } from 'nats';
import { profileUpsertConsumer } from '../src/profile-sync/profile-upsert.consumer';
import { transactionWebhookConsumer } from '../src/webhook/transaction-webhook.consumer';
import { gatewayRequests, sell, settle } from './follow-up-support';
import { SaleTestApp, startGatewayWithConnector } from './sale-support';

// This run's own request/reply subjects and stream: another run's gateway never answers ours.
const RUN = runId();
const PREFIX = `gwfollow.${RUN}`;

/**
 * The transactions context's side of the gateway over the machine's NATS server: void, refund,
 * capture and settle as core request/reply (queue group `payment-gateway`), answered with the
 * transaction and its version, or a refusal in HTTP terms; a payload that breaks its contract
 * is refused 400 naming the field, never dropped.
 */
describe('follow-ups and settlement over NATS', () => {
  let app: SaleTestApp;
  let observer: NatsConnection;
  let idle: IdleConsumer[] = [];

  beforeAll(async () => {
    observer = await connectNatsOrFail();
    // The gateway's event consumers are not exercised here: moved to streams of this run (the
    // module takes their definitions by reference, in this file's module registry only), so they
    // neither need the platform's stream on a shared server nor read its messages.
    const jsm = await observer.jetstreamManager();
    idle = await Promise.all([profileUpsertConsumer, transactionWebhookConsumer].map((definition) => idleConsumer(jsm, definition, RUN)));
    Object.assign(profileUpsertConsumer, idle[0].definition);
    Object.assign(transactionWebhookConsumer, idle[1].definition);
    app = await startGatewayWithConnector(
      { hostTimeoutMs: 2000, replyMarginMs: 2000 },
      {
        platform: {
          messaging: {
            transport: 'jetstream',
            servers: NATS_URL,
            stream: { name: `GWFOLLOW_${RUN}`, subjects: [`${PREFIX}.unused`] },
            subjectPrefix: PREFIX,
            publishTimeoutMs: 500,
          },
        },
      },
    );
  });

  afterAll(async () => {
    await app?.close();
    const jsm = await observer?.jetstreamManager();
    await jsm?.streams.delete(`GWFOLLOW_${RUN}`).catch(() => undefined);
    for (const consumer of idle) await consumer.remove(jsm);
    await observer?.drain();
  });

  it.each(['ISO8583', 'MOCK'])('should refund, capture, void and settle %s transactions asked over NATS', async (hostMessageFormat) => {
    const terminal = await app.newTerminal({ hostMessageFormat });
    const sale = await sell(terminal, { value: '10.00' });
    const auth = await sell(terminal, { value: '20.00', tranType: 'AUTH' });
    const voided = await sell(terminal, { value: '3.00' });
    const gateway = gatewayRequests(app);
    const who = { groupId: terminal.groupId };

    const refund = await gateway.refund({ ...who, requestId: unique('r-'), tranId: sale.tranId, amount: '4.00', reason: 'returned' }, { timeoutMs: 10_000 });
    const capture = await gateway.capture({ ...who, requestId: unique('c-'), tranId: auth.tranId, amount: '15.00' }, { timeoutMs: 10_000 });
    const voidReply = await gateway.void({ ...who, requestId: unique('v-'), tranId: voided.tranId }, { timeoutMs: 10_000 });
    const beyond = await gateway.refund({ ...who, requestId: unique('r-'), tranId: sale.tranId, amount: '6.01' }, { timeoutMs: 10_000 });
    const declined = await gateway.refund({ ...who, requestId: unique('r-'), tranId: sale.tranId, amount: '0.51' }, { timeoutMs: 10_000 });
    const settled = await settle(app, terminal, sale.acceptanceId, '000001');

    expect(refund).toMatchObject({ version: 3, refusal: null, transaction: { tranId: sale.tranId, refundedAmount: '4.00', tranStatus: 'APPROVED' } });
    expect(refund.actionId).toBe(refund.transaction!.actions[1].actionId);
    expect(capture).toMatchObject({ version: 3, refusal: null, transaction: { capturedAmount: '15.00' } });
    expect(voidReply).toMatchObject({ version: 3, refusal: null, transaction: { tranStatus: 'VOIDED' } });
    expect(beyond).toMatchObject({ transaction: null, version: null, actionId: null, refusal: { status: 409 } });
    // A decline is the host's answer to a complete request: no refusal, the transaction with the action FAILED.
    expect(declined).toMatchObject({ version: 4, refusal: null, transaction: { tranStatus: 'APPROVED', refundedAmount: '4.00' } });
    expect(declined.transaction!.actions.at(-1)).toMatchObject({ actionId: declined.actionId, actionStatus: 'FAILED', reason: 'HostDeclined', hostRespCode: '51' });
    // Asked over NATS, an action's requestId is a service request id of its own (spec 3: req_…), not the caller's.
    for (const reply of [refund, capture, voidReply, declined]) expect(reply.transaction!.actions.at(-1)!.requestId).toMatch(/^req_[A-Za-z0-9_-]{22}$/);
    expect(settled).toMatchObject({
      outcome: 'SETTLED',
      reconciliation: 'BALANCED',
      totals: { paymentCount: 2, paymentAmount: '25.00', refundCount: 1, refundAmount: '4.00', voidCount: 1, voidAmount: '3.00' },
    });
    expect(settled.tranIds.sort()).toEqual([sale.tranId, auth.tranId, voided.tranId].sort());
  });

  it('should refuse a request that breaks its contract with 400 naming the field', async () => {
    const message = await observer.request(
      `${PREFIX}.${GATEWAY_TRANSACTION_REFUND_V1}`,
      JSON.stringify({ requestId: 'r-1', groupId: 'grp', tranId: 'tran_x', amount: '1.5.0' }),
      { timeout: 5000 },
    );

    expect(decodeContract(GatewayTransactionReplyV1, message.json())).toEqual({
      transaction: null,
      version: null,
      actionId: null,
      refusal: { status: 400, detail: expect.stringMatching(/amount must be a decimal amount/) as string },
    });
  });
});
