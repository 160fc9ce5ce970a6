import { buildOpenApiDocument, createHttpApp, serveOpenApi } from '@app/common';
import { resolveRuntimeDatabase } from '@app/database';
import { platformOptionsFromEnv } from '@app/runtime';
import { Logger } from '@nestjs/common';
import { PaymentGatewayAppModule } from './app.module';

/** payment-gateway on its own: DATABASE_URL, NATS_URL, AUTH_JWT_SECRET, DEVICE_JWT_SECRET, DATA_ENCRYPTION_KEY, GATEWAY_NAMESPACE, PORT. */
async function main(): Promise<void> {
  const database = await resolveRuntimeDatabase({ allowEmbedded: false });
  const options = platformOptionsFromEnv(database.url, { standalone: false });
  const app = await createHttpApp(PaymentGatewayAppModule.register(options));
  serveOpenApi(app, buildOpenApiDocument(app, 'payment-gateway', 'Payment gateway: profiles and acceptances under /{customerNamespace}/api/v1'));
  const port = Number(process.env.PORT ?? 3000);
  await app.listen({ port, host: process.env.HOST ?? '0.0.0.0' });
  new Logger('payment-gateway').log(`listening on ${await app.getUrl()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
