import { Env, EnvSchema, text, Variables, ValuesOf } from './env-schema';

// Without Nest, so that a command line that needs only its configuration loads none of it (the
// CLI's phone commands); loadAppConfig (app-config.ts) reads it through @nestjs/config for the apps.

/**
 * One app's configuration (docs/decisions.md, "One configuration"): the variables it reads and
 * how their values become its typed settings, with the rules that join several variables
 * (production forbids development secrets, …). Both steps throw a `ConfigError` naming the
 * variables at fault.
 */
export interface AppConfigDefinition<V extends Variables, C> {
  /** The app, for the start-up line. */
  name: string;
  schema: EnvSchema<V>;
  build(values: ValuesOf<V>): C;
}

export function defineAppConfig<V extends Variables, C>(definition: AppConfigDefinition<V, C>): AppConfigDefinition<V, C> {
  return definition;
}

/** The key of the typed configuration in `ConfigService` (`config.get(APP_CONFIG)`). */
export const APP_CONFIG = 'app';

/** Reads an app's configuration from `env`: the typed settings and the printable line (secrets masked). */
export function readAppConfig<V extends Variables, C>(definition: AppConfigDefinition<V, C>, env: Env): { config: C; settings: string } {
  const values = definition.schema.read(env);
  return { config: definition.build(values), settings: `settings: ${definition.schema.describe(values)}` };
}

/** NODE_ENV: `production` forbids every development default. */
export const nodeEnvVariables = { NODE_ENV: text() };

export function isProduction(values: ValuesOf<typeof nodeEnvVariables>): boolean {
  return values.NODE_ENV === 'production';
}
