import { buildOpenApiDocument, createHttpApp, serveOpenApi, signPboToken } from '@app/common';
import { resolveRuntimeDatabase } from '@app/database';
import { platformOptionsFromEnv } from '@app/runtime';
import { Logger } from '@nestjs/common';
import { PboService } from '../../merchant-management/src/pbo/pbo.service';
import { PboRepository } from '../../merchant-management/src/pbo/persistence/pbo.repository';
import { ensureDemoPbo } from './demo-seed';
import { startHostSandbox } from './host-sandbox';
import { StandaloneModule } from './standalone.module';

const logger = new Logger('standalone');

/**
 * `npm start`: every context in one process on PORT (default 3000), with the embedded
 * PostgreSQL under DATA_DIR (default ./data) unless DATABASE_URL is given.
 */
async function main(): Promise<void> {
  const database = await resolveRuntimeDatabase({ allowEmbedded: true });
  const options = platformOptionsFromEnv(database.url, { standalone: true });
  const auth = options.auth;
  const hosts = await startHostSandbox();
  for (const warning of hosts.warnings) logger.warn(warning);
  const app = await createHttpApp(StandaloneModule.register(options, hosts.config), { shutdownHooks: false });
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
  const port = Number(process.env.PORT ?? 3000);
  await app.listen({ port, host: process.env.HOST ?? '127.0.0.1' });

  const { pbo, created } = await ensureDemoPbo(app.get(PboRepository), app.get(PboService));
  const token = await signPboToken(auth, pbo.groupId, 30 * 86400);
  const base = `http://${process.env.HOST ?? '127.0.0.1'}:${port}`;
  const lines = [
    '',
    `SoftPOS standalone is running (${database.kind === 'embedded' ? `embedded PostgreSQL, data in ${process.env.DATA_DIR || './data'}` : 'PostgreSQL from DATABASE_URL'})`,
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
  logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
