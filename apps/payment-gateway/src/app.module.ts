import { PlatformOptions, platformModules } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import { HealthController } from './health/health.controller';
import { databaseProbeProvider } from '@app/database';
import { PAYMENT_GATEWAY_CONNECTION } from './database';
import { PaymentGatewayModule } from './payment-gateway.module';
import { GatewayOnlyErrorFormat } from './shared/error-format';
import { TransactionSettings } from './transaction/transaction-settings';

/** payment-gateway deployed on its own (with its health probes, which standalone leaves to merchant-management). */
@Module({})
export class PaymentGatewayAppModule {
  static register(options: PlatformOptions, settings: Partial<TransactionSettings> = {}): DynamicModule {
    return {
      module: PaymentGatewayAppModule,
      imports: [...platformModules(options), PaymentGatewayModule.register(settings)],
      controllers: [HealthController],
      providers: [databaseProbeProvider(PAYMENT_GATEWAY_CONNECTION), GatewayOnlyErrorFormat],
    };
  }
}
