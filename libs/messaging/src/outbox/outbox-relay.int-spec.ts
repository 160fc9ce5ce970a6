import { waitFor } from '@app/testing';
import { DataSource } from 'typeorm';
import { openOutboxDatabase, OutboxDatabase, RecordingPublisher, silentLogger, unpublishedCount } from '../../test/outbox-fixtures';
import { InProcessMessage, InProcessTransport } from '../transport/in-process-transport';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxRelay, OutboxRelayOptions } from './outbox-relay';
import { OutboxWriter } from './outbox-writer';

const SUBJECT = 'test.outbox.v1';

describe('OutboxRelay', () => {
  let db: OutboxDatabase;
  const writer = new OutboxWriter();
  const relays: OutboxRelay[] = [];
  const transports: InProcessTransport[] = [];

  beforeAll(async () => {
    db = await openOutboxDatabase();
  });

  beforeEach(async () => {
    await db.dataSource.getRepository(OutboxMessage).clear();
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
    await Promise.all(transports.splice(0).map((transport) => transport.close(0)));
  });

  afterAll(async () => {
    await db?.close();
  });

  function relayOf(publisher: RecordingPublisher | InProcessTransport, options: OutboxRelayOptions = {}, dataSource: DataSource = db.dataSource): OutboxRelay {
    const relay = new OutboxRelay(dataSource, publisher, { logger: silentLogger, pollIntervalMs: 20, ...options });
    relays.push(relay);
    return relay;
  }

  function transportWithSubscriber(): { transport: InProcessTransport; received: InProcessMessage[] } {
    const transport = new InProcessTransport({ logger: silentLogger });
    transports.push(transport);
    const received: InProcessMessage[] = [];
    transport.subscribe(SUBJECT, (message) => {
      received.push(message);
    });
    return { transport, received };
  }

  /** Enqueues one message per sequence number in a single committed transaction; answers the ids. */
  function enqueueCommitted(sequences: number[]): Promise<string[]> {
    return db.dataSource.transaction(async (manager) => {
      const ids: string[] = [];
      for (const sequence of sequences) ids.push(await writer.enqueue(manager, SUBJECT, { sequence }));
      return ids;
    });
  }

  it('should never publish rows written in a transaction that rolled back', async () => {
    const { transport, received } = transportWithSubscriber();
    await db.dataSource
      .transaction(async (manager) => {
        await writer.enqueue(manager, SUBJECT, { sequence: 1 });
        throw new Error('state change failed');
      })
      .catch(() => undefined);
    const [committed] = await enqueueCommitted([2]);

    const relay = relayOf(transport);
    relay.start();
    await waitFor('the committed row to be published', async () => (await unpublishedCount(db.dataSource)) === 0);
    await transport.idle();

    expect(received.map((message) => message.msgId)).toEqual([committed]);
    expect(received.map((message) => message.payload)).toEqual([{ sequence: 2 }]);
  });

  it('should refuse to enqueue outside a transaction', async () => {
    await expect(writer.enqueue(db.dataSource.manager, SUBJECT, { sequence: 1 })).rejects.toThrow(/open transaction/);
  });

  it('should publish committed rows exactly once and in commit order', async () => {
    const { transport, received } = transportWithSubscriber();
    const first = await enqueueCommitted([1, 2, 3, 4, 5]);
    const second = await enqueueCommitted([6, 7, 8]);

    const relay = relayOf(transport, { batchSize: 3 });
    relay.start();
    await waitFor('every row to be published', async () => (await unpublishedCount(db.dataSource)) === 0);
    await relay.relayOnce();
    await transport.idle();

    expect(received.map((message) => message.msgId)).toEqual([...first, ...second]);
    expect(received.map((message) => message.payload)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((sequence) => ({ sequence })));
  });

  it('should publish a row as soon as its transaction commits, not at the next poll', async () => {
    const { transport, received } = transportWithSubscriber();
    const relay = relayOf(transport, { pollIntervalMs: 60_000 });
    relay.start();
    // The first (empty) pass has finished and the relay sleeps its minute: only the commit can wake it.
    await waitFor('the relay to sleep after its first pass', () => (relay as unknown as { wakeUp?: () => void }).wakeUp !== undefined);

    const [id] = await enqueueCommitted([1]);

    await waitFor('the message to arrive', () => received.length === 1, 3000);
    expect(received[0].msgId).toBe(id);
  });

  it('should open no transaction on the polls of an idle relay, and still publish a row committed where it was not notified', async () => {
    const { transport, received } = transportWithSubscriber();
    const relay = relayOf(transport, { pollIntervalMs: 20 });
    const transactions = jest.spyOn(db.dataSource, 'transaction');
    const probes = jest.spyOn(relay, 'hasDue');
    try {
      relay.start();
      await waitFor('ten polls', () => probes.mock.calls.length >= 10);
      // The first pass only (rows may be due from before the start); every poll after it probed.
      expect(transactions).toHaveBeenCalledTimes(1);

      // A row committed by another process (no commit listener of this relay saw it): the next poll finds it.
      const id = '01900000-0000-7000-8000-000000000001';
      const table = db.dataSource.getMetadata(OutboxMessage).tablePath;
      await db.dataSource.query(`INSERT INTO ${table} (id, subject, payload, headers) VALUES ($1, $2, $3, '{}'::jsonb)`, [id, SUBJECT, { sequence: 1 }]);
      await waitFor('the row to be published', () => received.length === 1, 3000);
      expect(received[0].msgId).toBe(id);
    } finally {
      transactions.mockRestore();
      probes.mockRestore();
    }
  });

  it('should retry a failed publish with back-off and record the attempts', async () => {
    const publisher = new RecordingPublisher({ failFirst: 2 });
    const [id] = await enqueueCommitted([1]);

    const relay = relayOf(publisher, { retryBaseMs: 50 });
    relay.start();
    await waitFor('the row to be published', async () => (await unpublishedCount(db.dataSource)) === 0);

    const row = await db.dataSource.getRepository(OutboxMessage).findOneByOrFail({ id });
    expect(publisher.published.map((message) => message.options.msgId)).toEqual([id]);
    expect(row.attempts).toBe(2);
    expect(row.lastError).toBe('broker unavailable #2');
    expect(row.publishedAt).toBeInstanceOf(Date);
  });

  it('should not retry a failed row before its back-off has passed', async () => {
    const publisher = new RecordingPublisher({ failFirst: 1 });
    const [id] = await enqueueCommitted([1]);
    const relay = relayOf(publisher, { retryBaseMs: 60_000 });

    await relay.relayOnce();
    const second = await relay.relayOnce();

    const row = await db.dataSource.getRepository(OutboxMessage).findOneByOrFail({ id });
    expect(second.published).toBe(0);
    expect(row.publishedAt).toBeNull();
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });

  it('should publish every row exactly once when two replicas relay the same table', async () => {
    const ids: string[] = [];
    for (let chunk = 0; chunk < 10; chunk += 1) ids.push(...(await enqueueCommitted(Array.from({ length: 30 }, (_, i) => chunk * 30 + i))));
    const publisherA = new RecordingPublisher({ delayMs: 1 });
    const publisherB = new RecordingPublisher({ delayMs: 1 });
    const replica = await db.openReplica();

    relayOf(publisherA, { batchSize: 7, pollIntervalMs: 5 }).start();
    relayOf(publisherB, { batchSize: 7, pollIntervalMs: 5 }, replica).start();
    await waitFor('every row to be published', async () => (await unpublishedCount(db.dataSource)) === 0, 30_000);

    const counts = new Map<string, number>();
    for (const publisher of [publisherA, publisherB]) {
      for (const [id, count] of publisher.countById()) counts.set(id, (counts.get(id) ?? 0) + count);
    }
    expect(counts.size).toBe(ids.length);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    // Both replicas took part, so the test did exercise concurrent passes.
    expect(publisherA.published.length).toBeGreaterThan(0);
    expect(publisherB.published.length).toBeGreaterThan(0);
  });

  it('should let the batch in flight commit when stopped', async () => {
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const publishStarted = new Promise<void>((resolve) => (started = resolve));
    const publisher = {
      publish: () => {
        started();
        return new Promise<void>((resolve) => (release = resolve));
      },
    };
    const [id] = await enqueueCommitted([1]);
    const relay = new OutboxRelay(db.dataSource, publisher, { logger: silentLogger });
    relay.start();
    await publishStarted;

    const stopping = relay.stop();
    release();
    await stopping;

    const row = await db.dataSource.getRepository(OutboxMessage).findOneByOrFail({ id });
    expect(row.publishedAt).toBeInstanceOf(Date);
    expect(relay.isRunning).toBe(false);
  });
});
