import { ContextDatabaseDefinition, openContextDataSource, TablePruner } from '@app/database';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InboxMessage } from './consumer/inbox-message.entity';
import { createInboxMigration } from './consumer/inbox.migration';
import { OutboxMessage } from './outbox/outbox-message.entity';
import { createOutboxMigration } from './outbox/outbox.migration';
import { uuidV7 } from './outbox/uuid-v7';
import { inboxPruneRule, outboxPruneRule } from './retention';

const DAY = 86_400_000;
const definition: ContextDatabaseDefinition = {
  name: 'retention-test',
  schema: 'retention_test',
  entities: [OutboxMessage, InboxMessage],
  migrations: [createOutboxMigration('retention_test', 1763790000000), createInboxMigration('retention_test', 1763900000000)],
};

/** The platform's retention rules on the real outbox and inbox tables. */
describe('outbox and inbox retention', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let pruner: TablePruner;

  beforeAll(async () => {
    database = await createTestDatabase('retention');
    dataSource = await openContextDataSource(database.url, definition);
    pruner = new TablePruner(dataSource, [outboxPruneRule(7 * DAY), inboxPruneRule(7 * DAY)], 60_000, new Logger('test'));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  async function outboxRow(label: string, ageDays: number, published: boolean): Promise<void> {
    const at = new Date(Date.now() - ageDays * DAY);
    await dataSource.query(`INSERT INTO outbox (id, subject, payload, created_at, published_at) VALUES ($1, 'test.v1', $2, $3, $4)`, [
      uuidV7(at.getTime()),
      JSON.stringify({ label }),
      at,
      published ? at : null,
    ]);
  }

  it('should delete published outbox rows older than the retention, and never an unpublished one', async () => {
    await outboxRow('old published', 8, true);
    await outboxRow('old unpublished', 30, false);
    await outboxRow('recent published', 6, true);

    const deleted = await pruner.pruneOnce();

    expect(deleted.outbox).toBe(1);
    const left: { payload: { label: string } }[] = await dataSource.query(`SELECT payload FROM outbox ORDER BY id`);
    expect(left.map((row) => row.payload.label)).toEqual(['old unpublished', 'recent published']);
  });

  it('should delete inbox rows processed before the retention', async () => {
    await dataSource.query(
      `INSERT INTO inbox (consumer, message_id, subject, processed_at) VALUES ('c', 'old', 's', now() - interval '8 days'), ('c', 'recent', 's', now() - interval '6 days')`,
    );

    const deleted = await pruner.pruneOnce();

    expect(deleted.inbox).toBe(1);
    expect(await dataSource.query(`SELECT message_id FROM inbox`)).toEqual([{ message_id: 'recent' }]);
  });

  it('should delete a backlog larger than one batch in one pass', async () => {
    await dataSource.query(
      `INSERT INTO inbox (consumer, message_id, subject, processed_at) SELECT 'bulk', 'm' || n, 's', now() - interval '10 days' FROM generate_series(1, 12000) AS n`,
    );

    const deleted = await pruner.pruneOnce();

    expect(deleted.inbox).toBe(12000);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM inbox WHERE consumer = 'bulk'`)).toEqual([{ n: 0 }]);
  });
});
