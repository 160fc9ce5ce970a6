import { createTestDatabase, TestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { ContextDatabaseDefinition, openContextDataSource } from './context-data-source';
import { queryNamed } from './prepared';

const definition: ContextDatabaseDefinition = { name: 'prepared-test', schema: 'prepared_test', entities: [], migrations: [] };

describe('queryNamed', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('prepared');
    dataSource = await openContextDataSource(database.url, definition);
    await dataSource.query('CREATE TABLE prepared_test.item (id int PRIMARY KEY, note text)');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const INSERT = 'INSERT INTO prepared_test.item (id, note) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET note = excluded.note RETURNING id';
  const count = async () => Number((await dataSource.query('SELECT count(*) AS n FROM prepared_test.item'))[0].n);

  it('should commit each statement alone outside a transaction, as a statement prepared once under a name of its text, and answer rows and count', async () => {
    for (let id = 1; id <= 3; id++) expect(await queryNamed(dataSource, INSERT, [id, `note ${id}`])).toEqual({ rows: [{ id }], rowCount: 1 });
    expect(await queryNamed(dataSource.manager, 'UPDATE prepared_test.item SET note = $1 WHERE id > $2', ['later', 1])).toEqual({ rows: [], rowCount: 2 });
    expect(await count()).toBe(3);
    // The pooled connection that ran them (one at a time: the one the pool hands back) holds the statement prepared, once, under a name of its text.
    const { rows: prepared } = await queryNamed<{ name: string }>(dataSource, 'SELECT name FROM pg_prepared_statements WHERE statement = $1', [INSERT]);
    expect(prepared).toEqual([{ name: expect.stringMatching(/^s_[A-Za-z0-9_-]{32}$/) }]);
  });

  it("should run in the caller's transaction when given its manager: rolled back with it", async () => {
    await dataSource
      .transaction(async (manager) => {
        expect(await queryNamed(manager, INSERT, [10, 'in a transaction'])).toEqual({ rows: [{ id: 10 }], rowCount: 1 });
        expect(Number((await manager.query('SELECT count(*) AS n FROM prepared_test.item WHERE id = 10'))[0].n)).toBe(1);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await count()).toBe(3);
  });
});
