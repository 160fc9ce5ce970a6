import { MessagePublisher } from '@app/messaging';
import { ConsumerDefinition, DEAD_LETTER_HEADERS } from '@app/messaging/consumer';
import {
  connectNatsOrFail,
  consumerDrained,
  createTestDatabase,
  idleConsumer,
  IdleConsumer,
  queryDatabase,
  shuffled,
  runId,
  TestDatabase,
  waitFor,
  waitForDelivery,
} from '@app/testing';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { JetStreamManager, NatsConnection } from 'nats';
import { randomBytes, randomUUID } from 'node:crypto';
import { PROFILE_UPSERT_CONSUMER, profileUpsertConsumer } from '../src/profile-sync/profile-upsert.consumer';
import { TRANSACTION_WEBHOOK_CONSUMER, transactionWebhookConsumer } from '../src/webhook/transaction-webhook.consumer';
import { ProfileWithAcptView, upsertPayload } from './factories';
import { GatewayClient, JetStreamGateway, startGatewayOnJetStream } from './support';

// Names of this run only: the test never touches the platform's own stream or consumers.
const RUN = runId();
const STREAM = `GWTEST_${RUN}`;
const DEAD_LETTER_STREAM = `GWTEST_DLQ_${RUN}`;
const SUBJECT = `gwtest.${RUN}.profile.upsert.v1`;
const DEAD_LETTER_SUBJECT = `dlq.gwtest.${RUN}.profile.upsert.v1`;
const DURABLE = `gwtest_${RUN}`;
/** Short enough that a repeat published after it reaches the consumer (the broker would drop it inside the window). */
const DUPLICATE_WINDOW_MS = 200;

const definition: ConsumerDefinition = {
  ...profileUpsertConsumer,
  name: DURABLE,
  subject: SUBJECT,
  deadLetterSubject: DEAD_LETTER_SUBJECT,
  jetStream: { stream: STREAM, deadLetterStream: DEAD_LETTER_STREAM, concurrency: 8 },
};

/** The profile's push of `version`: its name, MIDs and number of acceptances change with every version. */
function pushOf(groupId: string, profileId: string, version: number): Record<string, unknown> {
  const acceptances = [
    { acptName: 'Acquirer A', hostMessageFormat: 'ISO8583', supportedPayments: ['VISA'], primaryMid: `MID-A-${version}`, primaryTid: 'TID-A', extraParams: {} },
  ];
  if (version % 2 === 0)
    acceptances.push({
      acptName: 'Acquirer B',
      hostMessageFormat: 'MOCK',
      supportedPayments: ['MASTERCARD'],
      primaryMid: `MID-B-${version}`,
      primaryTid: 'TID-B',
      extraParams: {},
    });
  return upsertPayload({ groupId, profileId, version, profileName: `device v${version}`, acceptances });
}

describe('profile upserts over NATS JetStream', () => {
  let database: TestDatabase;
  let app: NestFastifyApplication;
  let observer: NatsConnection;
  let jsm: JetStreamManager;
  let publisher: MessagePublisher;
  let gateway: JetStreamGateway;
  // The webhook intake is not what this file proves: out of the way, on this run's names.
  let webhooks: IdleConsumer;

  beforeAll(async () => {
    observer = await connectNatsOrFail();
    jsm = await observer.jetstreamManager();
    webhooks = await idleConsumer(jsm, transactionWebhookConsumer, RUN);
    database = await createTestDatabase('gwnats');
    gateway = await startGatewayOnJetStream(database.url, { name: STREAM, subjects: [SUBJECT], duplicateWindowMs: DUPLICATE_WINDOW_MS }, [
      [PROFILE_UPSERT_CONSUMER, definition],
      [TRANSACTION_WEBHOOK_CONSUMER, webhooks.definition],
    ]);
    app = gateway.app;
    publisher = gateway.publisher;
  });

  afterAll(async () => {
    await app?.close();
    await jsm?.streams.delete(STREAM).catch(() => undefined);
    await jsm?.streams.delete(DEAD_LETTER_STREAM).catch(() => undefined);
    await webhooks?.remove();
    await observer?.drain();
    await database?.drop();
  });

  function clientOf(groupId: string): Promise<GatewayClient> {
    return gateway.clientOf(groupId);
  }

  function drained(): Promise<boolean> {
    return consumerDrained(jsm, STREAM, DURABLE);
  }

  it('should bring 20 profiles to their highest version from 200 shuffled upserts with repeats, recording each message once', async () => {
    const groupId = `grp_${RUN}`;
    const profileIds = Array.from({ length: 20 }, () => `prof_${randomBytes(16).toString('base64url')}`);
    const messages = profileIds.flatMap((profileId) =>
      Array.from({ length: 8 }, (_, i) => ({ msgId: randomUUID(), payload: pushOf(groupId, profileId, i + 1) })),
    );
    const repeats = shuffled(messages).slice(0, 40);
    const before = (await jsm.streams.info(STREAM)).state.messages;

    const published = shuffled(messages);
    for (const message of published) await publisher.publish(SUBJECT, message.payload, { msgId: message.msgId });
    // Past the broker's duplicate window, the repeats reach the consumer as a redelivery would. The
    // window's end is observed, not slept for: the repeat whose original went out last is offered
    // until the broker takes it (inside the window a duplicate is acknowledged and dropped); every
    // other original went out before it, so its window has ended too, and the others follow.
    const js = observer.jetstream();
    const lastOut = (message: (typeof repeats)[number]) => published.indexOf(message);
    const [firstRepeat, ...otherRepeats] = [...repeats].sort((a, b) => lastOut(b) - lastOut(a));
    await waitFor(
      "the first repeat to be taken past the broker's duplicate window",
      async () => !(await js.publish(SUBJECT, new TextEncoder().encode(JSON.stringify(firstRepeat.payload)), { msgID: firstRepeat.msgId })).duplicate,
      DUPLICATE_WINDOW_MS * 50,
    );
    for (const message of otherRepeats) await publisher.publish(SUBJECT, message.payload, { msgId: message.msgId });
    await waitForDelivery('the consumer to handle every message', drained);

    expect((await jsm.streams.info(STREAM)).state.messages - before).toBe(200);
    const pbo = await clientOf(groupId);
    const profiles = await Promise.all(profileIds.map(async (id) => (await pbo.get<ProfileWithAcptView>(`/profiles/${id}`)).body));
    for (const profile of profiles) {
      expect(profile.profileName).toBe('device v8');
      expect(profile.acceptances.map((a) => [a.acptName, a.primaryMid])).toEqual([
        ['Acquirer A', 'MID-A-8'],
        ['Acquirer B', 'MID-B-8'],
      ]);
    }
    const [inbox] = await queryDatabase<{ n: number; distinct: number }>(
      database.url,
      'SELECT count(*)::int AS n, count(DISTINCT message_id)::int AS distinct FROM payment_gateway.inbox WHERE consumer = $1',
      [DURABLE],
    );
    expect(inbox).toEqual({ n: 160, distinct: 160 });
  });

  it('should publish a payload that breaks the contract to the dead-letter stream and never apply it', async () => {
    const groupId = `grp_dlq_${RUN}`;
    const payload = upsertPayload({ groupId, mcc: 'coffee' });
    const msgId = randomUUID();

    await publisher.publish(SUBJECT, payload, { msgId });
    await waitForDelivery('the dead letter', async () => (await jsm.streams.info(DEAD_LETTER_STREAM)).state.messages > 0);
    await waitForDelivery('the consumer to settle the message', drained);

    const dead = await jsm.streams.getMessage(DEAD_LETTER_STREAM, { last_by_subj: DEAD_LETTER_SUBJECT });
    expect(dead.header.get(DEAD_LETTER_HEADERS.messageId)).toBe(msgId);
    expect(dead.header.get(DEAD_LETTER_HEADERS.reason)).toMatch(/^GatewayProfileUpsertV1: mcc must be a 4-digit merchant category code/);
    expect(dead.json()).toEqual(payload);
    expect((await (await clientOf(groupId)).get(`/profiles/${String(payload.profileId)}`)).status).toBe(404);
  });
});
