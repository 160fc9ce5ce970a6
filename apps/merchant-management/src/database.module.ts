import { Clock, CryptoIdGenerator, IdGenerator, SystemClock } from '@app/common';
import { DatabaseModule, TypeOrmUnitOfWork, UnitOfWork, unitOfWorkProviders } from '@app/database';
import { DynamicModule, Module } from '@nestjs/common';
import { MERCHANT_MANAGEMENT_CONNECTION, merchantManagementDatabase } from './database';
import { PboModule } from './pbo/pbo.module';

/**
 * merchant-management's DataSource, its one unit of work, and the clock and id source its services
 * are given. A static module is one instance however many modules import it (PboModule,
 * MerchantManagementModule), so every repository of the context, the PBO one included, joins the
 * same transactions.
 */
@Module({
  imports: [DatabaseModule.forContext(merchantManagementDatabase)],
  providers: [...unitOfWorkProviders(MERCHANT_MANAGEMENT_CONNECTION), { provide: Clock, useClass: SystemClock }, { provide: IdGenerator, useClass: CryptoIdGenerator }],
  exports: [TypeOrmUnitOfWork, UnitOfWork, Clock, IdGenerator],
})
export class MerchantManagementDatabaseModule {}

/** PboModule over this context's DataSource: for MerchantManagementModule and tools such as the CLI. */
export function pboModuleWithDatabase(): DynamicModule {
  return PboModule.register(MerchantManagementDatabaseModule);
}
