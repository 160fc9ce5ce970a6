import { loadAppConfig } from '@app/common';
import { createPlatformApp } from '@app/runtime';
import { Logger } from '@nestjs/common';
import { HostConnectorAppModule } from './app.module';
import { hostConnectorAppConfig } from './config/app.config';

/**
 * host-connector on its own: DATABASE_URL, NATS_URL, DATA_ENCRYPTION_KEY, HOST_ZMK and the
 * connector's settings (config/app.config.ts, apps/host-connector/README.md); PORT serves health
 * only. It serves no API, so it takes no token secrets.
 */
async function main(): Promise<void> {
  const { config, module } = await loadAppConfig(hostConnectorAppConfig);
  const app = await createPlatformApp(HostConnectorAppModule.register({ ...config.platform, config: module }, config.connector), config.http);
  await app.listen({ port: config.http.port, host: config.http.host });
  new Logger('host-connector').log(`health on ${await app.getUrl()}/health/ready; answering host.* in queue group host-connector`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
