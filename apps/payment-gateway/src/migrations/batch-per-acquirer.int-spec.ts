import { openContextDataSource } from '@app/database';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { paymentGatewayDatabase } from '../database';
import { PaymentTransactionEntity } from '../transaction/persistence/transaction.entity';
import { rowJson } from '../transaction/persistence/row-sql';
import { testTransaction } from '../transaction/testing/test-transactions';
import { BatchPerAcquirer1795830000000 } from './1795830000000-batch-per-acquirer';

/**
 * What `BatchPerAcquirer1795830000000` does to a terminal whose one batch held two acquirers'
 * transactions (review r14p H1): each transaction keeps its acquirer, each acquirer of the
 * terminal gets its own batch at the number that was open (no closed number opens again), and a
 * closed batch is its newest transaction's acquirer's.
 */
describe('migration BatchPerAcquirer1795830000000', () => {
  let db: TestDatabase;
  let current: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('batchacq');
    const migrations = paymentGatewayDatabase.migrations as unknown[];
    const old = await openContextDataSource(db.url, { ...paymentGatewayDatabase, migrations: migrations.slice(0, migrations.indexOf(BatchPerAcquirer1795830000000)) as never });
    try {
      const acceptance = (id: string, name: string, ref: string | null) =>
        old.query(
          `INSERT INTO acceptance (id, group_id, acpt_name, host_message_format, supported_payments, primary_mid, primary_tid, acquirer_ref) VALUES ($1, 'grp', $2, 'ISO8583', '{VISA}', 'MID1', 'TID1', $3)`,
          [id, name, ref],
        );
      // A transaction as the schema before stored it (no acquirer).
      const transaction = async (id: string, acceptanceId: string, acceptanceName: string, batchNo: string, createdAt: string, settleState: 'OPEN' | 'SETTLED' = 'OPEN') => {
        const fields = { id, acceptanceId, acceptanceName, batchNo, settleState, primaryMid: 'MID1', primaryTid: 'TID1', createdAt: new Date(createdAt) };
        const row = rowJson(old.manager, PaymentTransactionEntity, testTransaction(fields));
        const { acquirer_key: _, ...columnsBefore } = JSON.parse(row.json) as Record<string, unknown>;
        const columns = Object.keys(columnsBefore).map((name) => `"${name}"`).join(', ');
        await old.query(`INSERT INTO payment_transaction (${columns}) SELECT ${columns} FROM jsonb_populate_record(NULL::payment_transaction, $1::jsonb)`, [JSON.stringify(columnsBefore)]);
      };
      await acceptance('acpt_x', 'Acquirer X', '7');
      await acceptance('acpt_y', 'Acquirer Y', null);
      // Batch 000002 settled (X's, and a sale of an acceptance since deleted, the newest); batch 000003 open with X's and Y's sales, Y's the newest.
      await transaction('tran_x_closed', 'acpt_x', 'Acquirer X', '000002', '2026-11-01T10:00:00Z', 'SETTLED');
      await transaction('tran_gone', 'acpt_gone', 'Old acquirer', '000002', '2026-11-01T11:00:00Z', 'SETTLED');
      await transaction('tran_x_open', 'acpt_x', 'Acquirer X', '000003', '2026-11-02T10:00:00Z');
      await transaction('tran_y_open', 'acpt_y', 'Acquirer Y', '000003', '2026-11-02T11:00:00Z');
      await old.query(
        `INSERT INTO terminal_batch (group_id, host_message_format, mid, tid, currency, batch_no, settle_hold_id, settle_hold_until) VALUES ('grp', 'MOCK', 'MID1', 'TID1', 'MYR', '000003', 'hold_1', '2026-11-02T12:00:00Z')`,
      );
      await old.query(
        `INSERT INTO batch_settlement (id, group_id, host_message_format, mid, tid, currency, batch_no, acceptance_id, state, request_id, attempts, host_request, totals, host_resp_message)
         VALUES ('stl_1', 'grp', 'MOCK', 'MID1', 'TID1', 'MYR', '000002', 'acpt_x', 'SETTLED', 'r', 1, '{}', '{}', 'ok')`,
      );
    } finally {
      await old.destroy();
    }
    current = await openContextDataSource(db.url, paymentGatewayDatabase);
  });

  afterAll(async () => {
    await current?.destroy();
    await db?.drop();
  });

  it("should give each transaction its acceptance's acquirer profile, else its name, else the name it was made under; a closed batch's all its newest's", async () => {
    expect(await current.query(`SELECT id, acquirer_key FROM payment_transaction ORDER BY id`)).toEqual([
      { id: 'tran_gone', acquirer_key: 'name:Old acquirer' },
      { id: 'tran_x_closed', acquirer_key: 'name:Old acquirer' },
      { id: 'tran_x_open', acquirer_key: 'ref:7' },
      { id: 'tran_y_open', acquirer_key: 'name:Acquirer Y' },
    ]);
  });

  it("should give every acquirer of the terminal its own batch: the newest's at the number that was open, with the hold, the others' at the next numbers", async () => {
    expect(await current.query(`SELECT acquirer_key, batch_no, settle_hold_id FROM terminal_batch ORDER BY acquirer_key`)).toEqual([
      { acquirer_key: 'name:Acquirer Y', batch_no: '000003', settle_hold_id: 'hold_1' },
      { acquirer_key: 'name:Old acquirer', batch_no: '000004', settle_hold_id: null },
      { acquirer_key: 'ref:7', batch_no: '000005', settle_hold_id: null },
    ]);
    // The open batch's transactions follow their acquirer's number; the closed batch's keep theirs.
    expect(await current.query(`SELECT id, batch_no FROM payment_transaction ORDER BY id`)).toEqual([
      { id: 'tran_gone', batch_no: '000002' },
      { id: 'tran_x_closed', batch_no: '000002' },
      { id: 'tran_x_open', batch_no: '000005' },
      { id: 'tran_y_open', batch_no: '000003' },
    ]);
  });

  it("should give a closed batch its newest transaction's acquirer", async () => {
    expect(await current.query(`SELECT id, acquirer_key FROM batch_settlement`)).toEqual([{ id: 'stl_1', acquirer_key: 'name:Old acquirer' }]);
  });

  it('should mark the transactions of batches not settled to be announced once more, naming their acquirer', async () => {
    expect(await current.query(`SELECT tran_id FROM transaction_republish ORDER BY tran_id`)).toEqual([{ tran_id: 'tran_x_open' }, { tran_id: 'tran_y_open' }]);
  });
});
