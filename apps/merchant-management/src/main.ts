import { buildOpenApiDocument, createHttpApp, serveOpenApi } from '@app/common';
import { resolveRuntimeDatabase } from '@app/database';
import { platformOptionsFromEnv } from '@app/runtime';
import { Logger } from '@nestjs/common';
import { MerchantManagementAppModule } from './app.module';

/** merchant-management on its own: DATABASE_URL, NATS_URL, AUTH_JWT_SECRET, DEVICE_JWT_SECRET, DATA_ENCRYPTION_KEY, PORT. */
async function main(): Promise<void> {
  const database = await resolveRuntimeDatabase({ allowEmbedded: false });
  const options = platformOptionsFromEnv(database.url, { standalone: false });
  const app = await createHttpApp(MerchantManagementAppModule.register(options));
  serveOpenApi(app, buildOpenApiDocument(app, 'merchant-management', 'Merchant management: /api/openapi/v1, /api/v2 and the device app API /api/sdk/v1'));
  const port = Number(process.env.PORT ?? 3000);
  await app.listen({ port, host: process.env.HOST ?? '0.0.0.0' });
  new Logger('merchant-management').log(`listening on ${await app.getUrl()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
