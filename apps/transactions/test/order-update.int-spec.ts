import { DomainError, ErrorCode, pageRequest } from '@app/common';
import { queryDatabase, randomIntBetween } from '@app/testing';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { OrderUpdateService } from '../src/order-update/order-update.service';
import { OrderRepository } from '../src/order/persistence/order.repository';
import { approvedSale, updated, versionsOf } from './factories';
import { startTransactions, TransactionsTestApp } from './support';

/**
 * The read model's write rule on the PostgreSQL server: a transaction's versions, applied in any
 * order, repeated and concurrently, leave the order at the highest; a message is processed once.
 */

describe('applying transaction versions to orders', () => {
  let app: TransactionsTestApp;
  let updates: OrderUpdateService;
  let orders: OrderRepository;
  const groupId = 'grp_orderupdate';

  beforeAll(async () => {
    app = await startTransactions();
    updates = app.app.get(OrderUpdateService);
    orders = app.app.get(OrderRepository);
  });

  afterAll(() => app.close());

  const refundsOf = async (tranId: string) => (await orders.actionsOf(tranId)).filter((a) => a.actionType === 'REFUND').length;

  it('should end at the highest version, for any order and repetition of versions, counting as applied only those above every earlier one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 8 })
          .chain((count) => fc.tuple(fc.constant(count), fc.array(fc.integer({ min: 1, max: count }), { minLength: 1, maxLength: 20 }))),
        async ([count, sequence]) => {
          const versions = versionsOf(approvedSale({ minor: 100_000 }), count);
          const outcomes: string[] = [];
          for (const version of sequence) outcomes.push(await updates.apply(updated(versions[version - 1], version, groupId)));

          const highest = Math.max(...sequence);
          const stored = await orders.findById(versions[0].tranId);
          expect({ version: stored?.version, refunded: stored?.refundedMinor, refunds: await refundsOf(versions[0].tranId) }).toEqual({
            version: highest,
            refunded: String((highest - 1) * 100),
            refunds: highest - 1,
          });
          const records = sequence.filter((version, index) => sequence.slice(0, index).every((earlier) => earlier < version)).length;
          expect(outcomes.filter((outcome) => outcome === 'applied')).toHaveLength(records);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('should end at the highest version when every version is applied at once', async () => {
    const versions = versionsOf(approvedSale({ minor: 100_000 }), 10);
    const shuffled = versions.map((transaction, index) => ({ transaction, version: index + 1, key: randomIntBetween(0, 1000) })).sort((a, b) => a.key - b.key);

    await Promise.all(shuffled.map((entry) => updates.apply(updated(entry.transaction, entry.version, groupId))));

    expect((await orders.findById(versions[0].tranId))?.version).toBe(10);
    expect(await refundsOf(versions[0].tranId)).toBe(9);
  });

  it('should process a message once: its repeat changes nothing and says so', async () => {
    const sale = approvedSale();
    const receipt = { consumer: 'transactions-orders', messageId: randomUUID(), subject: 'gateway.transaction.updated.v1' };

    expect(await updates.apply(updated(sale, 1, groupId), receipt)).toBe('applied');
    expect(await updates.apply(updated({ ...sale, tranStatus: 'VOIDED' }, 2, groupId), receipt)).toBe('duplicate');

    expect((await orders.findById(sale.tranId))?.tranStatus).toBe('APPROVED');
  });

  it("should refuse a version naming another PBO's transaction, changing nothing", async () => {
    const sale = approvedSale();
    await updates.apply(updated(sale, 1, groupId));

    const refusal = await updates.apply(updated({ ...sale, tranStatus: 'VOIDED' }, 2, 'grp_intruder')).catch((error: unknown) => error);

    expect(refusal).toEqual(new DomainError(ErrorCode.OwnerInvalid, `transaction ${sale.tranId} belongs to group ${groupId}, not grp_intruder`));
    expect(await orders.findById(sale.tranId)).toMatchObject({ groupId, version: 1, tranStatus: 'APPROVED' });
  });

  it('should refuse amounts the currency cannot have, writing nothing', async () => {
    const sale = approvedSale({ currency: 'JPY', minor: 1000 });
    const bad = { ...sale, capturedAmount: '10.5' };

    const refusal = await updates.apply(updated(bad, 1, groupId)).catch((error: unknown) => error);

    expect(refusal).toEqual(DomainError.validation('capturedAmount 10.5 has more decimals than its currency'));
    expect(await orders.findById(sale.tranId)).toBeNull();
    expect(
      await queryDatabase(app.database.url, 'SELECT count(*)::int AS n FROM transactions.settlement_batch WHERE primary_tid = $1', [sale.primaryTid]),
    ).toEqual([{ n: 0 }]);
  });

  it('should stream every order of a list from one snapshot, newest first, ties broken by tranId, whatever the chunk size', async () => {
    const streamGroup = 'grp_stream';
    const base = Date.UTC(2026, 2, 1);
    // Several orders share an instant: the keyset must not lose or repeat any at a chunk's edge.
    for (let i = 0; i < 37; i++) await updates.apply(updated(approvedSale({ createdAt: new Date(base + Math.floor(i / 4) * 1000) }), 1, streamGroup));
    const [expected] = await orders.list(streamGroup, {}, pageRequest(1, -1));

    for (const chunkSize of [1, 4, 5, 36, 37, 500]) {
      const rows = await orders.streamAll(streamGroup, {}, chunkSize);
      const streamed: string[] = [];
      for await (const chunk of rows.chunks) streamed.push(...chunk.map((order) => order.tranId));

      expect({ chunkSize, total: rows.total, streamed }).toEqual({ chunkSize, total: 37, streamed: expected.map((order) => order.tranId) });
    }
  });
});
