import { PlatformOptions, platformModules } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import { MerchantManagementModule } from './merchant-management.module';

/** merchant-management deployed on its own. */
@Module({})
export class MerchantManagementAppModule {
  static register(options: PlatformOptions): DynamicModule {
    return { module: MerchantManagementAppModule, imports: [...platformModules(options), MerchantManagementModule] };
  }
}
