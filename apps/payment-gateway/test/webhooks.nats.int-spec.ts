import { MessagePublisher } from '@app/messaging';
import { ConsumerDefinition, DEAD_LETTER_HEADERS } from '@app/messaging/consumer';
import {
  bodyOf,
  connectNatsOrFail,
  consumerDrained,
  createTestDatabase,
  idleConsumer,
  IdleConsumer,
  runId,
  TestDatabase,
  unique,
  waitForDelivery,
} from '@app/testing';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { JetStreamManager, NatsConnection } from 'nats';
import { randomUUID } from 'node:crypto';
import { PROFILE_UPSERT_CONSUMER, profileUpsertConsumer } from '../src/profile-sync/profile-upsert.consumer';
import { TRANSACTION_WEBHOOK_CONSUMER, transactionWebhookConsumer } from '../src/webhook/transaction-webhook.consumer';
import { transactionUpdatedPayload } from './factories';
import { GatewayClient, gatewayOptionsFrom, JetStreamGateway, startGatewayOnJetStream } from './support';
import { signatureVerifies, WebhookReceiver } from './webhook-receiver';

// Names of this run only: the test never touches the platform's own stream or consumers.
const RUN = runId();
const STREAM = `GWHOOK_${RUN}`;
const DEAD_LETTER_STREAM = `GWHOOK_DLQ_${RUN}`;
const SUBJECT = `gwhook.${RUN}.transaction.updated.v1`;
const DEAD_LETTER_SUBJECT = `dlq.gwhook.${RUN}.transaction.updated.v1`;

const definition: ConsumerDefinition = {
  ...transactionWebhookConsumer,
  name: `gwhook_${RUN}`,
  subject: SUBJECT,
  deadLetterSubject: DEAD_LETTER_SUBJECT,
  jetStream: { stream: STREAM, deadLetterStream: DEAD_LETTER_STREAM },
};

/**
 * The webhook intake as a second durable consumer of the gateway's transaction events on real
 * NATS JetStream: a transaction published there reaches the merchant's receiver once, and a
 * payload that breaks the contract is dead-lettered without a delivery.
 */
describe('webhooks from transaction events on NATS JetStream', () => {
  let database: TestDatabase;
  let app: NestFastifyApplication;
  let observer: NatsConnection;
  let jsm: JetStreamManager;
  let publisher: MessagePublisher;
  let receiver: WebhookReceiver;
  let upserts: IdleConsumer;
  let gateway: JetStreamGateway;

  beforeAll(async () => {
    observer = await connectNatsOrFail();
    jsm = await observer.jetstreamManager();
    upserts = await idleConsumer(jsm, profileUpsertConsumer, RUN);
    receiver = new WebhookReceiver();
    await receiver.start();
    database = await createTestDatabase('gwhooknats');
    gateway = await startGatewayOnJetStream(
      database.url,
      { name: STREAM, subjects: [SUBJECT] },
      [
        [TRANSACTION_WEBHOOK_CONSUMER, definition],
        [PROFILE_UPSERT_CONSUMER, upserts.definition],
      ],
      gatewayOptionsFrom({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_POLL_MS: '50' }),
    );
    app = gateway.app;
    publisher = gateway.publisher;
  });

  afterAll(async () => {
    await app?.close();
    await jsm?.streams.delete(STREAM).catch(() => undefined);
    await jsm?.streams.delete(DEAD_LETTER_STREAM).catch(() => undefined);
    await upserts?.remove();
    await observer?.drain();
    await database?.drop();
    await receiver?.stop();
  });

  function clientOf(groupId: string): Promise<GatewayClient> {
    return gateway.clientOf(groupId);
  }

  function drained(): Promise<boolean> {
    return consumerDrained(jsm, STREAM, definition.name);
  }

  it('should deliver a transaction published on JetStream once, signed, also when its version comes again under another message id', async () => {
    const pbo = await clientOf(unique('grp_'));
    const { secret } = bodyOf<{ secret: string }>(await pbo.get('/webhooks/secret'));
    const path = `/${unique('nats')}`;
    const event = transactionUpdatedPayload({ groupId: pbo.groupId, version: 3, transaction: { callbackUrl: receiver.url(path) } });

    await publisher.publish(SUBJECT, event, { msgId: randomUUID() });
    await publisher.publish(SUBJECT, event, { msgId: randomUUID() });
    await waitForDelivery('the consumer to take both messages', drained);
    await waitForDelivery('the delivery', async () => {
      const { data } = bodyOf<{ data: Array<{ state: string }> }>(await pbo.get(`/webhooks/deliveries?tranId=${String(event.transaction.tranId)}`));
      return data.length === 1 && data[0].state === 'DELIVERED';
    });

    const received = receiver.to(path);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0].raw)).toEqual(event.transaction);
    expect(signatureVerifies(received[0], secret)).toBe(true);
    expect(received[0].headers['softpos-transaction-version']).toBe('3');
  });

  it('should dead-letter a payload that breaks the contract, naming the field, and deliver nothing', async () => {
    const groupId = unique('grp_');
    const path = `/${unique('never')}`;
    const event = transactionUpdatedPayload({ groupId, transaction: { callbackUrl: receiver.url(path), tranStatus: 'LOST' } });
    const msgId = randomUUID();

    await publisher.publish(SUBJECT, event, { msgId });
    await waitForDelivery('the dead letter', async () => (await jsm.streams.info(DEAD_LETTER_STREAM)).state.messages > 0);
    await waitForDelivery('the consumer to settle the message', drained);

    const dead = await jsm.streams.getMessage(DEAD_LETTER_STREAM, { last_by_subj: DEAD_LETTER_SUBJECT });
    expect(dead.header.get(DEAD_LETTER_HEADERS.messageId)).toBe(msgId);
    expect(dead.header.get(DEAD_LETTER_HEADERS.reason)).toMatch(/^GatewayTransactionUpdatedV1: transaction\.tranStatus must be one of the following values/);
    expect(bodyOf<{ data: unknown[] }>(await (await clientOf(groupId)).get('/webhooks/deliveries')).data).toEqual([]);
    expect(receiver.to(path)).toEqual([]);
  });
});
