import { loadAppConfig, parseTtl, signPboToken } from '@app/common';
import { resolveRuntimeDatabase } from '@app/database';
import { NestFactory } from '@nestjs/core';
import { PboService } from '../../merchant-management/src';
import { flagOption, parseArgs, stringOption } from './args';
import { CliModule } from './cli.module';
import { cliConfig } from './config/cli.config';

const USAGE = `usage:
  npm run cli -- pbo create --name NAME [--time-zone Asia/Kuala_Lumpur] [--qr-enabled] [--gateway-format MOCK]
      creates a PBO and prints {"groupId": "...", "token": "..."} (token valid 24h)
  npm run cli -- token --group-id ID [--ttl 24h]
      prints a bearer token for an existing PBO
Database: DATABASE_URL, else the embedded PostgreSQL under DATA_DIR (default ./data), shared with a running \`npm start\`.
Tokens are signed with AUTH_JWT_SECRET (standalone's development secret when unset, outside production).`;

async function run(argv: string[]): Promise<string> {
  const args = parseArgs(argv);
  const command = args.words.join(' ');
  if (command !== 'pbo create' && command !== 'token') throw new UsageError(`unknown command "${command}"`);
  // Standard output carries the command's answer only: the settings go to standard error.
  const { config, module } = await loadAppConfig(cliConfig, (line) => process.stderr.write(`cli ${line}\n`));
  const database = await resolveRuntimeDatabase(config.database, { allowEmbedded: true });
  try {
    const context = await NestFactory.createApplicationContext(CliModule.register(database.url, module), { logger: false, abortOnError: false });
    try {
      const pbos = context.get(PboService);
      if (command === 'pbo create') {
        const name = stringOption(args, 'name');
        if (!name) throw new UsageError('--name is required');
        const pbo = await pbos.create({
          name,
          timeZone: stringOption(args, 'time-zone'),
          qrEnabled: flagOption(args, 'qr-enabled'),
          gatewayFormat: stringOption(args, 'gateway-format'),
        });
        return JSON.stringify({ groupId: pbo.groupId, token: await signPboToken(config.auth, pbo.groupId, 86400) });
      }
      const groupId = stringOption(args, 'group-id');
      if (!groupId) throw new UsageError('--group-id is required');
      if (!(await pbos.find(groupId))) throw new Error(`no PBO with group id ${groupId}`);
      return signPboToken(config.auth, groupId, parseTtl(stringOption(args, 'ttl') ?? '24h'));
    } finally {
      await context.close();
    }
  } finally {
    await database.release();
  }
}

class UsageError extends Error {}

run(process.argv.slice(2)).then(
  (output) => {
    process.stdout.write(`${output}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof UsageError) process.stderr.write(`${USAGE}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
