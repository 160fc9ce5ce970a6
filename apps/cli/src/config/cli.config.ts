import { AuthConfig, authConfigFrom, authVariables, defineAppConfig, envSchema, isProduction, nodeEnvVariables } from '@app/common';
import { DatabaseSettings, databaseVariables } from '@app/database';

/** What the CLI runs with. */
export interface CliConfig {
  database: DatabaseSettings;
  /** The key the tokens it prints are signed with. */
  auth: AuthConfig;
}

/**
 * The CLI's variables: DATABASE_URL, else the embedded PostgreSQL under DATA_DIR (shared with a
 * running `npm start`), and the bearer-token settings (standalone's development secret when
 * AUTH_JWT_SECRET is unset, outside production).
 */
export const cliConfig = defineAppConfig({
  name: 'cli',
  schema: envSchema({ ...nodeEnvVariables, ...databaseVariables, ...authVariables }),
  build(values): CliConfig {
    return { database: values, auth: authConfigFrom(values, { allowDevelopmentDefault: true, production: isProduction(values), deviceTokens: false }) };
  },
});
