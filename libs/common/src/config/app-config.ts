import { DynamicModule, Logger } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Env, Variables } from './env-schema';
import { APP_CONFIG, AppConfigDefinition, readAppConfig } from './app-config-definition';

export * from './app-config-definition';

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

