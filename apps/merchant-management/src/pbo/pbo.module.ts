import { DynamicModule, Module } from '@nestjs/common';
import { MerchantManagementDatabaseModule } from '../database.module';
import { PboRepository } from './persistence/pbo.repository';
import { PboService } from './pbo.service';

/**
 * PBOs: the PBO service over merchant-management's DataSource (migrated on start) and its unit of
 * work. MerchantManagementModule imports it, and so do tools that create PBOs and sign their
 * tokens without serving the API (the CLI). Needs `DatabaseModule.forRoot` from the application
 * context that imports it.
 */
@Module({})
export class PboModule {
  static withDatabase(): DynamicModule {
    return {
      module: PboModule,
      imports: [MerchantManagementDatabaseModule],
      providers: [PboRepository, PboService],
      exports: [PboService],
    };
  }
}
