import { createHttpApp } from '@app/common';
import { resolveRuntimeDatabase } from '@app/database';
import { DEVELOPMENT_ZMK } from '@app/host-protocol';
import { platformOptionsFromEnv } from '@app/runtime';
import { Logger } from '@nestjs/common';
import { HostConnectorAppModule } from './app.module';
import { hostConnectorConfigFromEnv } from './config/host-connector.config';

/**
 * host-connector on its own: DATABASE_URL, NATS_URL, DATA_ENCRYPTION_KEY, HOST_ZMK,
 * HOST_ALLOWLIST, HOST_DEFAULT_<FORMAT>_URL, HOST_TIMEOUT_MS, HOST_ECHO_INTERVAL_MS,
 * HOST_KEY_EXCHANGE_INTERVAL_MS, PORT (health only). It serves no API, so it takes no token
 * secrets. See apps/host-connector/README.md.
 */
async function main(): Promise<void> {
  const config = hostConnectorConfigFromEnv({ standalone: false, developmentZmk: DEVELOPMENT_ZMK });
  const database = await resolveRuntimeDatabase({ allowEmbedded: false });
  const options = platformOptionsFromEnv(database.url, { standalone: false, acceptsTokens: false });
  if (options.messaging.transport === 'in-process') {
    throw new Error('NATS_URL must be set: host-connector answers host.* over NATS and has no other way in');
  }
  const app = await createHttpApp(HostConnectorAppModule.register(options, config));
  const port = Number(process.env.PORT ?? 3000);
  await app.listen({ port, host: process.env.HOST ?? '0.0.0.0' });
  new Logger('host-connector').log(`health on ${await app.getUrl()}/health/ready; answering host.* in queue group host-connector`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
