import { cipherVariables, defineAppConfig, envSchema, fieldCipherFrom, HttpSettings } from '@app/common';
import { distributedAppFrom, distributedAppVariables, PlatformOptions } from '@app/runtime';
import { HostConnectorConfig, hostConnectorConfigFrom, hostConnectorVariables } from './host-connector.config';

/** host-connector deployed on its own: what main.ts starts it with. */
export interface HostConnectorAppConfig {
  /** Health probes only. */
  http: HttpSettings;
  platform: PlatformOptions;
  connector: HostConnectorConfig;
}

/**
 * host-connector's variables: a distributed app's (DATABASE_URL, NATS_URL, retention; PORT
 * serves health only), DATA_ENCRYPTION_KEY (working keys are sealed) and the connector's own
 * (apps/host-connector/README.md). It serves no API and sends no mail, so it reads no token
 * secret and no SMTP_URL.
 */
export const hostConnectorAppConfig = defineAppConfig({
  name: 'host-connector',
  schema: envSchema({ ...distributedAppVariables, ...cipherVariables, ...hostConnectorVariables }),
  build(values): HostConnectorAppConfig {
    const { production, http, platform } = distributedAppFrom(values, 'host-connector answers host.* over NATS and has no other way in');
    return {
      http,
      platform: { ...platform, cipher: fieldCipherFrom(values, { allowDevelopmentDefault: false, production }) },
      connector: hostConnectorConfigFrom(values, { standalone: false, production }),
    };
  },
});
