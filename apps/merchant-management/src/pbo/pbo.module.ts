import { DatabaseModule } from '@app/database';
import { DynamicModule, Module } from '@nestjs/common';
import { merchantManagementDatabase } from '../database';
import { PboRepository } from './persistence/pbo.repository';
import { PboService } from './pbo.service';

/**
 * PBOs on their own, for tools that create PBOs and sign their tokens without serving the API
 * (the CLI): the PBO service over merchant-management's DataSource, migrated on start. Needs
 * `DatabaseModule.forRoot` from the application context that imports it.
 */
@Module({})
export class PboModule {
  static withDatabase(): DynamicModule {
    return {
      module: PboModule,
      imports: [DatabaseModule.forContext(merchantManagementDatabase)],
      providers: [PboRepository, PboService],
      exports: [PboService],
    };
  }
}
