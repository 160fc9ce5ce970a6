import { loadAppConfig } from '@app/common';
import { openContextDataSource, resolveRuntimeDatabase } from '@app/database';
import { hostConnectorDatabase, TerminalClaimFilter, TerminalClaimRepository } from '../../host-connector/src';
import { flagOption, ParsedArgs, stringOption, UsageError } from './args';
import { cliConfig } from './config/cli.config';

function filterOf(args: ParsedArgs): TerminalClaimFilter {
  const [pending, confirmed] = [flagOption(args, 'pending'), flagOption(args, 'confirmed')];
  if (pending && confirmed) throw new UsageError('--pending and --confirmed exclude each other');
  const filter: TerminalClaimFilter = {
    groupId: stringOption(args, 'group-id'),
    format: stringOption(args, 'format'),
    address: stringOption(args, 'address'),
    mid: stringOption(args, 'mid'),
    tid: stringOption(args, 'tid'),
    pending: pending ? true : confirmed ? false : undefined,
  };
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as TerminalClaimFilter;
}

/**
 * The operator's view of the host connector's terminal claims (docs/decisions.md, "Trust
 * boundaries left over"), straight in its schema: `claims list` prints the matching claims as JSON,
 * `claims release` deletes them (at least one filter) and prints those deleted. A connector keeps
 * what it saw for up to 30 s, so a released terminal is free everywhere within that time.
 */
export async function runClaimCommand(command: 'claims list' | 'claims release', args: ParsedArgs): Promise<string> {
  const filter = filterOf(args);
  if (command === 'claims release' && Object.keys(filter).length === 0) {
    throw new UsageError('claims release needs at least one filter (--group-id, --format, --address, --mid, --tid, --pending, --confirmed)');
  }
  const { config } = await loadAppConfig(cliConfig, (line) => process.stderr.write(`cli ${line}\n`));
  const database = await resolveRuntimeDatabase(config.database, { allowEmbedded: true });
  try {
    const dataSource = await openContextDataSource(database.url, hostConnectorDatabase);
    try {
      const claims = new TerminalClaimRepository(dataSource);
      const rows = command === 'claims list' ? await claims.list(filter) : await claims.releaseMatching(filter);
      return JSON.stringify(command === 'claims list' ? { claims: rows } : { released: rows });
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await database.release();
  }
}
