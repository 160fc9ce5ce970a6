import { connectNatsOrFail, runId } from '@app/testing';
import { AckPolicy, JetStreamManager, NatsConnection } from 'nats';
import { openOutboxDatabase, OutboxDatabase, silentLogger } from '../../test/outbox-fixtures';
import { OutboxRelay } from '../outbox/outbox-relay';
import { OutboxWriter } from '../outbox/outbox-writer';
import { JetStreamPublisher } from './jetstream-publisher';

const RUN = runId();
const STREAM = `MSGTEST_${RUN}`;
const PREFIX = `msgtest.${RUN}`;

describe('JetStreamPublisher', () => {
  let connection: NatsConnection;
  let jsm: JetStreamManager;
  let publisher: JetStreamPublisher;

  beforeAll(async () => {
    connection = await connectNatsOrFail();
    jsm = await connection.jetstreamManager();
    publisher = await JetStreamPublisher.create(connection, {
      stream: { name: STREAM, subjects: [`${PREFIX}.events.>`], duplicateWindowMs: 120_000, maxAgeMs: 3600_000 },
    });
  });

  afterAll(async () => {
    await jsm?.streams.delete(STREAM).catch(() => undefined);
    await connection?.drain();
  });

  it('should store a message once when the same msgId is published twice', async () => {
    const subject = `${PREFIX}.events.dedup.v1`;
    const before = (await jsm.streams.info(STREAM)).state.messages;

    await publisher.publish(subject, { n: 1 }, { msgId: `dedup-${RUN}` });
    await publisher.publish(subject, { n: 1 }, { msgId: `dedup-${RUN}` });

    const info = await jsm.streams.info(STREAM);
    expect(info.state.messages - before).toBe(1);
  });

  it('should create the stream on file storage with the duplicate window', async () => {
    const info = await jsm.streams.info(STREAM);

    expect(info.config.storage).toBe('file');
    expect(info.config.duplicate_window).toBe(120_000 * 1_000_000);
  });

  it('should add the subjects it lacks and keep the ones another app added', async () => {
    await JetStreamPublisher.create(connection, {
      stream: { name: STREAM, subjects: [`${PREFIX}.events.covered.v1`, `${PREFIX}.other.v1`] },
    });

    const info = await jsm.streams.info(STREAM);
    expect(info.config.subjects).toEqual([`${PREFIX}.events.>`, `${PREFIX}.other.v1`]);
  });

  it('should fail when no stream captures the subject, so the outbox retries', async () => {
    await expect(publisher.publish(`uncaptured.${RUN}.v1`, {}, { msgId: `lost-${RUN}` })).rejects.toThrow();
  });

  describe('behind the outbox relay', () => {
    let db: OutboxDatabase;
    let relay: OutboxRelay;

    beforeAll(async () => {
      db = await openOutboxDatabase();
    });

    afterAll(async () => {
      await relay?.stop();
      await db?.close();
    });

    it('should carry a committed outbox row to a durable pull consumer', async () => {
      const subject = `${PREFIX}.events.profile.upsert.v1`;
      const durable = `e2e_${RUN}`;
      await jsm.consumers.add(STREAM, { durable_name: durable, ack_policy: AckPolicy.Explicit, filter_subject: subject });
      const payload = { profileId: 'prof_e2e', version: 3, acceptances: [] };

      const id = await db.dataSource.transaction((manager) => new OutboxWriter().enqueue(manager, subject, payload, { 'x-trace-id': 'trace-1' }));
      relay = new OutboxRelay(db.dataSource, publisher, { logger: silentLogger, pollIntervalMs: 20 });
      relay.start();

      const consumer = await connection.jetstream().consumers.get(STREAM, durable);
      const message = await consumer.next({ expires: 5000 });
      message?.ack();

      expect(message?.json()).toEqual(payload);
      expect(message?.headers?.get('Nats-Msg-Id')).toBe(id);
      expect(message?.headers?.get('x-trace-id')).toBe('trace-1');
      expect(message?.info.redelivered).toBe(false);
    });
  });
});
