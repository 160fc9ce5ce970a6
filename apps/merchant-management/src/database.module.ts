import { DatabaseModule, TypeOrmUnitOfWork, UnitOfWork, unitOfWorkProviders } from '@app/database';
import { Module } from '@nestjs/common';
import { MERCHANT_MANAGEMENT_CONNECTION, merchantManagementDatabase } from './database';

/**
 * merchant-management's DataSource and its one unit of work. A static module is one instance
 * however many modules import it (PboModule, MerchantManagementModule), so every repository of
 * the context, the PBO one included, joins the same transactions.
 */
@Module({
  imports: [DatabaseModule.forContext(merchantManagementDatabase)],
  providers: unitOfWorkProviders(MERCHANT_MANAGEMENT_CONNECTION),
  exports: [TypeOrmUnitOfWork, UnitOfWork],
})
export class MerchantManagementDatabaseModule {}
