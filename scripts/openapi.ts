/**
 * Writes the OpenAPI document of each HTTP context to docs/openapi/<context>.json; with --check
 * fails when a committed document differs from what the code describes (CI).
 */
import { AuthConfig, buildOpenApiDocument, developmentFieldCipher } from '@app/common';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MerchantManagementAppModule } from '../apps/merchant-management/src';
import { PaymentGatewayAppModule } from '../apps/payment-gateway/src';
import { TransactionsAppModule } from '../apps/transactions/src';
import { createPlatformApp, PlatformOptions } from '@app/runtime';
import { withScratchDatabase } from './with-database';

/** The document does not depend on the secret; any will do to build the app. */
const PLACEHOLDER_AUTH: AuthConfig = { secret: 'openapi-generation-only-secret-not-used-for-anything', deviceSecret: 'openapi-generation-only-device-secret-unused' };

const OUTPUT_DIR = join(__dirname, '..', 'docs', 'openapi');

function options(databaseUrl: string): PlatformOptions {
  return { databaseUrl, auth: PLACEHOLDER_AUTH, cipher: developmentFieldCipher(), mail: { transport: 'file', directory: tmpdir() }, messaging: { transport: 'in-process' } };
}

const DOCUMENTS = [
  {
    file: 'merchant-management.json',
    title: 'merchant-management',
    description: 'Merchant management: /api/openapi/v1 (current), /api/v2 (owner lookup and legacy) and the device app API /api/sdk/v1',
    module: (databaseUrl: string) => MerchantManagementAppModule.register(options(databaseUrl)),
  },
  {
    file: 'payment-gateway.json',
    title: 'payment-gateway',
    description: 'Payment gateway: /{customerNamespace}/api/v1 profiles and acceptances, transactions (sales from the SDK under the device token); errors are RFC 9457 problem details',
    module: (databaseUrl: string) => PaymentGatewayAppModule.register(options(databaseUrl)),
  },
  {
    file: 'transactions.json',
    title: 'transactions',
    description: 'Transactions: orders and settlement under /api/v2/order and /api/v2/settlement',
    module: (databaseUrl: string) => TransactionsAppModule.register(options(databaseUrl)),
  },
];

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  let stale = false;
  mkdirSync(OUTPUT_DIR, { recursive: true });
  for (const document of DOCUMENTS) {
    const text = await withScratchDatabase(async (db) => {
      const app = await createPlatformApp(document.module(db.url), { logger: false });
      try {
        await app.init();
        return `${JSON.stringify(buildOpenApiDocument(app, document.title, document.description), null, 2)}\n`;
      } finally {
        await app.close();
      }
    });
    const path = join(OUTPUT_DIR, document.file);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (check) {
      if (current !== text) {
        stale = true;
        console.error(`docs/openapi/${document.file} is stale: run npm run openapi and commit it`);
      } else {
        console.log(`docs/openapi/${document.file} is current`);
      }
    } else {
      writeFileSync(path, text);
      console.log(`wrote docs/openapi/${document.file}`);
    }
  }
  if (stale) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
