import { DatabaseHealthController, PlatformOptions, platformModules } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import { databaseProbeProvider } from '@app/database';
import { PAYMENT_GATEWAY_CONNECTION } from './database';
import { PaymentGatewayModule } from './payment-gateway.module';
import { defaultPaymentGatewayOptions, PaymentGatewayOptions } from './payment-gateway.options';
import { GatewayOnlyErrorFormat } from './shared/error-format';

/** payment-gateway deployed on its own (with its health probes, which standalone leaves to merchant-management). */
@Module({})
export class PaymentGatewayAppModule {
  static register(options: PlatformOptions, gateway: PaymentGatewayOptions = defaultPaymentGatewayOptions()): DynamicModule {
    return {
      module: PaymentGatewayAppModule,
      imports: [...platformModules(options), PaymentGatewayModule.register(gateway)],
      controllers: [DatabaseHealthController],
      providers: [databaseProbeProvider(PAYMENT_GATEWAY_CONNECTION), GatewayOnlyErrorFormat],
    };
  }
}
