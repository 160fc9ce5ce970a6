import { AuthConfig, AuthModule, ConfigError, CryptoModule, FieldCipher, GROUP_DIRECTORY, GroupDirectory, HttpSettings, httpSettingsFrom, httpVariables, integer, isProduction, matching, nodeEnvVariables, serverList, text, ValuesOf } from '@app/common';
import { EVENT_STREAM, GATEWAY_NAMESPACE_PATTERN, STREAMED_SUBJECTS } from '@app/contracts';
import { DatabaseModule, databaseVariables, requireDatabaseUrl, RetentionConfig, retentionFrom, retentionVariables } from '@app/database';
import { MailConfig, MailModule } from '@app/mail';
import { GroupDirectoryClient, HOST_ADDRESS_POLICY, HostAddressClient, HostAddressPolicy, MessagingConfig, MessagingModule } from '@app/messaging';
import { DynamicModule, Global, Module } from '@nestjs/common';

/**
 * The platform modules a process is given once, whatever contexts it hosts. Only what the
 * process uses is given: a module is loaded when its option is present (the gateway has no
 * cipher and no mailer, the connector no token verification and no mailer).
 */
export interface PlatformOptions {
  databaseUrl: string;
  /** Bearer (and device) token verification: apps that serve an API. */
  auth?: AuthConfig;
  /**
   * Where the guards learn whether a token's group exists: merchant-management over messaging
   * (`mms.group.verify.v1`, the default), or a directory of the caller's (tests of one context alone).
   */
  groups?: GroupDirectory | 'merchant-management';
  /**
   * Who says whether an acquirer's connUrl is one the host connector sends to: the connector over
   * messaging (`host.address.check.v1`, the default), or a policy of the caller's (tests of
   * merchant-management alone).
   */
  hostAddresses?: HostAddressPolicy | 'host-connector';
  /** Sealing of activation codes and working keys. */
  cipher?: FieldCipher;
  /** Outgoing e-mail. */
  mail?: MailConfig;
  messaging: MessagingConfig;
  /** How long bookkeeping rows are kept; `DEFAULT_RETENTION` when absent. */
  retention?: RetentionConfig;
  /** GATEWAY_NAMESPACE; {@link DEFAULT_GATEWAY_NAMESPACE} when absent. */
  gatewayNamespace?: string;
  /** The app's validated configuration as `@nestjs/config`'s ConfigService ({@link loadAppConfig}); tests go without. */
  config?: DynamicModule;
}

/** The global modules a root module imports before its contexts. */
export function platformModules(options: PlatformOptions): DynamicModule[] {
  return [
    ...(options.config ? [options.config] : []),
    DatabaseModule.forRoot(options.databaseUrl, options.retention),
    ...(options.auth ? authModules(options.auth, options.groups ?? 'merchant-management') : []),
    ...(options.cipher ? [CryptoModule.forRoot(options.cipher)] : []),
    ...(options.mail ? [MailModule.forRoot(options.mail)] : []),
    MessagingModule.forRoot(options.messaging),
    hostAddressModule(options.hostAddresses ?? 'host-connector'),
    deploymentModule(options.gatewayNamespace ?? DEFAULT_GATEWAY_NAMESPACE),
  ];
}

@Global()
@Module({})
class GroupDirectoryModule {}

@Global()
@Module({})
class HostAddressModule {}

/** The host connector's address policy, asked through the global messaging client unless the caller gives one. */
function hostAddressModule(policy: HostAddressPolicy | 'host-connector'): DynamicModule {
  const provider = policy === 'host-connector' ? { provide: HOST_ADDRESS_POLICY, useClass: HostAddressClient } : { provide: HOST_ADDRESS_POLICY, useValue: policy };
  return { module: HostAddressModule, global: true, providers: [provider], exports: [HOST_ADDRESS_POLICY] };
}

/** Token verification, and the group directory its guards ask (merchant-management's, through the global messaging client). */
function authModules(auth: AuthConfig, groups: GroupDirectory | 'merchant-management'): DynamicModule[] {
  if (groups !== 'merchant-management') return [AuthModule.forRoot(auth, groups)];
  return [
    { module: GroupDirectoryModule, global: true, providers: [{ provide: GROUP_DIRECTORY, useClass: GroupDirectoryClient }], exports: [GROUP_DIRECTORY] },
    AuthModule.forRoot(auth),
  ];
}

/** The variables of messaging: NATS_URL (comma-separated servers) and the connection's name. */
export const messagingVariables = { NATS_URL: serverList(), SERVICE_NAME: text() };

/**
 * JetStream when NATS_URL is set, else the in-process transport. `requireNats` refuses to start
 * without it (a distributed app in production; the host connector always).
 */
export function messagingFrom(values: ValuesOf<typeof messagingVariables>, options: { requireNats: false | string }): MessagingConfig {
  if (!values.NATS_URL) {
    if (options.requireNats) throw new ConfigError([`NATS_URL must be set: ${options.requireNats}`]);
    return { transport: 'in-process' };
  }
  return {
    transport: 'jetstream',
    servers: values.NATS_URL.split(','),
    connectionName: values.SERVICE_NAME,
    stream: { name: EVENT_STREAM, subjects: [...STREAMED_SUBJECTS] },
  };
}

/** The message of a distributed app in production without NATS_URL. */
export const DISTRIBUTED_NEEDS_NATS = 'a distributed app cannot reach the other contexts without NATS';

/** The gateway namespace this deployment serves, for the contexts that need it (payment-gateway routes, merchant-management tells devices). */
export const GATEWAY_NAMESPACE_SETTING = Symbol('GATEWAY_NAMESPACE_SETTING');

export const DEFAULT_GATEWAY_NAMESPACE = 'demo';

/** GATEWAY_NAMESPACE: one path segment, default `demo`; read and checked in one place for both contexts. */
/**
 * The host connector's own timing, read by the connector and by the gateway, which must know
 * when the connector has finished (or reversed) every request it may have sent: a request's
 * deadline (HOST_TIMEOUT_MS, when it names none), the grace after which an unfinished one is
 * recovered (HOST_RECOVERY_GRACE_MS), and how often reversals are looked for (HOST_REVERSAL_POLL_MS).
 * Deployments give both the same values.
 */
export const hostConnectorTimingVariables = {
  HOST_TIMEOUT_MS: integer(20_000, 100, 60_000),
  HOST_RECOVERY_GRACE_MS: integer(30_000, 0, 3_600_000),
  HOST_REVERSAL_POLL_MS: integer(5000, 10, 600_000),
};

export const gatewayNamespaceVariables = {
  GATEWAY_NAMESPACE: matching(GATEWAY_NAMESPACE_PATTERN, 'letters, digits, - or _ (at most 63)', DEFAULT_GATEWAY_NAMESPACE),
};

@Global()
@Module({})
class DeploymentModule {}

function deploymentModule(gatewayNamespace: string): DynamicModule {
  return {
    module: DeploymentModule,
    providers: [{ provide: GATEWAY_NAMESPACE_SETTING, useValue: gatewayNamespace }],
    exports: [GATEWAY_NAMESPACE_SETTING],
  };
}

/** What every distributed app reads: NODE_ENV, HTTP, DATABASE_URL (required), NATS_URL and retention. */
export const distributedAppVariables = {
  ...nodeEnvVariables,
  ...httpVariables('0.0.0.0'),
  DATABASE_URL: databaseVariables.DATABASE_URL,
  ...messagingVariables,
  ...retentionVariables,
};

/** The part of a distributed app's configuration every one of them has. */
export interface DistributedAppBase {
  production: boolean;
  http: HttpSettings;
  platform: Pick<PlatformOptions, 'databaseUrl' | 'messaging' | 'retention'>;
}

/** Checks {@link distributedAppVariables}; NATS_URL is required in production, or always with `requireNats` (why). */
export function distributedAppFrom(values: ValuesOf<typeof distributedAppVariables>, requireNats?: string): DistributedAppBase {
  const production = isProduction(values);
  return {
    production,
    http: httpSettingsFrom(values),
    platform: {
      databaseUrl: requireDatabaseUrl(values),
      messaging: messagingFrom(values, { requireNats: requireNats ?? (production && DISTRIBUTED_NEEDS_NATS) }),
      retention: retentionFrom(values),
    },
  };
}
