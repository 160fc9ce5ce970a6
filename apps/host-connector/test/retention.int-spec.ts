import { TablePruner, TablePrunerLifecycle } from '@app/database';
import { Logger } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { hostConnectorDatabase } from '../src/database';
import { hostConnectorPruneRules } from '../src/host-connector.module';
import { ConnectorHarness, startConnector } from './harness';

/** HOST_RETENTION_DAYS: finished request-log rows and acknowledged reversals go; nothing unfinished does. */
describe('host-connector retention', () => {
  let connector: ConnectorHarness;
  let pruner: TablePruner;

  beforeAll(async () => {
    connector = await startConnector();
    // The app's own pruner passes at start: stopped (after its pass) so that it cannot take the rows this test counts.
    await connector.app.get(TablePrunerLifecycle).onModuleDestroy();
    const dataSource = connector.app.get<DataSource>(getDataSourceToken(hostConnectorDatabase.name));
    pruner = new TablePruner(dataSource, hostConnectorPruneRules(30 * 86_400_000), 60_000, new Logger('test'));
  });

  afterAll(() => connector.close());

  it('should delete finished request-log rows and acknowledged reversals older than the retention, and keep the rest', async () => {
    await connector.query(
      `INSERT INTO host_connector.request_log (operation, request_id, format, tid, started_at, response, pending_reversal) VALUES
        ('authorize', 'old-finished', 'ISO8583', 'T1', now() - interval '31 days', '{"result":"APPROVED"}', NULL),
        ('authorize', 'old-unfinished', 'ISO8583', 'T1', now() - interval '31 days', NULL, '{"requestId":"old-unfinished"}'),
        ('authorize', 'recent-finished', 'ISO8583', 'T1', now() - interval '29 days', '{"result":"APPROVED"}', NULL)`,
    );
    await connector.query(
      `INSERT INTO host_connector.reversal (id, request_id, format, host_url, tid, stan, request, reason, status, next_attempt_at, acknowledged_at) VALUES
        (gen_random_uuid(), 'old-acknowledged', 'ISO8583', 'tcp://h:1', 'T1', '000001', '{}', 'r', 'ACKNOWLEDGED', now(), now() - interval '31 days'),
        (gen_random_uuid(), 'old-pending', 'ISO8583', 'tcp://h:1', 'T1', '000002', '{}', 'r', 'PENDING', now() - interval '31 days', NULL)`,
    );

    // A terminal's release is kept a day, whatever the retention: it need outlive only the requests in flight when it ran.
    await connector.query(
      `INSERT INTO host_connector.terminal_release (group_id, format, address, mid, tid, released_at) VALUES
        ('grp_old', 'ISO8583', '', 'M1', 'T1', now() - interval '25 hours'),
        ('grp_recent', 'ISO8583', '', 'M1', 'T1', now() - interval '23 hours')`,
    );

    const deleted = await pruner.pruneOnce();

    expect(deleted).toEqual({ request_log: 1, reversal: 1, kept_card: 0, terminal_release: 1 });
    expect(await connector.query(`SELECT group_id FROM host_connector.terminal_release`)).toEqual([{ group_id: 'grp_recent' }]);
    const requests = await connector.query<{ request_id: string }>(`SELECT request_id FROM host_connector.request_log ORDER BY request_id`);
    expect(requests.map((row) => row.request_id)).toEqual(['old-unfinished', 'recent-finished']);
    const reversals = await connector.query<{ request_id: string }>(`SELECT request_id FROM host_connector.reversal`);
    expect(reversals.map((row) => row.request_id)).toEqual(['old-pending']);
  });
});
