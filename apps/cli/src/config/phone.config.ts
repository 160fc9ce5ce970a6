// By file, not through the libraries' indexes, which load Nest and TypeORM: a phone command starts in
// a second (docs/decisions.md, "The CLI's phone commands load only what they use").
import { defineAppConfig } from '@app/common/config/app-config-definition';
import { envSchema } from '@app/common/config/env-schema';
import { dataDirOf, databaseVariables } from '@app/database/database-variables';

/** What the phone commands (`device activate`, `sale`) run with: only where to keep the device. */
export interface PhoneConfig {
  /** DATA_DIR resolved (default ./data): the activated device is kept under it. */
  dataDir: string;
}

/**
 * The variables of the commands that play the phone: DATA_DIR, nothing else. They speak HTTP to
 * a running platform as a phone would, so they need neither a database nor a token secret.
 */
export const phoneConfig = defineAppConfig({
  name: 'cli',
  schema: envSchema({ DATA_DIR: databaseVariables.DATA_DIR }),
  build(values): PhoneConfig {
    return { dataDir: dataDirOf(values) };
  },
});
