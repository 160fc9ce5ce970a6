import { Env, EnvSchema, text, Variables, ValuesOf } from './env-schema';
import { DynamicModule, Logger } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';

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

/**
 * Reads the process's environment with the app's schema through `@nestjs/config`
 * (`ConfigModule.forRoot({ validate })`), prints the effective settings with secrets masked
 * (`log`, the app's Nest logger by default), and returns the typed configuration and the global
 * ConfigModule that offers it to the app (`ConfigService.get(APP_CONFIG)`). A missing or bad
 * variable throws before anything starts.
 */
export async function loadAppConfig<V extends Variables, C>(
  definition: AppConfigDefinition<V, C>,
  log: (line: string) => void = (line) => new Logger(definition.name).log(line),
): Promise<{ config: C; module: DynamicModule }> {
  let loaded: { config: C } | undefined;
  const module = await ConfigModule.forRoot({
    isGlobal: true,
    ignoreEnvFile: true,
    validate: (env) => {
      const { config, settings } = readAppConfig(definition, env as Env);
      log(settings);
      loaded = { config };
      // Under one key holding an object, so that ConfigModule copies nothing back into process.env.
      return { [APP_CONFIG]: config };
    },
  });
  if (!loaded) throw new Error('ConfigModule did not validate the environment');
  return { config: loaded.config, module };
}

/** NODE_ENV: `production` forbids every development default. */
export const nodeEnvVariables = { NODE_ENV: text() };

export function isProduction(values: ValuesOf<typeof nodeEnvVariables>): boolean {
  return values.NODE_ENV === 'production';
}
