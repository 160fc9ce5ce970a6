import { ContextDatabaseDefinition, openContextDataSource, pendingSchemaChanges } from '@app/database';
import { createTestDatabase, TestDatabase, waitFor } from '@app/testing';
import { DataSource } from 'typeorm';
import { Inbox } from './inbox';
import { InboxMessage } from './inbox-message.entity';
import { createInboxMigration } from './inbox.migration';

const definition: ContextDatabaseDefinition = {
  name: 'inbox-test',
  schema: 'inbox_test',
  entities: [InboxMessage],
  migrations: [createInboxMigration('inbox_test', 1763900000000)],
};

describe('Inbox', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const inbox = new Inbox();
  const entry = (messageId: string, consumer = 'consumer-a') => ({ consumer, messageId, subject: 'test.thing.v1' });

  beforeAll(async () => {
    database = await createTestDatabase('inbox');
    dataSource = await openContextDataSource(database.url, definition);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('should match its entity once migrated', async () => {
    expect(await pendingSchemaChanges(dataSource)).toEqual([]);
  });

  it('should record a message once per consumer', async () => {
    const first = await dataSource.transaction((manager) => inbox.record(manager, entry('m-1')));
    const again = await dataSource.transaction((manager) => inbox.record(manager, entry('m-1')));
    const otherConsumer = await dataSource.transaction((manager) => inbox.record(manager, entry('m-1', 'consumer-b')));

    expect([first, again, otherConsumer]).toEqual([true, false, true]);
  });

  it('should forget a message whose transaction rolled back', async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await inbox.record(manager, entry('m-2'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');

    expect(await dataSource.transaction((manager) => inbox.record(manager, entry('m-2')))).toBe(true);
  });

  it('should make a concurrent recording of the same message wait for the first and answer false', async () => {
    let commitFirst: () => void = () => undefined;
    const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
    let firstRecorded: () => void = () => undefined;
    const recorded = new Promise<void>((resolve) => (firstRecorded = resolve));
    const first = dataSource.transaction(async (manager) => {
      const result = await inbox.record(manager, entry('m-3'));
      firstRecorded();
      await firstMayCommit;
      return result;
    });
    await recorded;
    const second = dataSource.transaction((manager) => inbox.record(manager, entry('m-3')));
    // The second waits on the first's row lock before the first commits (else this tests nothing).
    await waitFor('the second recording to wait on the lock', async () => {
      const [row] = await dataSource.query<{ waiting: number }[]>(
        "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      return row.waiting >= 1;
    });
    commitFirst();

    expect(await Promise.all([first, second])).toEqual([true, false]);
  });

  it('should refuse to record outside a transaction', async () => {
    await expect(inbox.record(dataSource.manager, entry('m-4'))).rejects.toThrow(/open transaction/);
  });
});
