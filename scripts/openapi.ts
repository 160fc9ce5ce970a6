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
import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
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

type Json = { [key: string]: unknown };

/**
 * What a generated client could not rely on, which the linter does not catch: a property typed
 * plain `object` (a nullable field whose TypeScript type Nest cannot reflect), and an operation
 * whose success answer has no body schema. Either fails generation and the check.
 */
function defectsOf(document: OpenAPIObject): string[] {
  const defects: string[] = [];
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${where}/${i}`));
    if (node === null || typeof node !== 'object') return;
    const schema = node as Json;
    if (schema.type === 'object' && !schema.properties && !schema.additionalProperties && !schema.allOf && !schema.oneOf) {
      defects.push(`${where}: typed object without properties (give the decorator a type)`);
    }
    for (const [key, value] of Object.entries(schema)) walk(value, `${where}/${key}`);
  };
  walk(document.components?.schemas, '#/components/schemas');
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, OperationObject>)) {
      const successes = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
      if (!successes.some(([status, response]) => status === '204' || (response !== undefined && 'content' in response && response.content))) {
        defects.push(`${method.toUpperCase()} ${path}: no success response schema (ApiEnvelope / ApiOkResponse)`);
      }
    }
  }
  return defects;
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  let stale = false;
  mkdirSync(OUTPUT_DIR, { recursive: true });
  for (const document of DOCUMENTS) {
    const text = await withScratchDatabase(async (db) => {
      const app = await createPlatformApp(document.module(db.url), { logger: false });
      try {
        await app.init();
        const built = buildOpenApiDocument(app, document.title, document.description);
        const defects = defectsOf(built);
        if (defects.length > 0) throw new Error(`docs/openapi/${document.file}:\n  ${defects.join('\n  ')}`);
        return `${JSON.stringify(built, null, 2)}\n`;
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
