import {
  authConfigFrom,
  authVariables,
  cipherVariables,
  defineAppConfig,
  deviceTokenVariables,
  envSchema,
  fieldCipherFrom,
  HttpSettings,
  secretHashCostFrom,
  secretHashVariables,
  useSecretHashCost,
} from '@app/common';
import { databaseVariables, dataDirOf } from '@app/database';
import { mailConfigFrom, mailVariables } from '@app/mail';
import { distributedAppFrom, distributedAppVariables, gatewayNamespaceVariables, PlatformOptions } from '@app/runtime';

/** merchant-management deployed on its own: what main.ts starts it with. */
export interface MerchantManagementConfig {
  http: HttpSettings;
  platform: PlatformOptions;
}

/**
 * merchant-management's variables: a distributed app's (HTTP, DATABASE_URL, NATS_URL,
 * retention), bearer and device tokens, DATA_ENCRYPTION_KEY, SECRET_HASH_COST, mail (files under DATA_DIR/mail
 * without SMTP_URL) and GATEWAY_NAMESPACE.
 */
export const merchantManagementConfig = defineAppConfig({
  name: 'merchant-management',
  schema: envSchema({
    ...distributedAppVariables,
    DATA_DIR: databaseVariables.DATA_DIR,
    ...authVariables,
    ...deviceTokenVariables,
    ...cipherVariables,
    ...secretHashVariables,
    ...mailVariables,
    ...gatewayNamespaceVariables,
  }),
  build(values): MerchantManagementConfig {
    const { production, http, platform } = distributedAppFrom(values);
    // Process-wide: the cost of new passcode and admin password hashes.
    useSecretHashCost(secretHashCostFrom(values, { production }));
    return {
      http,
      platform: {
        ...platform,
        auth: authConfigFrom(values, { allowDevelopmentDefault: false, production, deviceTokens: true }),
        cipher: fieldCipherFrom(values, { allowDevelopmentDefault: false, production }),
        mail: mailConfigFrom(values, dataDirOf(values)),
        gatewayNamespace: values.GATEWAY_NAMESPACE,
      },
    };
  },
});
