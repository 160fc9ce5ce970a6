import { authConfigFrom, authVariables, defineAppConfig, envSchema, HttpSettings } from '@app/common';
import { databaseVariables, dataDirOf } from '@app/database';
import { mailConfigFrom, mailVariables } from '@app/mail';
import { distributedAppFrom, distributedAppVariables, PlatformOptions } from '@app/runtime';

/** transactions deployed on its own: what main.ts starts it with. */
export interface TransactionsConfig {
  http: HttpSettings;
  platform: PlatformOptions;
}

/**
 * transactions' variables: a distributed app's (HTTP, DATABASE_URL, NATS_URL, retention), bearer
 * tokens, and mail (receipts and settlement reports; files under DATA_DIR/mail without
 * SMTP_URL). It verifies no device tokens and seals nothing, so DEVICE_JWT_SECRET and
 * DATA_ENCRYPTION_KEY are not read.
 */
export const transactionsConfig = defineAppConfig({
  name: 'transactions',
  schema: envSchema({ ...distributedAppVariables, DATA_DIR: databaseVariables.DATA_DIR, ...authVariables, ...mailVariables }),
  build(values): TransactionsConfig {
    const { production, http, platform } = distributedAppFrom(values);
    return {
      http,
      platform: {
        ...platform,
        auth: authConfigFrom(values, { allowDevelopmentDefault: false, production, deviceTokens: false }),
        mail: mailConfigFrom(values, dataDirOf(values)),
      },
    };
  },
});
