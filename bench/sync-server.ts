/**
 * One server for bench:sync, in its own process so that the measuring process does not share its
 * event loop:
 *   standalone  merchant-management and payment-gateway in one process, in-process transport;
 *   mm          merchant-management alone, publishing through JetStream;
 *   gateway     payment-gateway alone, consuming through JetStream with the bench's consumer
 *               definition (its own durable and dead-letter stream; its webhook intake idle).
 * Arguments: <mode> <databaseUrl> [<JSON of SyncServerNats>]. Prints `READY <port>` when serving.
 */
import { configureHttpApp, developmentFieldCipher } from '@app/common';
import { GATEWAY_PROFILE_UPSERT_V1 } from '@app/contracts';
import { connectMessaging, MessagingConfig } from '@app/messaging';
import { ConsumerDefinition } from '@app/messaging/consumer';
import { createPlatformApp, PlatformOptions } from '@app/runtime';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { tmpdir } from 'node:os';
import { MerchantManagementAppModule } from '../apps/merchant-management/src';
import { PaymentGatewayAppModule, PROFILE_UPSERT_CONSUMER, TRANSACTION_WEBHOOK_CONSUMER } from '../apps/payment-gateway/src';
import { StandaloneModule } from '../apps/standalone/src';
import { BENCH_AUTH } from './bench-auth';

/** The NATS side of a run: server, the stream that captures the upsert subject, the consumer to use. */
export interface SyncServerNats {
  servers: string;
  stream: string;
  consumer: ConsumerDefinition;
  /** The gateway's webhook intake, moved out of the way (not measured). */
  webhookConsumer: ConsumerDefinition;
}

function platformOptions(databaseUrl: string, messaging: MessagingConfig): PlatformOptions {
  return { databaseUrl, auth: BENCH_AUTH, cipher: developmentFieldCipher(), mail: { transport: 'file', directory: tmpdir() }, messaging };
}

function jetStream(nats: SyncServerNats): MessagingConfig {
  return { transport: 'jetstream', servers: nats.servers.split(','), connectionName: 'bench-sync', stream: { name: nats.stream, subjects: [GATEWAY_PROFILE_UPSERT_V1] } };
}

async function listen(app: NestFastifyApplication): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return Number(new URL(await app.getUrl()).port);
}

async function start(mode: string, databaseUrl: string, nats: SyncServerNats | undefined): Promise<number> {
  if (mode === 'standalone') {
    return listen(await createPlatformApp(StandaloneModule.register(platformOptions(databaseUrl, { transport: 'in-process' })), { logger: false }));
  }
  if (!nats) throw new Error(`${mode} needs the NATS settings`);
  if (mode === 'mm') return listen(await createPlatformApp(MerchantManagementAppModule.register(platformOptions(databaseUrl, jetStream(nats))), { logger: false }));
  if (mode === 'gateway') {
    const moduleRef = await Test.createTestingModule({ imports: [PaymentGatewayAppModule.register(platformOptions(databaseUrl, jetStream(nats)))] })
      .overrideProvider(PROFILE_UPSERT_CONSUMER)
      .useValue(nats.consumer)
      .overrideProvider(TRANSACTION_WEBHOOK_CONSUMER)
      .useValue(nats.webhookConsumer)
      .compile();
    const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
    configureHttpApp(app);
    connectMessaging(app);
    return listen(app);
  }
  throw new Error(`unknown mode ${mode}`);
}

async function main(): Promise<void> {
  const [mode, databaseUrl, natsJson] = process.argv.slice(2);
  const port = await start(mode, databaseUrl, natsJson ? (JSON.parse(natsJson) as SyncServerNats) : undefined);
  process.stdout.write(`READY ${port}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
