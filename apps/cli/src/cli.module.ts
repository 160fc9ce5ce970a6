import { DatabaseModule } from '@app/database';
import { DynamicModule, Module } from '@nestjs/common';
import { pboModuleWithDatabase } from '../../merchant-management/src';

/** The CLI's application context: merchant-management's PBOs over the database at `databaseUrl`. */
@Module({})
export class CliModule {
  static register(databaseUrl: string, config: DynamicModule): DynamicModule {
    return { module: CliModule, imports: [config, DatabaseModule.forRoot(databaseUrl), pboModuleWithDatabase()] };
  }
}
