import { DataSource, EntityManager } from 'typeorm';
import { TypeOrmUnitOfWork } from './unit-of-work';

/** A DataSource whose transactions hand out numbered managers, so a test sees which one a statement used. */
function fakeDataSource() {
  const outside = { name: 'outside' } as unknown as EntityManager;
  let opened = 0;
  const dataSource = {
    manager: outside,
    transaction: async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => work({ name: `tx${++opened}` } as unknown as EntityManager),
  } as unknown as DataSource;
  return { dataSource, opened: () => opened };
}

const nameOf = (manager: EntityManager) => (manager as unknown as { name: string }).name;

describe('TypeOrmUnitOfWork', () => {
  it('should give repositories the transaction\'s manager inside run and the DataSource\'s outside', async () => {
    const { dataSource } = fakeDataSource();
    const uow = new TypeOrmUnitOfWork(dataSource);

    const inside = await uow.run(async () => nameOf(uow.manager));

    expect(inside).toBe('tx1');
    expect(nameOf(uow.manager)).toBe('outside');
  });

  it('should let a nested run join the outer transaction', async () => {
    const { dataSource, opened } = fakeDataSource();
    const uow = new TypeOrmUnitOfWork(dataSource);

    const names = await uow.run(async () => [nameOf(uow.manager), await uow.run(async () => nameOf(uow.manager))]);

    expect(names).toEqual(['tx1', 'tx1']);
    expect(opened()).toBe(1);
  });

  it('should keep two concurrent units of work apart', async () => {
    const { dataSource } = fakeDataSource();
    const uow = new TypeOrmUnitOfWork(dataSource);
    const later = () => new Promise((resolve) => setImmediate(resolve));

    const names = await Promise.all([uow.run(async () => (await later(), nameOf(uow.manager))), uow.run(async () => (await later(), nameOf(uow.manager)))]);

    expect(names).toEqual(['tx1', 'tx2']);
  });
});
