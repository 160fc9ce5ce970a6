import { buildOpenApiDocument, ConfigError, loadAppConfig, serveOpenApi } from '@app/common';
import { createPlatformApp } from '@app/runtime';
import { Logger } from '@nestjs/common';
import { TransactionsAppModule } from './app.module';
import { transactionsConfig } from './config/transactions.config';

/** transactions on its own: its variables are in config/transactions.config.ts (README.md, Configuration). */
async function main(): Promise<void> {
  const { config, module } = await loadAppConfig(transactionsConfig);
  const app = await createPlatformApp(TransactionsAppModule.register({ ...config.platform, config: module }), config.http);
  serveOpenApi(app, buildOpenApiDocument(app, 'transactions', 'Transactions: orders and settlement under /api/v2/order and /api/v2/settlement'));
  await app.listen({ port: config.http.port, host: config.http.host });
  new Logger('transactions').log(`listening on ${await app.getUrl()}`);
}

main().catch((error: unknown) => {
  // A configuration error names its variables; its stack would only hide them.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
