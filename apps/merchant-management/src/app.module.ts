import { AuthConfig, AuthModule } from '@app/common';
import { DatabaseModule } from '@app/database';
import { DynamicModule, Module } from '@nestjs/common';
import { MerchantManagementModule } from './merchant-management.module';

export interface MerchantManagementAppOptions {
  databaseUrl: string;
  auth: AuthConfig;
}

/** merchant-management deployed on its own. */
@Module({})
export class MerchantManagementAppModule {
  static register(options: MerchantManagementAppOptions): DynamicModule {
    return {
      module: MerchantManagementAppModule,
      imports: [DatabaseModule.forRoot(options.databaseUrl), AuthModule.forRoot(options.auth), MerchantManagementModule],
    };
  }
}
