import { connectNatsOrFail, runId, waitFor } from '@app/testing';
import { AckPolicy, JetStreamManager, NatsConnection, nanos } from 'nats';
import { silentLogger } from '../../test/outbox-fixtures';
import { JetStreamPublisher } from '../transport/jetstream-publisher';
import { ConsumedMessage, ConsumerDefinition, DEAD_LETTER_HEADERS, PoisonMessageError } from './consumer-definition';
import { DEAD_LETTER_PUBLISH_ATTEMPTS, ensureDurableConsumer, JetStreamConsumer } from './jetstream-consumer';

const RUN = runId();
const STREAM = `CONSTEST_${RUN}`;
const DEAD_LETTER_STREAM = `CONSTEST_DLQ_${RUN}`;

/** A handler that fails as a script says, then records what it handled. */
class ScriptedHandler {
  readonly handled: ConsumedMessage[] = [];
  readonly attempts: ConsumedMessage[] = [];

  constructor(private readonly failWith: (message: ConsumedMessage) => Error | undefined = () => undefined) {}

  handle(message: ConsumedMessage): Promise<void> {
    this.attempts.push(message);
    const error = this.failWith(message);
    if (error) return Promise.reject(error);
    this.handled.push(message);
    return Promise.resolve();
  }
}

/** A ScriptedHandler that also takes batches, refusing (as a whole) any batch that holds a message the script fails. */
class BatchingHandler extends ScriptedHandler {
  readonly batches: number[] = [];
  refusedBatches = 0;

  constructor(private readonly refuses: (message: ConsumedMessage) => boolean = () => false) {
    super((message) => (refuses(message) ? new PoisonMessageError('refused') : undefined));
  }

  handleBatch(messages: ConsumedMessage[]): Promise<void> {
    if (messages.some((message) => this.refuses(message))) {
      this.refusedBatches += 1;
      return Promise.reject(new Error('batch refused'));
    }
    this.batches.push(messages.length);
    this.handled.push(...messages);
    return Promise.resolve();
  }
}

describe('JetStreamConsumer', () => {
  let connection: NatsConnection;
  let jsm: JetStreamManager;
  let publisher: JetStreamPublisher;
  const consumers: JetStreamConsumer[] = [];
  let sequence = 0;

  beforeAll(async () => {
    connection = await connectNatsOrFail();
    jsm = await connection.jetstreamManager();
    publisher = await JetStreamPublisher.create(connection, { stream: { name: STREAM, subjects: [`constest.${RUN}.>`] } });
  });

  afterEach(async () => {
    await Promise.all(consumers.splice(0).map((consumer) => consumer.stop()));
  });

  afterAll(async () => {
    await jsm?.streams.delete(STREAM).catch(() => undefined);
    await jsm?.streams.delete(DEAD_LETTER_STREAM).catch(() => undefined);
    await connection?.drain();
  });

  /** A definition on a subject of its own, so tests never see each other's messages. */
  function definitionFor(overrides: Partial<ConsumerDefinition> = {}): ConsumerDefinition {
    sequence += 1;
    return {
      name: `c${sequence}_${RUN}`,
      subject: `constest.${RUN}.s${sequence}.v1`,
      deadLetterSubject: `dlq.constest.${RUN}.s${sequence}.v1`,
      maxDeliveries: 3,
      redeliveryDelayMs: () => 20,
      jetStream: { stream: STREAM, deadLetterStream: DEAD_LETTER_STREAM, concurrency: 4 },
      ...overrides,
    };
  }

  async function startConsumer(definition: ConsumerDefinition, handler: ScriptedHandler): Promise<JetStreamConsumer> {
    const consumer = new JetStreamConsumer(connection, definition, handler, { logger: silentLogger });
    consumers.push(consumer);
    await consumer.start();
    return consumer;
  }

  async function settled(definition: ConsumerDefinition): Promise<boolean> {
    const info = await jsm.consumers.info(STREAM, definition.name);
    return info.num_pending === 0 && info.num_ack_pending === 0;
  }

  async function deadLettersOf(definition: ConsumerDefinition): Promise<number> {
    const info = await jsm.streams.info(DEAD_LETTER_STREAM, { subjects_filter: definition.deadLetterSubject });
    return info.state.subjects?.[definition.deadLetterSubject] ?? 0;
  }

  it('should create a durable pull consumer with explicit acks and bounded deliveries', async () => {
    const definition = definitionFor();
    await startConsumer(definition, new ScriptedHandler());

    const info = await jsm.consumers.info(STREAM, definition.name);
    expect(info.config).toMatchObject({
      durable_name: definition.name,
      ack_policy: AckPolicy.Explicit,
      filter_subject: definition.subject,
      max_deliver: 3 + DEAD_LETTER_PUBLISH_ATTEMPTS,
    });
  });

  it('should hand the handler each message with its Nats-Msg-Id and headers, and ack it', async () => {
    const definition = definitionFor();
    const handler = new ScriptedHandler();
    await startConsumer(definition, handler);

    await publisher.publish(definition.subject, { n: 1 }, { msgId: `m1-${RUN}`, headers: { 'x-trace-id': 't-1' } });
    await waitFor('the message to be acked', () => settled(definition));

    expect(handler.handled).toEqual([
      { subject: definition.subject, payload: { n: 1 }, msgId: `m1-${RUN}`, headers: { 'x-trace-id': 't-1' }, deliveryCount: 1 },
    ]);
  });

  it('should hand a backlog to handleBatch in batches of at most batchSize, acking every message once', async () => {
    const definition = definitionFor({ batchSize: 8 });
    for (let n = 0; n < 30; n++) await publisher.publish(definition.subject, { n }, { msgId: `b${n}-${definition.name}` });
    const handler = new BatchingHandler();
    await startConsumer(definition, handler);

    await waitFor('every message to be acked', async () => handler.handled.length === 30 && (await settled(definition)));
    // A message that arrives alone goes to handle; what arrives together goes to handleBatch, 8 at most.
    expect(handler.batches.reduce((sum, size) => sum + size, 0) + handler.attempts.length).toBe(30);
    expect(Math.max(...handler.batches)).toBeGreaterThan(1);
    expect(Math.max(...handler.batches)).toBeLessThanOrEqual(8);
    expect(handler.handled.map((message) => (message.payload as { n: number }).n).sort((a, b) => a - b)).toEqual([...Array(30).keys()]);
  });

  it('should hand each message of a refused batch to handle alone: the good ones acked, the poison one dead-lettered', async () => {
    const definition = definitionFor({ batchSize: 16 });
    for (let n = 0; n < 6; n++) await publisher.publish(definition.subject, { n }, { msgId: `r${n}-${definition.name}` });
    const handler = new BatchingHandler((message) => (message.payload as { n: number }).n === 3);
    await startConsumer(definition, handler);

    await waitFor('the dead letter', async () => (await deadLettersOf(definition)) === 1);
    await waitFor('every message to be settled', () => settled(definition));
    expect(handler.refusedBatches).toBe(1);
    expect(handler.batches).toEqual([]);
    expect(handler.attempts.map((message) => (message.payload as { n: number }).n).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(handler.handled.map((message) => (message.payload as { n: number }).n).sort()).toEqual([0, 1, 2, 4, 5]);
  });

  it('should redeliver a failed message until the handler succeeds', async () => {
    const definition = definitionFor();
    const handler = new ScriptedHandler((message) => (message.deliveryCount < 3 ? new Error('busy') : undefined));
    await startConsumer(definition, handler);

    await publisher.publish(definition.subject, { n: 1 }, { msgId: `m2-${RUN}` });
    await waitFor('the message to be handled', () => handler.handled.length === 1);
    await waitFor('the message to be acked', () => settled(definition));

    expect(handler.attempts.map((message) => message.deliveryCount)).toEqual([1, 2, 3]);
    expect(await deadLettersOf(definition)).toBe(0);
  });

  it('should dead-letter a message that failed maxDeliveries times into the dead-letter stream', async () => {
    const definition = definitionFor();
    const handler = new ScriptedHandler(() => new Error('database is down'));
    await startConsumer(definition, handler);

    await publisher.publish(definition.subject, { n: 1 }, { msgId: `m3-${RUN}` });
    await waitFor('the dead letter', async () => (await deadLettersOf(definition)) === 1);
    await waitFor('the message to be terminated', () => settled(definition));

    expect(handler.attempts).toHaveLength(3);
    const dead = await jsm.streams.getMessage(DEAD_LETTER_STREAM, { last_by_subj: definition.deadLetterSubject });
    expect(dead.json()).toEqual({ n: 1 });
    expect(dead.header.get(DEAD_LETTER_HEADERS.reason)).toBe('gave up after 3 deliveries: database is down');
    expect(dead.header.get(DEAD_LETTER_HEADERS.messageId)).toBe(`m3-${RUN}`);
    expect(dead.header.get(DEAD_LETTER_HEADERS.subject)).toBe(definition.subject);
  });

  it('should dead-letter a poison message on its first delivery', async () => {
    const definition = definitionFor();
    const handler = new ScriptedHandler(() => new PoisonMessageError('n must be a string'));
    await startConsumer(definition, handler);

    await publisher.publish(definition.subject, { n: 1 }, { msgId: `m4-${RUN}` });
    await waitFor('the dead letter', async () => (await deadLettersOf(definition)) === 1);
    await waitFor('the message to be terminated', () => settled(definition));

    expect(handler.attempts).toHaveLength(1);
  });

  it('should dead-letter a payload that is not JSON without calling the handler', async () => {
    const definition = definitionFor();
    const handler = new ScriptedHandler();
    await startConsumer(definition, handler);

    await connection.jetstream().publish(definition.subject, new TextEncoder().encode('{not json'), { msgID: `m5-${RUN}` });
    await waitFor('the dead letter', async () => (await deadLettersOf(definition)) === 1);

    expect(handler.attempts).toEqual([]);
    const dead = await jsm.streams.getMessage(DEAD_LETTER_STREAM, { last_by_subj: definition.deadLetterSubject });
    expect(new TextDecoder().decode(dead.data)).toBe('{not json');
    expect(dead.header.get(DEAD_LETTER_HEADERS.reason)).toBe('payload is not JSON');
  });

  it('should share one durable consumer between replicas, each message handled by one of them', async () => {
    const definition = definitionFor();
    const first = new ScriptedHandler();
    const second = new ScriptedHandler();
    await startConsumer(definition, first);
    await startConsumer(definition, second);

    for (let n = 0; n < 20; n++) await publisher.publish(definition.subject, { n }, { msgId: `m6-${n}-${RUN}` });
    await waitFor('every message to be handled', () => first.handled.length + second.handled.length === 20);
    await waitFor('every message to be acked', () => settled(definition));

    const handled = [...first.handled, ...second.handled].map((message) => (message.payload as { n: number }).n).sort((a, b) => a - b);
    expect(handled).toEqual(Array.from({ length: 20 }, (_, n) => n));
  });

  it('should bring an existing consumer whose settings drifted back in line', async () => {
    const definition = definitionFor();
    await jsm.consumers.add(STREAM, {
      durable_name: definition.name,
      ack_policy: AckPolicy.Explicit,
      filter_subject: definition.subject,
      max_deliver: 99,
      ack_wait: nanos(5000),
    });

    await ensureDurableConsumer(jsm, STREAM, definition);

    const info = await jsm.consumers.info(STREAM, definition.name);
    expect(info.config).toMatchObject({ max_deliver: 3 + DEAD_LETTER_PUBLISH_ATTEMPTS, ack_wait: nanos(30_000) });
  });

  it('should stop pulling and let the message in hand finish', async () => {
    const definition = definitionFor();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handled: number[] = [];
    const consumer = new JetStreamConsumer(
      connection,
      definition,
      {
        handle: async (message) => {
          await gate;
          handled.push((message.payload as { n: number }).n);
        },
      },
      { logger: silentLogger },
    );
    await consumer.start();
    await publisher.publish(definition.subject, { n: 1 }, { msgId: `m7-${RUN}` });
    await waitFor('the message to be pulled', async () => (await jsm.consumers.info(STREAM, definition.name)).num_ack_pending === 1);

    const stopped = consumer.stop();
    release();
    await stopped;

    expect(handled).toEqual([1]);
    await waitFor('the message to be acked', () => settled(definition));
  });
});
