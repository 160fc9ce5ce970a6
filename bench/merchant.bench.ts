/**
 * bench:merchant — GET /api/openapi/v1/mchInfo/{mchId} and the merchant list of
 * merchant-management against a bare Fastify + pg handler doing the same indexed SELECT, in the
 * same run on the same database (10,000 merchants across several PBOs). Prints both and the
 * ratio, and rewrites the merchant section of docs/benchmarks.md.
 *   npm run bench:merchant [-- --duration 10 --connections 20] (BENCH_SMOKE=1: 200 merchants, 1 s, 2 connections, no warm-up; bench/options.ts)
 */
import { signPboToken } from '@app/common';
import { openContextDataSource } from '@app/database';
import autocannon from 'autocannon';
import { ChildServer, startChildServer } from '@app/testing/child-server';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { merchantManagementDatabase } from '../apps/merchant-management/src';
import { withScratchDatabase } from '../scripts/with-database';
import { BENCH_AUTH } from './bench-auth';
import { option, SMOKE } from './options';
import { writeBenchmarkSection } from './report';

const PBOS = 5;
const MERCHANTS = SMOKE ? 200 : 10_000;
/** Seconds each server is warmed (JIT, connection pools, PostgreSQL caches) before a figure; none in smoke mode. */
const WARM_UP_S = SMOKE ? 0 : 2;

async function seed(url: string): Promise<{ groupIds: string[]; mchIdsByGroup: Map<string, string[]> }> {
  const dataSource = await openContextDataSource(url, merchantManagementDatabase);
  try {
    const groupIds = Array.from({ length: PBOS }, (_, i) => `bench-pbo-${i + 1}`);
    for (const groupId of groupIds) {
      await dataSource.query(`INSERT INTO pbo (group_id, group_name, time_zone) VALUES ($1, $1, 'Asia/Kuala_Lumpur')`, [groupId]);
      await dataSource.query(
        `INSERT INTO emv_config (group_id, emv_name, payment_method, currency, params, aid) VALUES ($1, 'visa', '01', 'MYR', '{"aid":"A0000000031010"}', 'A0000000031010')`,
        [groupId],
      );
      await dataSource.query(
        `INSERT INTO acquirer_profile (group_id, profile_name, currency, acq_type, conn_message_format, method_list, as_default)
         VALUES ($1, 'acquirer', 'MYR', 'card', 'SVC_ENABLER', '{"01":[]}', true)`,
        [groupId],
      );
      await dataSource.query(
        `INSERT INTO acquirer_profile_emv (profile_id, payment_method, emv_id, position)
         SELECT a.id, '01', e.id, 0 FROM acquirer_profile a JOIN emv_config e ON e.group_id = a.group_id WHERE a.group_id = $1`,
        [groupId],
      );
    }
    // 10,000 merchants spread over the PBOs, each bound to its PBO's acquirer (VISA, one EMV config).
    await dataSource.query(
      `INSERT INTO merchant (uuid, mch_id, group_id, mch_name, time_zone, contact_name, contact_email, currency, mcc, country)
       SELECT gen_random_uuid(), (100000000000000 + n)::text, 'bench-pbo-' || (1 + n % $1), 'Merchant ' || n, 'Asia/Kuala_Lumpur', 'Contact', 'c@example.com', 'MYR', '5812', 'MY'
         FROM generate_series(1, $2) AS n`,
      [PBOS, MERCHANTS],
    );
    await dataSource.query(
      `INSERT INTO payment_binding (merchant_uuid, group_id, acquirer_profile_id, currency)
       SELECT m.uuid, m.group_id, a.id, 'MYR' FROM merchant m JOIN acquirer_profile a ON a.group_id = m.group_id`,
    );
    await dataSource.query(
      `INSERT INTO payment_method_binding (binding_id, merchant_uuid, currency, payment_method_code) SELECT id, merchant_uuid, 'MYR', '01' FROM payment_binding`,
    );
    await dataSource.query(
      `INSERT INTO payment_method_emv (method_id, emv_id, position)
       SELECT m.id, e.id, 0 FROM payment_method_binding m JOIN payment_binding b ON b.id = m.binding_id JOIN emv_config e ON e.group_id = b.group_id`,
    );
    await dataSource.query('ANALYZE');
    const rows: { group_id: string; mch_id: string }[] = await dataSource.query('SELECT group_id, mch_id FROM merchant');
    const mchIdsByGroup = new Map<string, string[]>(groupIds.map((g) => [g, []]));
    for (const row of rows) mchIdsByGroup.get(row.group_id)!.push(row.mch_id);
    return { groupIds, mchIdsByGroup };
  } finally {
    await dataSource.destroy();
  }
}

function startServer(mode: 'app' | 'bare', url: string): Promise<ChildServer> {
  return startChildServer(join(__dirname, 'merchant-server.ts'), [mode, url], mode);
}

interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(port: number, paths: () => string, headers: Record<string, string>, duration: number, connections: number): Promise<Measured> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration,
    headers,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths() }) }],
  });
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function main(): Promise<void> {
  const duration = option('duration', 10, 1);
  const connections = option('connections', 20, 2);
  const results = await withScratchDatabase(async (db) => {
    console.log(`seeding ${MERCHANTS} merchants over ${PBOS} PBOs…`);
    const { groupIds, mchIdsByGroup } = await seed(db.url);
    const groupId = groupIds[0];
    const mchIds = mchIdsByGroup.get(groupId)!;
    const token = await signPboToken(BENCH_AUTH, groupId, 3600);
    const headers = { authorization: `Bearer ${token}` };
    let i = 0;
    const onePath = () => `/api/openapi/v1/mchInfo/${mchIds[i++ % mchIds.length]}`;
    const rows: { scenario: string; app: Measured; bare: Measured }[] = [];
    const servers = { app: await startServer('app', db.url), bare: await startServer('bare', db.url) };
    try {
      for (const [scenario, appPath, barePath] of [
        ['GET /mchInfo/{mchId}', onePath, onePath],
        ['GET /mchInfo (page of 20)', () => '/api/openapi/v1/mchInfo?pageNumber=1&pageSize=20', () => `/api/openapi/v1/mchInfo?groupId=${groupId}`],
      ] as const) {
        if (WARM_UP_S > 0) {
          await measure(servers.app.port, appPath, headers, WARM_UP_S, connections);
          await measure(servers.bare.port, barePath, headers, WARM_UP_S, connections);
        }
        const app = await measure(servers.app.port, appPath, headers, duration, connections);
        const bare = await measure(servers.bare.port, barePath, headers, duration, connections);
        rows.push({ scenario, app, bare });
        console.log(
          `${scenario}: app ${app.requestsPerSecond.toFixed(0)} req/s, bare ${bare.requestsPerSecond.toFixed(0)} req/s, ratio ${(app.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}`,
        );
      }
    } finally {
      servers.app.child.kill();
      servers.bare.child.kill();
    }
    return rows;
  });
  writeReport(results, duration, connections);
  const failed = results.filter((r) => r.app.errors > 0 || r.bare.errors > 0 || r.app.requestsPerSecond === 0 || r.bare.requestsPerSecond === 0);
  if (failed.length > 0) {
    console.error('requests failed (or none were answered) during the benchmark: the figures are not valid');
    process.exit(1);
  }
}

function writeReport(rows: { scenario: string; app: Measured; bare: Measured }[], duration: number, connections: number): void {
  writeBenchmarkSection(
    'merchant',
    [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; autocannon, ${connections} connections, ${duration} s per figure after a ${WARM_UP_S} s warm-up; ${MERCHANTS} merchants over ${PBOS} PBOs, each bound to one acquirer profile.`,
      '',
      '| scenario | merchant-management req/s | p50 / p99 ms | bare Fastify + pg req/s | p50 / p99 ms | ratio (target ≥ 0.50) |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.scenario} | ${r.app.requestsPerSecond.toFixed(0)} | ${r.app.p50} / ${r.app.p99} | ${r.bare.requestsPerSecond.toFixed(0)} | ${r.bare.p50} / ${r.bare.p99} | ${(r.app.requestsPerSecond / r.bare.requestsPerSecond).toFixed(2)} |`,
      ),
    ],
    "merchant-management's merchant reads against a bare Fastify + pg handler doing the same indexed SELECT (the baseline: no Nest, no validation, no token check, no payment-config summary). Run `npm run bench:merchant`.",
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
