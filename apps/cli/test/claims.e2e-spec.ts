import { openContextDataSource } from '@app/database';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { hostConnectorDatabase, TerminalClaimRepository } from '../../host-connector/src';
import { cliDataDir, runCli } from './cli-process';

/**
 * The operator lists and releases the host connector's terminal claims with the CLI
 * (docs/decisions.md, "Trust boundaries left over"), straight in the connector's schema.
 */
describe('cli: claims list / claims release', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const dataDir = cliDataDir();
  const run = (args: string[]) => runCli(dataDir, args, { DATABASE_URL: database.url });

  beforeAll(async () => {
    database = await createTestDatabase('cli_claims');
    dataSource = await openContextDataSource(database.url, hostConnectorDatabase);
    const claims = new TerminalClaimRepository(dataSource);
    const at = (mid: string, tid: string) => [{ format: 'ISO8583', address: '10.8.0.5:7000', mid, tid }];
    // One confirmed (the host answered), one pending (its first request still out or lost), another PBO's.
    const first = await claims.claim('grp_ops_a', at('MIDA', 'T0000001'));
    if (first.state !== 'pending') throw new Error(`a first claim is pending, not ${first.state}`);
    await claims.confirm('grp_ops_a', at('MIDA', 'T0000001'), first.since);
    await claims.claim('grp_ops_a', at('MIDA', 'T0000002'));
    await claims.claim('grp_ops_b', at('MIDB', 'T0000003'));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('should list the claims matching the filters, pending ones with no confirmedAt', async () => {
    const listed = await run(['claims', 'list', '--group-id', 'grp_ops_a']);

    expect(listed.stderr).not.toMatch(/error/i);
    expect(listed.status).toBe(0);
    const { claims } = JSON.parse(listed.stdout) as { claims: Array<Record<string, unknown>> };
    expect(claims).toEqual([
      expect.objectContaining({ format: 'ISO8583', address: '10.8.0.5:7000', mid: 'MIDA', tid: 'T0000001', groupId: 'grp_ops_a', confirmedAt: expect.any(String) as string }),
      expect.objectContaining({ tid: 'T0000002', groupId: 'grp_ops_a', confirmedAt: null }),
    ]);
  });

  it('should refuse a release without a filter, and release exactly the matching claims', async () => {
    const refused = await run(['claims', 'release']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('claims release needs at least one filter');

    const released = await run(['claims', 'release', '--group-id', 'grp_ops_a', '--tid', 'T0000001']);

    expect(released.status).toBe(0);
    expect(JSON.parse(released.stdout)).toEqual({ released: [expect.objectContaining({ tid: 'T0000001', groupId: 'grp_ops_a' })] });
    const left: Array<{ tid: string }> = await dataSource.query('SELECT tid FROM terminal_claim ORDER BY tid');
    expect(left.map((row) => row.tid)).toEqual(['T0000002', 'T0000003']);
  });
});
