import { openContextDataSource } from '@app/database';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { transactionsDatabase } from '../database';
import { GatewayBatches1763900012000 } from './1763900012000-gateway-batches';

/**
 * What `GatewayBatches1763900012000` does to the rows written before it: batches of one terminal
 * batch merged (the settled one stays), each action's booked batch filled, orders that ended in no
 * batch without a settle state, and settled batches' differences over what the host reports.
 */
describe('migration GatewayBatches1763900012000', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  // The migrations listed before it: the schema as it stood.
  const migrations = transactionsDatabase.migrations as Array<new () => unknown>;
  const before = migrations.slice(0, migrations.indexOf(GatewayBatches1763900012000));

  beforeAll(async () => {
    db = await createTestDatabase();
    const old = await openContextDataSource(db.url, { ...transactionsDatabase, migrations: before });
    const order = (tranId: string, acceptanceId: string, tranType: string, tranStatus: string, state: number, batchNo: string | null) =>
      old.query(
        `INSERT INTO orders (tran_id, group_id, version, tran_type, tran_status, state, settle_state, currency, amount_minor, captured_minor, refunded_minor, refund_count,
           payment_method, entry_mode, account_masked, cvm_performed, aid, tc, tvr, atc, profile_id, acceptance_id, sdk_id, trace, merchant_name, primary_mid, primary_tid,
           host_message_format, batch_no, created_at)
         VALUES ($1, 'grp', 1, $2, $3, $4, 0, 'MYR', 1000, 1000, 0, 0, 'VISA', 'NFC', '476173******0119', 'NO_CVM', 'A0000000031010', 'TC', 'TVR', 'ATC', 'prof', $5, 'dev',
           '000001', 'Kopi', 'MID1', 'TID1', 'ISO8583', $6, now())`,
        [tranId, tranType, tranStatus, state, acceptanceId, batchNo],
      );
    const act = (actionId: string, tranId: string, position: number, actionType: string, actionStatus: string) =>
      old.query(
        `INSERT INTO order_action (action_id, tran_id, position, action_type, action_status, trace, amount_minor, currency, reason, created_at)
         VALUES ($1, $2, $3, $4, $5, '000001', 500, 'MYR', 'HostSuccess', now())`,
        [actionId, tranId, position, actionType, actionStatus],
      );
    const batch = (batchId: string, acceptanceId: string, settled: boolean) =>
      old.query(
        `INSERT INTO settlement_batch (uuid, batch_id, group_id, merchant_name, acceptance_id, primary_mid, primary_tid, currency, batch_no, host_message_format, state,
           totals, difference)
         VALUES ($1, $2, 'grp', 'Kopi', $3, 'MID1', 'TID1', 'MYR', '000001', 'ISO8583', $4, $5, $6)`,
        [
          randomUUID(),
          batchId,
          acceptanceId,
          settled ? 1 : 0,
          settled ? { paymentCount: 1, paymentMinor: '1000', refundCount: 0, refundMinor: '0', voidCount: 1, voidMinor: '700' } : null,
          settled ? { paymentCount: 0, paymentMinor: '0', refundCount: 0, refundMinor: '0', voidCount: 1, voidMinor: '700' } : null,
        ],
      );
    await order('tran_a', 'acpt_a', 'SALE', 'APPROVED', 2, '000001');
    await order('tran_b', 'acpt_b', 'AUTH', 'APPROVED', 2, '000001');
    await order('tran_declined', 'acpt_a', 'SALE', 'DECLINED', 3, null);
    await act('act_a_new', 'tran_a', 0, 'NEW', 'SUCCESS');
    await act('act_a_refund', 'tran_a', 1, 'REFUND', 'SUCCESS');
    await act('act_a_refund_failed', 'tran_a', 2, 'REFUND', 'FAILED');
    await act('act_b_new', 'tran_b', 0, 'NEW', 'SUCCESS');
    await act('act_b_capture', 'tran_b', 1, 'CAPTURE', 'SUCCESS');
    await act('act_declined', 'tran_declined', 0, 'NEW', 'FAILED');
    await batch('B100000000000001', 'acpt_a', false);
    await batch('B200000000000002', 'acpt_b', true);
    await old.destroy();
    dataSource = await openContextDataSource(db.url, transactionsDatabase);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('should merge the batches of one terminal batch into the one that settled, its difference over payments and refunds only', async () => {
    expect(await dataSource.query(`SELECT batch_id, state, difference FROM settlement_batch`)).toEqual([
      { batch_id: 'B200000000000002', state: 1, difference: { paymentCount: 0, paymentMinor: '0', refundCount: 0, refundMinor: '0', voidCount: 0, voidMinor: '0' } },
    ]);
  });

  it("should fill each action's booked batch from its transaction for what books money, and nothing for the rest", async () => {
    expect(await dataSource.query(`SELECT action_id, batch_no FROM order_action ORDER BY action_id`)).toEqual([
      { action_id: 'act_a_new', batch_no: '000001' },
      { action_id: 'act_a_refund', batch_no: '000001' },
      { action_id: 'act_a_refund_failed', batch_no: null },
      { action_id: 'act_b_capture', batch_no: '000001' },
      { action_id: 'act_b_new', batch_no: null },
      { action_id: 'act_declined', batch_no: null },
    ]);
  });

  it('should leave an order that ended in no batch without a settle state', async () => {
    expect(await dataSource.query(`SELECT tran_id, settle_state FROM orders ORDER BY tran_id`)).toEqual([
      { tran_id: 'tran_a', settle_state: 0 },
      { tran_id: 'tran_b', settle_state: 0 },
      { tran_id: 'tran_declined', settle_state: null },
    ]);
  });
});
