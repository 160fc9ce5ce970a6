import { GATEWAY_TRANSACTION_UPDATED_V1 } from '@app/contracts';
import { JetStreamPublisher, NatsRequestReply } from '@app/messaging';
import { ConsumerDefinition, DEAD_LETTER_HEADERS } from '@app/messaging/consumer';
import { connectNatsOrFail, NATS_URL, runId, shuffled, unique, waitFor, waitForDelivery } from '@app/testing';
import { JetStreamManager, NatsConnection } from 'nats';
import { randomUUID } from 'node:crypto';
import { orderUpdatesConsumer } from '../src/order-sync/order-updates.consumer';
import { approvedSale, terminal, updated, versionsOf } from './factories';
import { ScriptedGateway, ScriptedMerchantManagement } from './scripted-contexts';
import { dataOf, Pbo, startTransactions, TransactionsTestApp } from './support';

/**
 * transactions on the machine's NATS JetStream: the durable consumer of the gateway's transaction
 * events (redelivery, repeats, dead letters), and void and settle over core request/reply to
 * responders on their own connection, as the gateway and merchant-management would answer.
 * Stream, subjects, durable and request subjects are this run's own (another run may share the server).
 */

const RUN = runId();
const STREAM = `TXNTEST_${RUN.toUpperCase()}`;
const DEAD_LETTER_STREAM = `TXNTEST_DLQ_${RUN.toUpperCase()}`;
const SUBJECT = `txntest.${RUN}.${GATEWAY_TRANSACTION_UPDATED_V1}`;
const DEAD_LETTER_SUBJECT = `dlq.txntest.${RUN}.${GATEWAY_TRANSACTION_UPDATED_V1}`;
const DURABLE = `txntest_${RUN}`;
const SUBJECT_PREFIX = `txntest.${RUN}`;
/** Short, so that a repeat of a message id published after it reaches the consumer (the broker drops one inside it). */
const DUPLICATE_WINDOW_MS = 200;

const definition: ConsumerDefinition = {
  ...orderUpdatesConsumer,
  name: DURABLE,
  subject: SUBJECT,
  deadLetterSubject: DEAD_LETTER_SUBJECT,
  jetStream: { stream: STREAM, deadLetterStream: DEAD_LETTER_STREAM, concurrency: 4 },
};

describe('transactions over NATS JetStream', () => {
  let app: TransactionsTestApp;
  let responders: NatsConnection;
  let jsm: JetStreamManager;
  let publisher: JetStreamPublisher;
  let gateway: ScriptedGateway;
  let merchantManagement: ScriptedMerchantManagement;
  let pbo: Pbo;

  beforeAll(async () => {
    responders = await connectNatsOrFail();
    jsm = await responders.jetstreamManager();
    app = await startTransactions({
      platform: {
        messaging: {
          transport: 'jetstream',
          servers: NATS_URL,
          stream: { name: STREAM, subjects: [SUBJECT], duplicateWindowMs: DUPLICATE_WINDOW_MS },
          subjectPrefix: SUBJECT_PREFIX,
        },
      },
      consumer: definition,
      scripted: false,
    });
    publisher = await JetStreamPublisher.create(responders, { stream: { name: STREAM, subjects: [SUBJECT], duplicateWindowMs: DUPLICATE_WINDOW_MS } });
    const requests = new NatsRequestReply(responders, { subjectPrefix: SUBJECT_PREFIX });
    gateway = new ScriptedGateway(requests, publisher, { eventSubject: SUBJECT }).start();
    merchantManagement = new ScriptedMerchantManagement(requests).start();
    pbo = await app.newPbo();
  });

  afterAll(async () => {
    await gateway?.close();
    await merchantManagement?.close();
    await app?.close();
    await jsm?.streams.delete(STREAM).catch(() => undefined);
    await jsm?.streams.delete(DEAD_LETTER_STREAM).catch(() => undefined);
    await responders?.drain();
  });

  async function drained(): Promise<boolean> {
    const info = await jsm.consumers.info(STREAM, DURABLE);
    return info.num_pending === 0 && info.num_ack_pending === 0;
  }

  const detail = async (tranId: string) => pbo.get<{ state: number; actions: Array<{ actionType: string }> }>(`/api/v2/order/${tranId}`);

  it('should bring every order to its highest version from shuffled events with repeats', async () => {
    const transactions = Array.from({ length: 8 }, () => versionsOf(approvedSale({ minor: 100_000 }), 5));
    const messages = transactions.flatMap((versions) => versions.map((transaction, index) => updated(transaction, index + 1, pbo.groupId)));

    for (const message of shuffled([...messages, ...shuffled(messages).slice(0, 15)])) await publisher.publish(SUBJECT, message, { msgId: randomUUID() });
    await waitForDelivery('the consumer to handle every event', drained);

    for (const versions of transactions) {
      const order = dataOf(await detail(versions[0].tranId));
      expect(order.actions.filter((action) => action.actionType === 'REFUND')).toHaveLength(4);
    }
  });

  it('should change nothing for a message id it already processed, also past the broker duplicate window', async () => {
    const [first, second] = versionsOf(approvedSale({ minor: 5000 }), 2);
    const msgId = randomUUID();
    await publisher.publish(SUBJECT, updated(first, 1, pbo.groupId), { msgId });
    await waitForDelivery('the first event', async () => (await detail(first.tranId)).status === 200);

    // The same message id carrying another payload: only the inbox can tell it was processed.
    const js = responders.jetstream();
    await waitFor(
      "the repeat to be taken past the broker's duplicate window",
      async () => !(await js.publish(SUBJECT, new TextEncoder().encode(JSON.stringify(updated(second, 2, pbo.groupId))), { msgID: msgId })).duplicate,
      DUPLICATE_WINDOW_MS * 50,
    );
    await waitForDelivery('the repeat to be handled', drained);

    expect(dataOf(await detail(first.tranId)).actions.map((action) => action.actionType)).toEqual(['NEW']);
  });

  it('should dead-letter an event that breaks its contract at once, saying why, and keep consuming', async () => {
    const msgId = randomUUID();
    await publisher.publish(SUBJECT, { version: 0, groupId: pbo.groupId, merchantId: null, transaction: approvedSale() }, { msgId });
    await waitForDelivery('the dead letter', async () => (await jsm.streams.info(DEAD_LETTER_STREAM).catch(() => undefined))?.state.messages === 1);

    const dead = await jsm.streams.getMessage(DEAD_LETTER_STREAM, { last_by_subj: DEAD_LETTER_SUBJECT });
    expect({
      consumer: dead.header.get(DEAD_LETTER_HEADERS.consumer),
      messageId: dead.header.get(DEAD_LETTER_HEADERS.messageId),
      deliveries: dead.header.get(DEAD_LETTER_HEADERS.deliveries),
    }).toEqual({
      consumer: DURABLE,
      messageId: msgId,
      deliveries: '1',
    });
    expect(dead.header.get(DEAD_LETTER_HEADERS.reason)).toMatch(/version must not be less than 1/);
    const sale = approvedSale();
    await publisher.publish(SUBJECT, updated(sale, 1, pbo.groupId), { msgId: randomUUID() });
    await waitForDelivery('the next event', async () => (await detail(sale.tranId)).status === 200);
  });

  it("should void and settle through responders on NATS request/reply, under this run's subjects", async () => {
    const shop = terminal();
    const password = unique('Pw ');
    merchantManagement.device(pbo.groupId, shop.sdkId, password);
    const [voided, kept] = [approvedSale({ terminal: shop, minor: 1000 }), approvedSale({ terminal: shop, minor: 2500 })];
    for (const sale of [voided, kept]) await gateway.take(pbo.groupId, sale);
    await waitForDelivery('both orders', async () => (await detail(kept.tranId)).status === 200 && (await detail(voided.tranId)).status === 200);

    expect(dataOf(await pbo.post(`/api/v2/order/void/${voided.tranId}`, { adminPwd: password }))).toEqual({
      currency: 'MYR',
      state: 4,
      deviceId: shop.sdkId,
      refundAmount: 10,
      actionStatus: 'SUCCESS',
      hostRespCode: '00',
      hostRespMessage: 'Approved',
    });
    const batch = dataOf(await pbo.get<{ records: Array<{ batchId: string; acquirerTid: string }> }>('/api/v2/settlement?pageSize=-1')).records.find(
      (record) => record.acquirerTid === shop.primaryTid,
    )!;
    expect(dataOf(await pbo.post<{ state: number }>('/api/v2/settlement/settle', { batchId: batch.batchId })).state).toBe(1);

    const settled = dataOf(
      await pbo.get<{ paymentCount: number; paymentAmt: number; voidCount: number; voidAmt: number }>(`/api/v2/settlement/${batch.batchId}`),
    );
    expect(settled).toMatchObject({ state: 1, paymentCount: 1, paymentAmt: 25, voidCount: 1, voidAmt: 10 });
    expect(merchantManagement.received).toEqual([{ groupId: pbo.groupId, deviceId: shop.sdkId, adminPwd: password }]);
  });
});
