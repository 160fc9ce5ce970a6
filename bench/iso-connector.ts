/**
 * host-connector for bench:iso, in its own process and configured the way apps/host-connector/src/main.ts
 * configures it (hostConnectorAppConfig, non-standalone, NATS), with
 * the bench's settings put in its environment:
 *   HOST_ZMK               DEVELOPMENT_ZMK (the simulator sends working keys under it)
 *   HOST_DEFAULT_ISO8583_URL / HOST_ALLOWLIST / HOST_ALLOW_LOOPBACK=true   the simulator on loopback
 *   HOST_ECHO_INTERVAL_MS  0 (no keep-alive echo inside a run of seconds)
 *   DATA_ENCRYPTION_KEY    random per run (no token secrets: the connector serves no API)
 * Two changes from main.ts, so that a run on a shared NATS server neither disturbs nor is
 * disturbed by other connectors (tests, sandboxes) answering `host.*` in the same queue group:
 * the JetStream stream is the run's own (the connector publishes no events; the bench deletes
 * it), and with a subject prefix every `host.*.v1` subject is served as `<prefix>.host.*.v1`
 * (same NatsRequestReply, same queue group, same handler).
 * Arguments: <databaseUrl> <JSON of IsoConnectorSettings>. Prints `READY <health port>` once it
 * answers requests. SIGTERM shuts it down gracefully (Nest shutdown hooks).
 */
import { configureHttpApp, createHttpApp, readAppConfig } from '@app/common';
import { DEVELOPMENT_ZMK } from '@app/host-protocol';
import { NATS_CONNECTION, NatsRequestReply, REQUEST_REPLY, RequestHandler, RequestOptions, RequestReplyTransport, ServedSubject } from '@app/messaging';
import { NestFastifyApplication, FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { NatsConnection } from 'nats';
import { randomBytes } from 'node:crypto';
import { HostConnectorAppModule, hostConnectorAppConfig } from '../apps/host-connector/src';

export interface IsoConnectorSettings {
  natsUrl: string;
  /** `tcp://127.0.0.1:<port>` of the simulator's ISO8583 server. */
  isoUrl: string;
  /** The run's own JetStream stream and the one subject it captures. */
  stream: string;
  streamSubject: string;
  /** Served subjects become `<prefix>.<subject>`; empty: the real `host.*.v1` subjects. */
  subjectPrefix: string;
}

/** The process's request/reply transport, serving every subject under a prefix. */
class PrefixedRequestReply implements RequestReplyTransport {
  constructor(
    private readonly inner: RequestReplyTransport,
    private readonly prefix: string,
  ) {}

  request(subject: string, payload: object, options: RequestOptions): Promise<unknown> {
    return this.inner.request(`${this.prefix}.${subject}`, payload, options);
  }

  serve(subject: string, queueGroup: string, handler: RequestHandler): ServedSubject {
    return this.inner.serve(`${this.prefix}.${subject}`, queueGroup, handler);
  }
}

async function start(databaseUrl: string, settings: IsoConnectorSettings): Promise<number> {
  const iso = new URL(settings.isoUrl);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NATS_URL: settings.natsUrl,
    SERVICE_NAME: 'bench-iso-host-connector',
    HOST_ZMK: DEVELOPMENT_ZMK.toString('hex').toUpperCase(),
    HOST_ALLOWLIST: `${iso.hostname}:${iso.port}`,
    HOST_ALLOW_LOOPBACK: 'true',
    HOST_DEFAULT_ISO8583_URL: settings.isoUrl,
    HOST_ECHO_INTERVAL_MS: '0',
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  const { connector: config, platform: options } = readAppConfig(hostConnectorAppConfig, { ...env, DATABASE_URL: databaseUrl }).config;
  if (options.messaging.transport !== 'jetstream') throw new Error('the connector needs NATS');
  options.messaging = { ...options.messaging, stream: { name: settings.stream, subjects: [settings.streamSubject] } };

  let app: NestFastifyApplication;
  if (!settings.subjectPrefix) {
    app = await createHttpApp(HostConnectorAppModule.register(options, config));
  } else {
    const moduleRef = await Test.createTestingModule({ imports: [HostConnectorAppModule.register(options, config)] })
      .overrideProvider(REQUEST_REPLY)
      .useFactory({
        inject: [NATS_CONNECTION],
        factory: (connection: NatsConnection) => new PrefixedRequestReply(new NatsRequestReply(connection), settings.subjectPrefix),
      })
      .compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: ['error', 'warn'] });
    configureHttpApp(app);
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  return Number(new URL(await app.getUrl()).port);
}

start(process.argv[2], JSON.parse(process.argv[3]) as IsoConnectorSettings).then(
  (port) => process.stdout.write(`READY ${port}\n`),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
