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
  isProduction,
  nodeEnvVariables,
  oneOf,
  ValuesOf,
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
    ...mailVariables,
    ...retentionVariables,
    ...gatewayNamespaceVariables,
    ...paymentGatewayVariables,
    ...hostSandboxVariables,
  }),
  build(values): StandaloneConfig {
    const production = isProduction(values);
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
