import { buildOpenApiDocument, ConfigError, loadAppConfig, serveOpenApi } from '@app/common';
import { createPlatformApp } from '@app/runtime';
import { Logger } from '@nestjs/common';
import { MerchantManagementAppModule } from './app.module';
import { merchantManagementConfig } from './config/merchant-management.config';

/** merchant-management on its own: its variables are in config/merchant-management.config.ts (README.md, Configuration). */
async function main(): Promise<void> {
  const { config, module } = await loadAppConfig(merchantManagementConfig);
  const app = await createPlatformApp(MerchantManagementAppModule.register({ ...config.platform, config: module }), config.http);
  serveOpenApi(app, buildOpenApiDocument(app, 'merchant-management', 'Merchant management: /api/openapi/v1, /api/v2 and the device app API /api/sdk/v1'));
  await app.listen({ port: config.http.port, host: config.http.host });
  new Logger('merchant-management').log(`listening on ${await app.getUrl()}`);
}

main().catch((error: unknown) => {
  // A configuration error names its variables; its stack would only hide them.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
