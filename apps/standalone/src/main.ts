import { buildOpenApiDocument, ConfigError, loadAppConfig, serveOpenApi, signPboToken } from '@app/common';
import { createPlatformApp } from '@app/runtime';
import { dataDirOf, resolveRuntimeDatabase } from '@app/database';
import { Logger } from '@nestjs/common';
import { PboService } from '../../merchant-management/src';
import { standaloneConfig } from './config/standalone.config';
import { ensureDemoPbo } from './demo-seed';
import { startHostSandbox } from './host-sandbox';
import { StandaloneModule } from './standalone.module';

const logger = new Logger('standalone');

/**
 * `npm start`: every context in one process on PORT (default 3000), with the embedded
 * PostgreSQL under DATA_DIR (default ./data) unless DATABASE_URL is given.
 */
async function main(): Promise<void> {
  const { config, module: configModule } = await loadAppConfig(standaloneConfig);
  const database = await resolveRuntimeDatabase(config.database, { allowEmbedded: true });
  const options = { ...config.platform, databaseUrl: database.url, config: configModule };
  const hosts = await startHostSandbox(config.hosts);
  for (const warning of hosts.warnings) logger.warn(warning);
  const app = await createPlatformApp(StandaloneModule.register(options, hosts.config, config.gateway), {
    shutdownHooks: false,
    logLevel: config.http.logLevel,
    trustProxy: config.http.trustProxy,
  });
  let closing: Promise<void> | undefined;
  const shutdown = (signal: string) => {
    closing ??= (async () => {
      logger.log(`${signal}: closing`);
      await app.close().catch((error: unknown) => logger.error(String(error)));
      await hosts.close().catch((error: unknown) => logger.error(String(error)));
      await database.release();
      process.exit(0);
    })();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  serveOpenApi(app, buildOpenApiDocument(app, 'SoftPOS platform (standalone)', 'Every context in one process'));
  const { port, host } = config.http;
  await app.listen({ port, host });

  const { pbo, created } = await ensureDemoPbo(app.get(PboService));
  const token = await signPboToken(options.auth, pbo.groupId, 30 * 86400);
  const base = `http://${host}:${port}`;
  const lines = [
    '',
    `SoftPOS standalone is running (${database.kind === 'embedded' ? `embedded PostgreSQL, data in ${dataDirOf(config.database)}` : 'PostgreSQL from DATABASE_URL'})`,
    `  base URL : ${base}`,
    `  OpenAPI  : ${base}/docs`,
    `  demo PBO : ${pbo.groupId} (${created ? 'created now' : 'existing'})`,
    `  token    : ${token}`,
    `  hosts    : ${
      hosts.simulator
        ? `simulator ${Object.entries(hosts.simulator.connUrls)
            .map(([format, url]) => `${format} ${url}`)
            .join(', ')}`
        : 'no simulator (HOST_SIMULATOR=off)'
    }`,
    '',
    `  try: curl -H "Authorization: Bearer <token>" ${base}/api/v2/current`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  // A configuration error names its variables; its stack would only hide them.
  logger.error(error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
