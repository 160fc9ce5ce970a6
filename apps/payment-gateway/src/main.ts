import { buildOpenApiDocument, ConfigError, loadAppConfig, serveOpenApi } from '@app/common';
import { createPlatformApp } from '@app/runtime';
import { Logger } from '@nestjs/common';
import { PaymentGatewayAppModule } from './app.module';
import { paymentGatewayConfig } from './config/payment-gateway.config';

/** payment-gateway on its own: its variables are in config/payment-gateway.config.ts (README.md, Configuration). */
async function main(): Promise<void> {
  const { config, module } = await loadAppConfig(paymentGatewayConfig);
  const app = await createPlatformApp(PaymentGatewayAppModule.register({ ...config.platform, config: module }, config.gateway), config.http);
  serveOpenApi(app, buildOpenApiDocument(app, 'payment-gateway', 'Payment gateway: profiles, acceptances, transactions and webhooks under /{customerNamespace}/api/v1'));
  await app.listen({ port: config.http.port, host: config.http.host });
  new Logger('payment-gateway').log(`listening on ${await app.getUrl()}`);
}

main().catch((error: unknown) => {
  // A configuration error names its variables; its stack would only hide them.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
