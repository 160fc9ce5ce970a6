import { ContextDatabaseDefinition, contextDataSourceOptions, openContextDataSource } from '@app/database';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import { createOutboxMigration } from '../src/outbox/outbox.migration';
import { MessagePublisher, PublishOptions } from '../src/transport/message-publisher';

export const TEST_SCHEMA = 'msg_test';

/** A fresh database whose `msg_test` schema holds an outbox created by the migration. */
export interface OutboxDatabase {
  database: TestDatabase;
  definition: ContextDatabaseDefinition;
  dataSource: DataSource;
  /** Another pool on the same database, as a second replica would have. */
  openReplica(): Promise<DataSource>;
  close(): Promise<void>;
}

export async function openOutboxDatabase(): Promise<OutboxDatabase> {
  const database = await createTestDatabase('msg');
  const definition: ContextDatabaseDefinition = {
    name: `msg-${randomBytes(4).toString('hex')}`,
    schema: TEST_SCHEMA,
    entities: [OutboxMessage],
    migrations: [createOutboxMigration(TEST_SCHEMA, 1763800000000)],
  };
  const dataSource = await openContextDataSource(database.url, definition);
  const replicas: DataSource[] = [];
  return {
    database,
    definition,
    dataSource,
    openReplica: async () => {
      const replica = await new DataSource(contextDataSourceOptions(database.url, definition)).initialize();
      replicas.push(replica);
      return replica;
    },
    close: async () => {
      for (const source of [...replicas, dataSource]) if (source.isInitialized) await source.destroy();
      await database.drop();
    },
  };
}

/** One publish call as a {@link RecordingPublisher} saw it. */
export interface PublishedMessage {
  subject: string;
  payload: object;
  options: PublishOptions;
}

/** Records every publish call (no de-duplication, so double publishing shows); can fail on demand. */
export class RecordingPublisher implements MessagePublisher {
  readonly published: PublishedMessage[] = [];
  private failuresLeft: number;
  private failures = 0;
  private readonly delayMs: number;

  constructor(options: { failFirst?: number; delayMs?: number } = {}) {
    this.failuresLeft = options.failFirst ?? 0;
    this.delayMs = options.delayMs ?? 0;
  }

  async publish(subject: string, payload: object, options: PublishOptions): Promise<void> {
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.failuresLeft > 0) {
      this.failuresLeft -= 1;
      this.failures += 1;
      throw new Error(`broker unavailable #${this.failures}`);
    }
    this.published.push({ subject, payload, options });
  }

  countById(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const message of this.published) counts.set(message.options.msgId, (counts.get(message.options.msgId) ?? 0) + 1);
    return counts;
  }
}

/** A logger that keeps quiet: expected failures need not fill the test output. */
export const silentLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };

export async function unpublishedCount(dataSource: DataSource): Promise<number> {
  return dataSource.getRepository(OutboxMessage).count({ where: { publishedAt: IsNull() } });
}
