import { authConfigFromEnv, buildOpenApiDocument, createHttpApp, serveOpenApi } from '@app/common';
import { resolveRuntimeDatabase } from '@app/database';
import { Logger } from '@nestjs/common';
import { MerchantManagementAppModule } from './app.module';

/** merchant-management on its own: DATABASE_URL and PORT (default 3000). */
async function main(): Promise<void> {
  const auth = authConfigFromEnv({ allowDevelopmentDefault: false });
  const database = await resolveRuntimeDatabase({ allowEmbedded: false });
  const app = await createHttpApp(MerchantManagementAppModule.register({ databaseUrl: database.url, auth }));
  serveOpenApi(app, buildOpenApiDocument(app, 'merchant-management', 'Merchant management: /api/openapi/v1 and /api/v2'));
  const port = Number(process.env.PORT ?? 3000);
  await app.listen({ port, host: process.env.HOST ?? '0.0.0.0' });
  new Logger('merchant-management').log(`listening on ${await app.getUrl()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
