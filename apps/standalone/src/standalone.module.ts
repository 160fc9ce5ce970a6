import { PlatformOptions, platformModules } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import { MerchantManagementModule } from '../../merchant-management/src/merchant-management.module';
import { PaymentGatewayModule } from '../../payment-gateway/src/payment-gateway.module';

/**
 * Every bounded context's root module in one process on one port. Only this app composes
 * other apps' modules; each context still has its own schema and its own DataSource.
 */
@Module({})
export class StandaloneModule {
  static register(options: PlatformOptions): DynamicModule {
    return { module: StandaloneModule, imports: [...platformModules(options), MerchantManagementModule, PaymentGatewayModule] };
  }
}
