import { defineAppConfig, envSchema } from '@app/common';
import { dataDirOf, databaseVariables } from '@app/database';

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
