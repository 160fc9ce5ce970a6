/**
 * host-connector in its own process (for bench:iso, and for the crash test that kills it), configured
 * the way apps/host-connector/src/main.ts configures it (hostConnectorAppConfig, non-standalone, NATS),
 * with the caller's settings put in its environment:
 *   HOST_ZMK               DEVELOPMENT_ZMK (the simulator sends working keys under it)
 *   HOST_DEFAULT_ISO8583_URL / HOST_ALLOWLIST / HOST_ALLOW_LOOPBACK=true   the simulator on loopback
 *   HOST_ECHO_INTERVAL_MS  0 (no keep-alive echo inside a run of seconds)
 *   DATA_ENCRYPTION_KEY    the caller's `dataEncryptionKey`, else random per run (the gateway that
 *                          seals host.authorize.v1's card data must share it)
 * Three changes from main.ts, so that a run on a shared NATS server neither disturbs nor is
 * disturbed by other connectors (tests, sandboxes) answering `host.*` in the same queue group:
 * the JetStream stream is the run's own (the bench deletes it), with a subject prefix every
 * `host.*.v1` subject is served as `<prefix>.host.*.v1` (MessagingConfig.subjectPrefix: same
 * queue group, same handler), and `gateway.terminal.released.v1` is consumed by the run's own
 * durable consumer (`terminalReleased`; by default one on the run's stream that nothing
 * publishes to, its dead letters there too), not the platform's.
 * Arguments: <databaseUrl> <JSON of IsoConnectorSettings>. Prints `READY <health port>` once it
 * answers requests. SIGTERM shuts it down gracefully (Nest shutdown hooks).
 */
import { readAppConfig } from '@app/common';
import { createPlatformApp } from '@app/runtime';
import type { ConsumerDefinition } from '@app/messaging/consumer';
import { DEVELOPMENT_ZMK } from '@app/host-protocol';
import { randomBytes } from 'node:crypto';
import { HostConnectorAppModule, hostConnectorAppConfig, terminalReleasedConsumer } from '../src';

export interface IsoConnectorSettings {
  natsUrl: string;
  /** `tcp://127.0.0.1:<port>` of the simulator's ISO8583 server. */
  isoUrl: string;
  /** The run's own JetStream stream and the one subject it captures. */
  stream: string;
  streamSubject: string;
  /** Served subjects become `<prefix>.<subject>`; empty: the real `host.*.v1` subjects. */
  subjectPrefix: string;
  /** DATA_ENCRYPTION_KEY (base64 of 32 bytes) shared with the gateway that seals the card data it sends; random when absent. */
  dataEncryptionKey?: string;
  /** The run's consumer of `gateway.terminal.released.v1` (its own durable name and dead letters); absent: an idle one on `stream`. */
  terminalReleased?: ConsumerDefinition;
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
    DATA_ENCRYPTION_KEY: settings.dataEncryptionKey ?? randomBytes(32).toString('base64'),
  };
  const { connector: config, platform: options } = readAppConfig(hostConnectorAppConfig, { ...env, DATABASE_URL: databaseUrl }).config;
  if (options.messaging.transport !== 'jetstream') throw new Error('the connector needs NATS');
  options.messaging = {
    ...options.messaging,
    stream: { name: settings.stream, subjects: [settings.streamSubject] },
    subjectPrefix: settings.subjectPrefix || undefined,
  };

  const app = await createPlatformApp(HostConnectorAppModule.register(options, config, { terminalReleased: settings.terminalReleased ?? idleOn(settings) }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return Number(new URL(await app.getUrl()).port);
}

/** A consumer of a subject of the run's own stream that nothing publishes to: nothing of the platform's is taken, the bench's stream deletion removes it. */
function idleOn(settings: IsoConnectorSettings): ConsumerDefinition {
  const subject = `${settings.streamSubject}.terminal-released`;
  return {
    ...terminalReleasedConsumer,
    name: `${settings.stream}_terminal_released`,
    subject,
    deadLetterSubject: `${subject}.dlq`,
    jetStream: { ...terminalReleasedConsumer.jetStream!, stream: settings.stream, deadLetterStream: settings.stream },
  };
}

start(process.argv[2], JSON.parse(process.argv[3]) as IsoConnectorSettings).then(
  (port) => process.stdout.write(`READY ${port}\n`),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
