import { envSchema } from '@app/common';
import { PlatformOptions, platformModules } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import { HostConnectorConfig, HostConnectorModule, hostConnectorVariables } from '../../host-connector/src';
import { MerchantManagementModule } from '../../merchant-management/src';
import { PaymentGatewayModule, PaymentGatewayOptions, paymentGatewayOptionsFrom, paymentGatewayVariables } from '../../payment-gateway/src';
import { TransactionsModule } from '../../transactions/src';
import { standaloneConnectorConfig } from './config/standalone.config';

/**
 * Every bounded context's root module in one process on one port. Only this app composes
 * other apps' modules; each context still has its own schema and its own DataSource.
 * `hostConnector` defaults to the connector's default settings under standalone rules
 * (loopback hosts allowed, the development zone master key), `gateway` to the gateway's
 * (webhooks to loopback receivers allowed).
 */
@Module({})
export class StandaloneModule {
  static register(options: PlatformOptions, hostConnector?: HostConnectorConfig, gateway?: PaymentGatewayOptions): DynamicModule {
    const hostConfig = hostConnector ?? standaloneConnectorConfig({ values: envSchema(hostConnectorVariables).read({}), production: false });
    const gatewayOptions = gateway ?? paymentGatewayOptionsFrom(envSchema(paymentGatewayVariables).read({}), { standalone: true, production: false });
    return {
      module: StandaloneModule,
      imports: [
        ...platformModules(options),
        MerchantManagementModule,
        PaymentGatewayModule.register(gatewayOptions),
        TransactionsModule,
        HostConnectorModule.register(hostConfig),
      ],
    };
  }
}
