import { Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager } from 'typeorm';

/**
 * What application code sees of transactions: `run` makes everything the work does through the
 * context's repositories one transaction (docs/decisions.md, "merchant-management layering").
 * Services depend on this class only, so a unit test passes a fake that just runs the work.
 */
export abstract class UnitOfWork {
  /** Runs `work` in one transaction, committed when it resolves, rolled back when it throws; a nested call joins the outer one. */
  abstract run<T>(work: () => Promise<T>): Promise<T>;

  /**
   * Runs `work`'s reads in one snapshot (REPEATABLE READ, read only), so a view built from several
   * tables never mixes states of two commits; a nested call joins the outer transaction.
   */
  snapshot<T>(work: () => Promise<T>): Promise<T> {
    return this.run(work);
  }
}

/**
 * The TypeORM unit of work of one context's DataSource. The transaction's EntityManager travels
 * in an AsyncLocalStorage, so repositories join the current transaction without a parameter and
 * a service never sees TypeORM.
 */
export class TypeOrmUnitOfWork extends UnitOfWork {
  private readonly current = new AsyncLocalStorage<EntityManager>();

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    return this.dataSource.transaction((manager) => this.current.run(manager, work));
  }

  override snapshot<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      await manager.query('SET TRANSACTION READ ONLY');
      return this.current.run(manager, work);
    });
  }

  /** The manager of the current transaction; outside one, the DataSource's own (each statement commits alone). */
  get manager(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }
}

/** {@link TypeOrmUnitOfWork} on the DataSource named `connection`, injectable as itself (repositories) and as {@link UnitOfWork} (services). */
export function unitOfWorkProviders(connection: string): Provider[] {
  return [
    { provide: TypeOrmUnitOfWork, inject: [getDataSourceToken(connection)], useFactory: (dataSource: DataSource) => new TypeOrmUnitOfWork(dataSource) },
    { provide: UnitOfWork, useExisting: TypeOrmUnitOfWork },
  ];
}
