import { loadAppConfig } from '@app/common';
import { OPERATOR_NOTE_PATTERN } from '@app/contracts';
import { openContextDataSource, resolveRuntimeDatabase } from '@app/database';
import { OutboxWriter } from '@app/messaging';
import { hostConnectorDatabase, ReversalFilter, ReversalRepository } from '../../host-connector/src';
import { ParsedArgs, requiredOption, stringOption, UsageError } from './args';
import { cliConfig } from './config/cli.config';

const STATUSES = ['PENDING', 'ACKNOWLEDGED', 'ABANDONED'] as const;
const ENDS = { acknowledged: 'ACKNOWLEDGED', abandoned: 'ABANDONED' } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function filterOf(args: ParsedArgs): ReversalFilter {
  const status = stringOption(args, 'status')?.toUpperCase();
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
  const id = stringOption(args, 'id')?.toLowerCase();
  if (id !== undefined && !UUID.test(id)) throw new UsageError('--id must be a reversal id (a UUID, as `reversals list` prints it)');
  const filter: ReversalFilter = {
    id,
    requestId: stringOption(args, 'request-id'),
    format: stringOption(args, 'format'),
    tid: stringOption(args, 'tid'),
    status: status as ReversalFilter['status'],
  };
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as ReversalFilter;
}

/** `reversals end`'s arguments, checked before anything is opened. */
function endOf(args: ParsedArgs): { id: string; as: 'ACKNOWLEDGED' | 'ABANDONED'; note: string } {
  const id = requiredOption(args, 'id').toLowerCase();
  if (!UUID.test(id)) throw new UsageError('--id must be a reversal id (a UUID, as `reversals list` prints it)');
  const as = requiredOption(args, 'as');
  if (!Object.prototype.hasOwnProperty.call(ENDS, as)) throw new UsageError('--as must be acknowledged (the acquirer says the host did it) or abandoned (the acquirer says it is not needed)');
  const note = requiredOption(args, 'note').trim();
  if (!OPERATOR_NOTE_PATTERN.test(note))
    throw new UsageError('--note must be 1 to 200 characters without control, format or separator characters: what the acquirer said, and who asked');
  return { id, as: ENDS[as as keyof typeof ENDS], note };
}

/**
 * The operator's view of the host connector's reversal queue (docs/decisions.md, "An operator
 * ends a reversal the host keeps refusing"), straight in its schema: `reversals list` prints the
 * matching reversals as JSON, newest first; `reversals end` ends one still PENDING as
 * acknowledged or abandoned, with a note. The running connector publishes the change (its outbox
 * relay polls), and the gateway shows it on the action.
 */
export async function runReversalCommand(command: 'reversals list' | 'reversals end', args: ParsedArgs): Promise<string> {
  const filter = command === 'reversals list' ? filterOf(args) : undefined;
  const end = command === 'reversals end' ? endOf(args) : undefined;
  const { config } = await loadAppConfig(cliConfig, (line) => process.stderr.write(`cli ${line}\n`));
  const database = await resolveRuntimeDatabase(config.database, { allowEmbedded: true });
  try {
    const dataSource = await openContextDataSource(database.url, hostConnectorDatabase);
    try {
      const reversals = new ReversalRepository(dataSource, new OutboxWriter());
      if (filter) return JSON.stringify({ reversals: await reversals.listForOperator(filter) });
      const outcome = await reversals.endByOperator(end!.id, end!.as, end!.note);
      switch (outcome.kind) {
        case 'unknown':
          throw new Error(`no reversal ${end!.id}`);
        case 'ended-already':
          throw new Error(`reversal ${end!.id} is ${outcome.status} already`);
        case 'sending':
          throw new Error(`reversal ${end!.id} is being sent now; try again in a few seconds`);
        case 'ended':
          return JSON.stringify({ ended: (await reversals.listForOperator({ id: end!.id }))[0] });
      }
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await database.release();
  }
}
