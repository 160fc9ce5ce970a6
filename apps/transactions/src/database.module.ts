import { Clock, CryptoIdGenerator, IdGenerator, SystemClock } from '@app/common';
import { DatabaseModule, TypeOrmUnitOfWork, UnitOfWork, unitOfWorkProviders } from '@app/database';
import { Module } from '@nestjs/common';
import { TRANSACTIONS_CONNECTION, transactionsDatabase } from './database';

/** transactions' DataSource, its one unit of work, and the clock and id source its services are given. */
@Module({
  imports: [DatabaseModule.forContext(transactionsDatabase)],
  providers: [
    ...unitOfWorkProviders(TRANSACTIONS_CONNECTION),
    { provide: Clock, useClass: SystemClock },
    { provide: IdGenerator, useClass: CryptoIdGenerator },
  ],
  exports: [TypeOrmUnitOfWork, UnitOfWork, Clock, IdGenerator],
})
export class TransactionsDatabaseModule {}
