import { DynamicModule, Module, Type } from '@nestjs/common';
import { PboRepository } from './persistence/pbo.repository';
import { PboService } from './pbo.service';

/**
 * PBOs: the PBO service over merchant-management's DataSource (migrated on start) and its unit of
 * work, given by the composition root (`pboModuleWithDatabase()` in database.module.ts), so that
 * this lowest feature imports no file above it. MerchantManagementModule imports it, and so do
 * tools that create PBOs and sign their tokens without serving the API (the CLI). Needs
 * `DatabaseModule.forRoot` from the application context that imports it.
 */
@Module({})
export class PboModule {
  static register(database: Type<unknown>): DynamicModule {
    return {
      module: PboModule,
      imports: [database],
      providers: [PboRepository, PboService],
      exports: [PboService],
    };
  }
}
