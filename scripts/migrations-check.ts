/**
 * Prints the SQL that would bring a database migrated to the latest migration in line with the
 * entities (what `synchronize` would do), per context. Empty means they agree. With --check the
 * process fails when any context drifts (CI). To write a new migration, run without --check and
 * copy the statements into a migration class.
 */
import { openContextDataSource, pendingSchemaChanges } from '@app/database';
import { hostConnectorDatabase } from '../apps/host-connector/src';
import { merchantManagementDatabase } from '../apps/merchant-management/src';
import { paymentGatewayDatabase } from '../apps/payment-gateway/src';
import { transactionsDatabase } from '../apps/transactions/src';
import { withScratchDatabase } from './with-database';

const CONTEXTS = [merchantManagementDatabase, paymentGatewayDatabase, hostConnectorDatabase, transactionsDatabase];

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  let drift = false;
  // One scratch database for every context (each migrates its own schema): withScratchDatabase
  // starts and stops an embedded server per call, which a second call could not reach.
  const pending = await withScratchDatabase(async (db) => {
    const result: string[][] = [];
    for (const context of CONTEXTS) {
      const dataSource = await openContextDataSource(db.url, context);
      try {
        result.push(await pendingSchemaChanges(dataSource));
      } finally {
        await dataSource.destroy();
      }
    }
    return result;
  });
  CONTEXTS.forEach((context, index) => {
    const queries = pending[index];
    if (queries.length === 0) {
      console.log(`-- ${context.name} (${context.schema}): entities and migrations agree`);
      return;
    }
    drift = true;
    console.log(`-- ${context.name} (${context.schema}): entities and migrations differ`);
    for (const query of queries) console.log(`${query};`);
  });
  if (check && drift) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
