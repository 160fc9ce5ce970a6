import { ContextDatabaseDefinition, DatabaseModule } from '@app/database';
import { connectNatsOrFail, createTestDatabase, NATS_URL, TestDatabase, waitFor } from '@app/testing';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { AckPolicy, NatsConnection } from 'nats';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { silentLogger } from '../../test/outbox-fixtures';
import { OutboxMessage } from '../outbox/outbox-message.entity';
import { createOutboxMigration } from '../outbox/outbox.migration';
import { OutboxRelay } from '../outbox/outbox-relay';
import { OutboxWriter } from '../outbox/outbox-writer';
import { InProcessMessage, InProcessTransport } from '../transport/in-process-transport';
import { MessagingModule, NATS_CONNECTION } from './messaging.module';
import { OutboxModule } from './outbox.module';

const definition: ContextDatabaseDefinition = {
  name: 'outbox-module-test',
  schema: 'msg_nest',
  entities: [OutboxMessage],
  migrations: [createOutboxMigration('msg_nest', 1763800000000)],
};

describe('OutboxModule', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('msg');
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('should relay what a service enqueues to in-process subscribers, and stop with the application', async () => {
    // The testing module is an application context: init() and close() run the lifecycle hooks.
    const app = await Test.createTestingModule({
      imports: [
        DatabaseModule.forRoot(database.url),
        DatabaseModule.forContext(definition),
        MessagingModule.forRoot({ transport: 'in-process', inProcess: { logger: silentLogger } }),
        OutboxModule.forContext({ connection: definition.name, relay: { pollIntervalMs: 60_000, logger: silentLogger } }),
      ],
    }).compile();
    const received: InProcessMessage[] = [];
    app.get(InProcessTransport).subscribe('test.nest.v1', (message) => {
      received.push(message);
    });
    await app.init();

    const dataSource = app.get<DataSource>(getDataSourceToken(definition.name));
    const writer = app.get(OutboxWriter);
    const id = await dataSource.transaction((manager) => writer.enqueue(manager, 'test.nest.v1', { hello: 'world' }));
    await waitFor('the message to arrive', () => received.length === 1, 5000);
    const relay = app.get(OutboxRelay);
    await app.close();

    expect(received[0]).toMatchObject({ msgId: id, payload: { hello: 'world' } });
    expect(relay.isRunning).toBe(false);
  });

  it('should relay to JetStream when the application is configured for NATS, and drain the connection on close', async () => {
    const run = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    const stream = `MSGNEST_${run}`;
    const subject = `msgnest.${run}.upsert.v1`;
    const observer: NatsConnection = await connectNatsOrFail();
    const app = await Test.createTestingModule({
      imports: [
        DatabaseModule.forRoot(database.url),
        DatabaseModule.forContext({
          ...definition,
          name: 'outbox-module-nats',
          schema: 'msg_nats',
          migrations: [createOutboxMigration('msg_nats', 1763800000000)],
        }),
        MessagingModule.forRoot({ transport: 'jetstream', servers: NATS_URL, stream: { name: stream, subjects: [subject] } }),
        OutboxModule.forContext({ connection: 'outbox-module-nats', relay: { pollIntervalMs: 60_000, logger: silentLogger } }),
      ],
    }).compile();
    try {
      await app.init();
      const jsm = await observer.jetstreamManager();
      await jsm.consumers.add(stream, { durable_name: 'observer', ack_policy: AckPolicy.Explicit });
      const dataSource = app.get<DataSource>(getDataSourceToken('outbox-module-nats'));
      const id = await dataSource.transaction((manager) => app.get(OutboxWriter).enqueue(manager, subject, { n: 1 }));

      const message = await (await observer.jetstream().consumers.get(stream, 'observer')).next({ expires: 5000 });
      message?.ack();
      const connection = app.get<NatsConnection>(NATS_CONNECTION);
      await app.close();

      expect(message?.headers?.get('Nats-Msg-Id')).toBe(id);
      expect(message?.json()).toEqual({ n: 1 });
      expect(connection.isClosed()).toBe(true);
    } finally {
      await (await observer.jetstreamManager()).streams.delete(stream).catch(() => undefined);
      await observer.drain();
    }
  });
});
