import { AuthConfig, AuthModule } from '@app/common';
import { DatabaseModule } from '@app/database';
import { DynamicModule, Module } from '@nestjs/common';
import { MerchantManagementModule } from '../../merchant-management/src/merchant-management.module';

export interface StandaloneOptions {
  databaseUrl: string;
  auth: AuthConfig;
}

/**
 * Every bounded context's root module in one process on one port. Only this app composes
 * other apps' modules; each context still has its own schema and its own DataSource.
 */
@Module({})
export class StandaloneModule {
  static register(options: StandaloneOptions): DynamicModule {
    return {
      module: StandaloneModule,
      imports: [DatabaseModule.forRoot(options.databaseUrl), AuthModule.forRoot(options.auth), MerchantManagementModule],
    };
  }
}
