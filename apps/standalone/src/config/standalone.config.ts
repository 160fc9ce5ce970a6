import {
  AuthConfig,
  authConfigFrom,
  authVariables,
  cipherVariables,
  defineAppConfig,
  deviceTokenVariables,
  Env,
  envSchema,
  fieldCipherFrom,
  HttpSettings,
  httpSettingsFrom,
  httpVariables,
  isLoopbackHost,
  isProduction,
  nodeEnvVariables,
  oneOf,
  ValuesOf,
  ConfigError,
  secretHashCostFrom,
  secretHashVariables,
  useSecretHashCost,
} from '@app/common';
import { DatabaseSettings, databaseVariables, dataDirOf, retentionFrom, retentionVariables } from '@app/database';
import { DEVELOPMENT_ZMK } from '@app/host-protocol';
import { mailConfigFrom, mailVariables } from '@app/mail';
import { gatewayNamespaceVariables, messagingFrom, messagingVariables, PlatformOptions } from '@app/runtime';
import { HostConnectorConfig, hostConnectorConfigFrom, HostConnectorSettings, hostConnectorVariables } from '../../../host-connector/src';
import { simulatorVariables } from '../../../host-simulator/src';
import { PaymentGatewayOptions, paymentGatewayOptionsFrom, paymentGatewayVariables } from '../../../payment-gateway/src';

/** The variables of standalone's host side: the simulator (free ports unless set) and the connector. */
export const hostSandboxVariables = {
  HOST_SIMULATOR: oneOf(['on', 'off'], 'on'),
  ...simulatorVariables(() => 0),
  ...hostConnectorVariables,
};

/** What the host sandbox starts from: the variables read, and whether development keys are allowed. */
export interface HostSandboxSettings {
  values: ValuesOf<typeof hostSandboxVariables>;
  production: boolean;
}

/** The connector's configuration under standalone rules (loopback hosts allowed, the development ZMK outside production). */
export function standaloneConnectorConfig(settings: { values: HostConnectorSettings; production: boolean }): HostConnectorConfig {
  return hostConnectorConfigFrom(settings.values, { standalone: true, production: settings.production, developmentZmk: DEVELOPMENT_ZMK });
}

const hostSandboxSchema = envSchema({ ...nodeEnvVariables, ...hostSandboxVariables });

/** The host sandbox's settings from an environment of its own (system tests). */
export function hostSandboxSettingsFrom(env: Env): HostSandboxSettings {
  const values = hostSandboxSchema.read(env);
  return { values, production: isProduction(values) };
}

/** `npm start`: what main.ts starts every context with. */
export interface StandaloneConfig {
  http: HttpSettings;
  database: DatabaseSettings;
  /** Every option but the database URL, known once the (embedded) database runs. */
  platform: Omit<PlatformOptions, 'databaseUrl'> & { auth: AuthConfig };
  hosts: HostSandboxSettings;
  /** The gateway's own settings (WEBHOOK_*), under standalone rules. */
  gateway: PaymentGatewayOptions;
}

/**
 * standalone's variables: every context's, with the development defaults a fresh clone needs
 * (token secrets, DATA_ENCRYPTION_KEY, HOST_ZMK, webhooks to loopback receivers) outside production, the embedded PostgreSQL
 * under DATA_DIR without DATABASE_URL, and the in-process transport without NATS_URL.
 */
export const standaloneConfig = defineAppConfig({
  name: 'standalone',
  schema: envSchema({
    ...nodeEnvVariables,
    ...httpVariables('127.0.0.1'),
    ...databaseVariables,
    ...messagingVariables,
    ...authVariables,
    ...deviceTokenVariables,
    ...cipherVariables,
    ...secretHashVariables,
    ...mailVariables,
    ...retentionVariables,
    ...gatewayNamespaceVariables,
    ...paymentGatewayVariables,
    ...hostSandboxVariables,
  }),
  build(values): StandaloneConfig {
    const production = isProduction(values);
    refuseDevelopmentSecretsBeyondLoopback(values, production);
    // Process-wide: the cost of new passcode and admin password hashes.
    useSecretHashCost(secretHashCostFrom(values, { production }));
    const hosts = { values, production };
    // Checked now, so that a bad host setting stops the start before anything runs.
    standaloneConnectorConfig(hosts);
    return {
      http: httpSettingsFrom(values),
      database: values,
      platform: {
        messaging: messagingFrom(values, { requireNats: false }),
        auth: authConfigFrom(values, { allowDevelopmentDefault: true, production, deviceTokens: true }),
        cipher: fieldCipherFrom(values, { allowDevelopmentDefault: true, production }),
        mail: mailConfigFrom(values, dataDirOf(values)),
        retention: retentionFrom(values),
        gatewayNamespace: values.GATEWAY_NAMESPACE,
      },
      hosts,
      gateway: paymentGatewayOptionsFrom(values, { standalone: true, production }),
    };
  },
});

/**
 * The secrets standalone would otherwise take from its development defaults (known to anyone who
 * reads this repository): fine while it listens on loopback only, refused (the app does not
 * start, every unset variable named) when `HOST` lets other machines in.
 */
export function refuseDevelopmentSecretsBeyondLoopback(
  values: { HOST: string; AUTH_JWT_SECRET?: string; AUTH_JWKS_URL?: string; DEVICE_JWT_SECRET?: string; DATA_ENCRYPTION_KEY?: Buffer; HOST_ZMK?: Buffer },
  production: boolean,
): void {
  if (production || isLoopbackHost(values.HOST)) return;
  const unset = [
    !values.AUTH_JWT_SECRET && !values.AUTH_JWKS_URL ? 'AUTH_JWT_SECRET (or AUTH_JWKS_URL)' : undefined,
    !values.DEVICE_JWT_SECRET ? 'DEVICE_JWT_SECRET' : undefined,
    !values.DATA_ENCRYPTION_KEY ? 'DATA_ENCRYPTION_KEY' : undefined,
    !values.HOST_ZMK ? 'HOST_ZMK' : undefined,
  ].filter((name): name is string => name !== undefined);
  if (unset.length === 0) return;
  throw new ConfigError([
    `HOST=${values.HOST} listens beyond loopback: set ${unset.join(', ')}; refusing to start on the development secrets, which anyone who reads this repository knows`,
  ]);
}
