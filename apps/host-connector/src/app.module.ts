import { PlatformOptions, platformModules } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import { HostConnectorConfig } from './config/host-connector.config';
import { HealthController } from './health/health.controller';
import { HostConnectorModule, HostConnectorModuleOptions } from './host-connector.module';

/** host-connector deployed on its own: the context plus its health probes (port 3000 serves nothing else). */
@Module({})
export class HostConnectorAppModule {
  static register(options: PlatformOptions, config: HostConnectorConfig, moduleOptions: HostConnectorModuleOptions = {}): DynamicModule {
    return {
      module: HostConnectorAppModule,
      imports: [...platformModules(options), HostConnectorModule.register(config, moduleOptions)],
      controllers: [HealthController],
    };
  }
}
