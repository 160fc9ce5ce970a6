import { integer, oneOf, text, urlWithCredentials, ValuesOf } from '@app/common/config/env-schema';
import { resolve } from 'node:path';

// Without TypeORM or Nest, so that a command line that needs only DATA_DIR loads neither (the
// CLI's phone commands, through `@app/database/database-variables`).

/** The variables of where a process's data lives. */
export const databaseVariables = {
  /** Required by the distributed apps; standalone and the CLI use the embedded server without it. */
  DATABASE_URL: urlWithCredentials(),
  /** Where the embedded PostgreSQL (and mail files) live; resolved against the working directory. */
  DATA_DIR: text('data'),
  EMBEDDED_PG_PORT: integer(0, 0, 65535),
  EMBEDDED_PG_VERBOSE: oneOf(['0', '1'], '0'),
};

export type DatabaseSettings = ValuesOf<typeof databaseVariables>;

/** `DATA_DIR`, default `./data` beside where the process was started. */
export function dataDirOf(settings: Pick<DatabaseSettings, 'DATA_DIR'>): string {
  return resolve(settings.DATA_DIR);
}

