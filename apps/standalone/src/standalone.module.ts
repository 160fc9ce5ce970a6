import { DEVELOPMENT_ZMK } from '@app/host-protocol';
import { PlatformOptions, platformModules } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import { HostConnectorConfig, hostConnectorConfigFromEnv } from '../../host-connector/src/config/host-connector.config';
import { HostConnectorModule } from '../../host-connector/src/host-connector.module';
import { MerchantManagementModule } from '../../merchant-management/src/merchant-management.module';
import { PaymentGatewayModule } from '../../payment-gateway/src/payment-gateway.module';

/**
 * Every bounded context's root module in one process on one port. Only this app composes
 * other apps' modules; each context still has its own schema and its own DataSource.
 * `hostConnector` defaults to the connector's configuration from the environment (standalone
 * rules: loopback hosts allowed, the development zone master key outside production).
 */
@Module({})
export class StandaloneModule {
  static register(options: PlatformOptions, hostConnector?: HostConnectorConfig): DynamicModule {
    const hostConfig = hostConnector ?? hostConnectorConfigFromEnv({ standalone: true, developmentZmk: DEVELOPMENT_ZMK });
    return {
      module: StandaloneModule,
      imports: [...platformModules(options), MerchantManagementModule, PaymentGatewayModule, HostConnectorModule.register(hostConfig)],
    };
  }
}
