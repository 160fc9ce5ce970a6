import { loadAppConfig, parseTtl, signPboToken } from '@app/common';
import { resolveRuntimeDatabase } from '@app/database';
import { NestFactory } from '@nestjs/core';
import { PboService } from '../../merchant-management/src';
import { flagOption, ParsedArgs, requiredOption, stringOption } from './args';
import { CliModule } from './cli.module';
import { cliConfig } from './config/cli.config';

/** The operator's commands (`pbo create`, `token`): merchant-management's PBOs, straight in its database. */
export async function runAdminCommand(command: 'pbo create' | 'token', args: ParsedArgs): Promise<string> {
  // Standard output carries the command's answer only: the settings go to standard error.
  const { config, module } = await loadAppConfig(cliConfig, (line) => process.stderr.write(`cli ${line}\n`));
  const database = await resolveRuntimeDatabase(config.database, { allowEmbedded: true });
  try {
    const context = await NestFactory.createApplicationContext(CliModule.register(database.url, module), { logger: false, abortOnError: false });
    try {
      const pbos = context.get(PboService);
      if (command === 'pbo create') {
        const pbo = await pbos.create({
          name: requiredOption(args, 'name'),
          timeZone: stringOption(args, 'time-zone'),
          qrEnabled: flagOption(args, 'qr-enabled'),
          gatewayFormat: stringOption(args, 'gateway-format'),
          enablerParams: stringOption(args, 'enabler-params'),
        });
        return JSON.stringify({ groupId: pbo.groupId, token: await signPboToken(config.auth, pbo.groupId, 86400) });
      }
      const groupId = requiredOption(args, 'group-id');
      if (!(await pbos.find(groupId))) throw new Error(`no PBO with group id ${groupId}`);
      return signPboToken(config.auth, groupId, parseTtl(stringOption(args, 'ttl') ?? '24h'));
    } finally {
      await context.close();
    }
  } finally {
    await database.release();
  }
}
