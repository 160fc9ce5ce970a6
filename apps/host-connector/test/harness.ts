import { configureHttpApp, Env, envSchema } from '@app/common';
import { DEVELOPMENT_ZMK } from '@app/host-protocol';
import { connectMessaging, REQUEST_REPLY, RequestReplyTransport } from '@app/messaging';
import { PlatformOptions } from '@app/runtime';
import { createTestDatabase, TestDatabase, testPlatformOptions } from '@app/testing';
import { LoggerService } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { Client } from 'pg';
import { HostConnectorAppModule } from '../src/app.module';
import { HostConnectorConfig, hostConnectorConfigFrom, hostConnectorVariables } from '../src/config/host-connector.config';
import { HostConnectorModuleOptions } from '../src/host-connector.module';

/** Keeps log lines so a test can assert what was logged (e.g. a dropped response). */
export class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  log(message: unknown, context?: string): void {
    this.lines.push(`LOG [${context ?? ''}] ${String(message)}`);
  }
  warn(message: unknown, context?: string): void {
    this.lines.push(`WARN [${context ?? ''}] ${String(message)}`);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.lines.push(`ERROR [${rest.map(String).join(' ')}] ${String(message)}`);
  }
  debug(): void {}
  verbose(): void {}
}

/** Test configuration: loopback allowed, short deadlines and backoffs, echoes off unless asked for. */
export function testConfig(env: Env = {}): HostConnectorConfig {
  const values = envSchema(hostConnectorVariables).read({
    HOST_TIMEOUT_MS: '1000',
    HOST_ECHO_INTERVAL_MS: '0',
    HOST_RECONNECT_BASE_MS: '50',
    HOST_RECONNECT_MAX_MS: '500',
    HOST_REVERSAL_POLL_MS: '200',
    HOST_REVERSAL_BACKOFF_MS: '100',
    HOST_REVERSAL_BACKOFF_MAX_MS: '400',
    HOST_CONNECT_TIMEOUT_MS: '1000',
    ...env,
  });
  return hostConnectorConfigFrom(values, { standalone: true, production: false, developmentZmk: DEVELOPMENT_ZMK });
}

export interface ConnectorHarness {
  app: NestFastifyApplication;
  database: TestDatabase;
  transport: RequestReplyTransport;
  logger: CapturingLogger;
  baseUrl: string;
  /** Asks a subject as a caller would, and returns the reply. */
  ask(subject: string, payload: object, timeoutMs?: number): Promise<Record<string, unknown>>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Stops the application; keeps the database unless `drop`. */
  close(options?: { drop?: boolean }): Promise<void>;
}

/**
 * host-connector on its own over real HTTP (health) with the in-process request/reply, on `database`
 * or a fresh one. Over JetStream messaging, give `platform.messaging.subjectPrefix` so that it shares
 * the machine's NATS with other connectors without taking their requests.
 */
export async function startConnector(
  options: {
    config?: HostConnectorConfig;
    database?: TestDatabase;
    platform?: Partial<PlatformOptions>;
    module?: HostConnectorModuleOptions;
  } = {},
): Promise<ConnectorHarness> {
  const database = options.database ?? (await createTestDatabase('hc'));
  const platform = testPlatformOptions(database.url, options.platform);
  const logger = new CapturingLogger();
  const builder = Test.createTestingModule({
    imports: [HostConnectorAppModule.register(platform, options.config ?? testConfig(), options.module)],
  });
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger, bodyParser: false });
  configureHttpApp(app);
  connectMessaging(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const transport = app.get<RequestReplyTransport>(REQUEST_REPLY);
  const db = new Client({ connectionString: database.url });
  await db.connect();
  return {
    app,
    database,
    transport,
    logger,
    baseUrl,
    ask: async (subject, payload, timeoutMs = 10_000) => (await transport.request(subject, payload, { timeoutMs })) as Record<string, unknown>,
    query: async <T>(sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows as T[],
    close: async ({ drop = true } = {}) => {
      await db.end().catch(() => undefined);
      await app.close();
      if (drop) await database.drop();
    },
  };
}
