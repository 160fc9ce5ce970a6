/**
 * One server for bench:sale, in its own process so that the measuring process (autocannon) does
 * not share its event loop:
 *   standalone    every context in one process, in-process transport; its host connector
 *                 talks to the host simulator (another process) over TCP;
 *   mm            merchant-management alone over NATS (setup and activation);
 *   gateway       payment-gateway alone over NATS: the sale, host.authorize to the connector,
 *                 the transaction events to transactions;
 *   transactions  transactions alone over NATS: the order read model and GET /api/v2/order.
 * (host-connector over NATS runs as apps/host-connector/test/connector-process.ts, as for bench:iso.)
 * Over NATS every process uses the run's request/reply subject prefix, the run's stream and the
 * run's durable consumers (SaleServerNats), so that other processes on a shared NATS server
 * neither answer nor consume the run's messages.
 * With BENCH_COUNT_SQL=<dir> (`--count-sql <dir>`) it counts its SQL statements (bench/sql-count.ts).
 * Arguments: <mode> <databaseUrl> <JSON of SaleServerSettings>. Prints `READY <port>` when serving.
 */
import { configureHttpApp, envSchema, FieldCipher } from '@app/common';
import { connectMessaging, MessagingConfig } from '@app/messaging';
import { ConsumerDefinition } from '@app/messaging/consumer';
import { createPlatformApp, PlatformOptions } from '@app/runtime';
import { InjectionToken } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostConnectorVariables } from '../apps/host-connector/src';
import { MerchantManagementAppModule, PROFILE_OUTCOME_CONSUMER } from '../apps/merchant-management/src';
import { PaymentGatewayAppModule, PROFILE_UPSERT_CONSUMER, REVERSAL_STATE_CONSUMER, TRANSACTION_WEBHOOK_CONSUMER } from '../apps/payment-gateway/src';
import { standaloneConnectorConfig, StandaloneModule } from '../apps/standalone/src';
import { ORDER_UPDATES_CONSUMER, TransactionsAppModule } from '../apps/transactions/src';
import { BENCH_AUTH } from './bench-auth';
import { countSql } from './sql-count';

/** The NATS side of a run: server, subject prefix, stream, and the consumers each context uses. */
export interface SaleServerNats {
  servers: string;
  subjectPrefix: string;
  /** The stream the contexts' publishers ensure, and the subjects they ensure it captures. */
  stream: string;
  streamSubjects: string[];
  profileUpsert: ConsumerDefinition;
  /** The gateway's webhook intake, moved out of the way (not measured). */
  webhook: ConsumerDefinition;
  /** The gateway's reversal-state intake, moved out of the way (no reversal in the run). */
  reversalStates: ConsumerDefinition;
  orderUpdates: ConsumerDefinition;
  /** merchant-management's intake of the gateway's profile outcomes, on the run's stream. */
  profileOutcome: ConsumerDefinition;
}

export interface SaleServerSettings {
  /** `tcp://127.0.0.1:<port>` of the simulator's ISO8583 server (standalone's connector). */
  isoUrl: string;
  nats?: SaleServerNats;
  /** DATA_ENCRYPTION_KEY (base64 of 32 bytes), shared with the connector process: the gateway seals the card data of host.authorize.v1 under it. */
  dataEncryptionKey: string;
}

function platformOptions(databaseUrl: string, messaging: MessagingConfig, dataEncryptionKey: string): PlatformOptions {
  return { databaseUrl, auth: BENCH_AUTH, cipher: new FieldCipher(Buffer.from(dataEncryptionKey, 'base64')), mail: { transport: 'file', directory: tmpdir() }, messaging };
}

function jetStream(nats: SaleServerNats, name: string): MessagingConfig {
  return {
    transport: 'jetstream',
    servers: nats.servers.split(','),
    connectionName: `bench-sale-${name}`,
    stream: { name: nats.stream, subjects: nats.streamSubjects },
    subjectPrefix: nats.subjectPrefix,
  };
}

async function listen(app: NestFastifyApplication): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return Number(new URL(await app.getUrl()).port);
}

/** `root` with its consumer definitions replaced by the run's, as a platform app. */
async function withConsumers(root: unknown, consumers: [InjectionToken, ConsumerDefinition][]): Promise<NestFastifyApplication> {
  let builder = Test.createTestingModule({ imports: [root as never] });
  for (const [token, definition] of consumers) builder = builder.overrideProvider(token).useValue(definition);
  const app = (await builder.compile()).createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  configureHttpApp(app);
  connectMessaging(app);
  return app;
}

async function start(mode: string, databaseUrl: string, settings: SaleServerSettings): Promise<number> {
  if (mode === 'standalone') {
    // The connector under standalone rules (loopback hosts, the development ZMK the simulator shares), no keep-alive echo.
    const values = envSchema(hostConnectorVariables).read({ HOST_DEFAULT_ISO8583_URL: settings.isoUrl, HOST_ECHO_INTERVAL_MS: '0' });
    const hostConfig = standaloneConnectorConfig({ values, production: false });
    return listen(await createPlatformApp(StandaloneModule.register(platformOptions(databaseUrl, { transport: 'in-process' }, settings.dataEncryptionKey), hostConfig), { logger: false }));
  }
  const nats = settings.nats;
  if (!nats) throw new Error(`${mode} needs the NATS settings`);
  const options = platformOptions(databaseUrl, jetStream(nats, mode), settings.dataEncryptionKey);
  if (mode === 'mm') return listen(await withConsumers(MerchantManagementAppModule.register(options), [[PROFILE_OUTCOME_CONSUMER, nats.profileOutcome]]));
  if (mode === 'gateway') {
    return listen(
      await withConsumers(PaymentGatewayAppModule.register(options), [
        [PROFILE_UPSERT_CONSUMER, nats.profileUpsert],
        [TRANSACTION_WEBHOOK_CONSUMER, nats.webhook],
        [REVERSAL_STATE_CONSUMER, nats.reversalStates],
      ]),
    );
  }
  if (mode === 'transactions') return listen(await withConsumers(TransactionsAppModule.register(options), [[ORDER_UPDATES_CONSUMER, nats.orderUpdates]]));
  throw new Error(`unknown mode ${mode}`);
}

/**
 * With BENCH_CPU_PROF=<dir> (`npm run bench:sale -- --cpu-prof <dir>`): a V8 CPU profile of the
 * whole life of this server, written to <dir>/sale-<mode>.cpuprofile when it is told to stop
 * (Chrome DevTools reads it). `node --cpu-prof` cannot be given through NODE_OPTIONS, hence the inspector.
 */
async function profileUntilStopped(mode: string, dir: string): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  process.once('SIGTERM', () => {
    void session.post('Profiler.stop').then(({ profile }) => {
      writeFileSync(join(dir, `sale-${mode}.cpuprofile`), JSON.stringify(profile));
      process.exit(0);
    });
  });
}

async function main(): Promise<void> {
  const [mode, databaseUrl, settingsJson] = process.argv.slice(2);
  if (process.env.BENCH_COUNT_SQL) countSql(process.env.BENCH_COUNT_SQL, mode);
  if (process.env.BENCH_CPU_PROF) await profileUntilStopped(mode, process.env.BENCH_CPU_PROF);
  const port = await start(mode, databaseUrl, JSON.parse(settingsJson) as SaleServerSettings);
  process.stdout.write(`READY ${port}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
