import { databaseProbeProvider } from '@app/database';
import { DatabaseHealthController, PlatformOptions, platformModules } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import { TRANSACTIONS_CONNECTION } from './database';
import { TransactionsModule } from './transactions.module';

/** transactions deployed on its own (with its health probes, which standalone leaves to merchant-management). */
@Module({})
export class TransactionsAppModule {
  static register(options: PlatformOptions): DynamicModule {
    return {
      module: TransactionsAppModule,
      imports: [...platformModules(options), TransactionsModule],
      controllers: [DatabaseHealthController],
      providers: [databaseProbeProvider(TRANSACTIONS_CONNECTION)],
    };
  }
}
