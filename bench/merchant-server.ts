/**
 * One server for bench:merchant, in its own process so that autocannon (in the parent) does not
 * share its event loop: `app` is merchant-management as deployed; `bare` is Fastify + pg doing
 * the same indexed SELECTs with no framework, validation or envelope mapping of ours.
 * Prints `READY <port>` when listening.
 */
import { developmentFieldCipher } from '@app/common';
import { createPlatformApp } from '@app/runtime';
import { tmpdir } from 'node:os';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { MerchantManagementAppModule } from '../apps/merchant-management/src';
import { BENCH_AUTH } from './bench-auth';

async function startApp(databaseUrl: string): Promise<number> {
  const app = await createPlatformApp(MerchantManagementAppModule.register({ databaseUrl, auth: BENCH_AUTH, cipher: developmentFieldCipher(), mail: { transport: 'file', directory: tmpdir() }, messaging: { transport: 'in-process' } }), { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return Number(new URL(await app.getUrl()).port);
}

async function startBare(databaseUrl: string): Promise<number> {
  const pool = new Pool({ connectionString: databaseUrl, max: 10, options: '-c search_path=merchant_management' });
  const fastify = Fastify();
  fastify.get<{ Params: { mchId: string } }>('/api/openapi/v1/mchInfo/:mchId', async (request, reply) => {
    const { rows } = await pool.query('SELECT * FROM merchant WHERE mch_id = $1', [request.params.mchId]);
    if (rows.length === 0) return reply.status(404).send({ msg: 'not found', code: 14000 });
    return { msg: 'SUCCESS', code: 0, data: rows[0] };
  });
  fastify.get<{ Querystring: { groupId: string } }>('/api/openapi/v1/mchInfo', async (request) => {
    const groupId = request.query.groupId;
    const [page, count] = await Promise.all([
      pool.query('SELECT * FROM merchant WHERE group_id = $1 ORDER BY created_at DESC, uuid LIMIT 20', [groupId]),
      pool.query('SELECT count(*)::int AS n FROM merchant WHERE group_id = $1', [groupId]),
    ]);
    return { msg: 'SUCCESS', code: 0, data: { total: count.rows[0].n, current: 1, hasNext: count.rows[0].n > 20, records: page.rows } };
  });
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = fastify.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

async function main(): Promise<void> {
  const [mode, databaseUrl] = process.argv.slice(2);
  const port = mode === 'bare' ? await startBare(databaseUrl) : await startApp(databaseUrl);
  process.stdout.write(`READY ${port}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
