import { DomainError } from '@app/common';
import { GATEWAY_TRANSACTION_UPDATED_V1, GatewayTransactionUpdatedV1, GatewayTransactionV1 } from '@app/contracts';
import { InProcessMessage, InProcessTransport } from '@app/messaging';
import { DEAD_LETTER_HEADERS } from '@app/messaging/consumer';
import { queryDatabase } from '@app/testing';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { OrderBatchNotApplicable, OrderUpdateOutcome, OrderUpdateService, ReceivedOrderUpdate } from '../src/order-update/order-update.service';
import { orderUpdatesConsumer } from '../src/order-sync/order-updates.consumer';
import { OrderRepository } from '../src/order/persistence/order.repository';
import { approvedSale, terminal, updated, versionsOf } from './factories';
import { dataOf, startTransactions, TransactionsTestApp } from './support';

/**
 * The order consumer's batches on the PostgreSQL server: what arrived together is applied in one
 * transaction, with the rules of one at a time (highest version wins, a message counts once), and
 * a batch holding one event that cannot be applied loses none of the others.
 */

const CONSUMER = orderUpdatesConsumer.name;

const receiptOf = (messageId: string) => ({ consumer: CONSUMER, messageId, subject: GATEWAY_TRANSACTION_UPDATED_V1 });

describe('applying order events in batches', () => {
  let app: TransactionsTestApp;
  let updates: OrderUpdateService;
  let orders: OrderRepository;
  const groupId = 'grp_orderbatch';

  beforeAll(async () => {
    app = await startTransactions();
    updates = app.app.get(OrderUpdateService);
    orders = app.app.get(OrderRepository);
  });

  afterAll(() => app.close());

  const count = async (sql: string, params: unknown[]) => (await queryDatabase<{ n: number }>(app.database.url, sql, params))[0].n;

  /** What the read model holds of a transaction: its version, refunds, actions and whether its settlement batch exists. */
  const stored = async (tranId: string) => {
    const order = await orders.findById(tranId);
    const actions = await orders.actionsOf(tranId);
    return {
      version: order?.version ?? 0,
      refunded: order?.refundedMinor ?? null,
      refunds: actions.filter((action) => action.actionType === 'REFUND').length,
      actions: actions.length,
    };
  };

  it('should end as one event at a time would: highest version, each message once, stale and repeated ones counted as such', async () => {
    // Transactions with versions 1..count; some versions already applied one at a time; then the
    // other messages (a random subset, some delivered twice under their own id) shuffled into batches.
    const plan = fc
      .array(
        fc.integer({ min: 1, max: 6 }).chain((count) =>
          fc.record({
            count: fc.constant(count),
            applied: fc.integer({ min: 0, max: count }),
            delivered: fc.subarray(
              Array.from({ length: count }, (_, i) => i + 1),
              { minLength: 1 },
            ),
            repeated: fc.subarray(
              Array.from({ length: count }, (_, i) => i + 1),
              { maxLength: Math.min(3, count) },
            ),
          }),
        ),
        { minLength: 1, maxLength: 4 },
      )
      .chain((transactions) => {
        const messages = transactions.flatMap((transaction, tx) => [
          ...transaction.delivered.map((version) => ({ tx, version, copy: 0 })),
          ...transaction.repeated.filter((version) => transaction.delivered.includes(version)).map((version) => ({ tx, version, copy: 1 })),
        ]);
        return fc.tuple(
          fc.constant(transactions),
          fc.shuffledSubarray(messages, { minLength: messages.length, maxLength: messages.length }),
          fc.array(fc.integer({ min: 1, max: 5 }), { minLength: messages.length, maxLength: messages.length }),
        );
      });

    await fc.assert(
      fc.asyncProperty(plan, async ([transactions, messages, sizes]) => {
        const versions = transactions.map((transaction) => versionsOf(approvedSale({ minor: 100_000 }), transaction.count));
        const messageIds = transactions.map((transaction) => Array.from({ length: transaction.count }, () => randomUUID()));
        for (const [tx, transaction] of transactions.entries())
          for (let version = 1; version <= transaction.applied; version++) await updates.apply(updated(versions[tx][version - 1], version, groupId));

        // The model: one at a time, in batch order, the highest fresh version of a batch taken when above the stored one.
        const model = transactions.map((transaction) => transaction.applied);
        const seen = new Set<string>();
        const batches: Array<typeof messages> = [];
        for (let start = 0, b = 0; start < messages.length; start += sizes[b++]) batches.push(messages.slice(start, start + sizes[b]));
        for (const batch of batches) {
          const items: ReceivedOrderUpdate[] = batch.map(({ tx, version }) => ({
            update: updated(versions[tx][version - 1], version, groupId),
            receipt: receiptOf(messageIds[tx][version - 1]),
          }));
          const expected: OrderUpdateOutcome[] = batch.map(() => 'duplicate');
          const newest = new Map<number, number>();
          batch.forEach(({ tx, version }, index) => {
            const id = messageIds[tx][version - 1];
            if (seen.has(id)) return;
            seen.add(id);
            expected[index] = 'stale';
            const best = newest.get(tx);
            if (best === undefined || batch[best].version < version) newest.set(tx, index);
          });
          for (const [tx, index] of newest) {
            if (batch[index].version <= model[tx]) continue;
            model[tx] = batch[index].version;
            expected[index] = 'applied';
          }

          expect(await updates.applyBatch(items)).toEqual(expected);
        }

        for (const [tx, transaction] of transactions.entries()) {
          const highest = Math.max(transaction.applied, ...transaction.delivered);
          expect(await stored(versions[tx][0].tranId)).toEqual({ version: highest, refunded: String((highest - 1) * 100), refunds: highest - 1, actions: highest });
          expect(model[tx]).toBe(highest);
        }
        const ids = messageIds.flat();
        expect(await count('SELECT count(*)::int AS n FROM transactions.inbox WHERE message_id = ANY($1)', [ids])).toBe(seen.size);
      }),
      { numRuns: 30 },
    );
  });

  it('should open one settlement batch per terminal batch its orders name, however many orders of it a batch holds', async () => {
    const shops = [terminal(), terminal()];
    const sales = Array.from({ length: 7 }, (_, i) => approvedSale({ terminal: shops[i % 2], batchNo: i < 5 ? '000001' : '000002' }));

    await updates.applyBatch(sales.map((sale) => ({ update: updated(sale, 1, groupId), receipt: receiptOf(randomUUID()) })));

    const batches = await queryDatabase<{ tid: string; batch_no: string }>(
      app.database.url,
      'SELECT primary_tid AS tid, batch_no FROM transactions.settlement_batch WHERE primary_tid = ANY($1) ORDER BY primary_tid, batch_no',
      [shops.map((shop) => shop.primaryTid)],
    );
    const expected = [
      ...new Set(sales.map((sale) => JSON.stringify({ tid: sale.primaryTid, batch_no: sale.batchNo }))),
    ]
      .map((json) => JSON.parse(json) as { tid: string; batch_no: string })
      .sort((a, b) => (a.tid + a.batch_no).localeCompare(b.tid + b.batch_no));
    expect(batches).toEqual(expected);
  });

  it('should write nothing of a batch holding a version the domain refuses or another PBO names, and say why', async () => {
    const owned = approvedSale();
    await updates.apply(updated(owned, 1, groupId));
    const badAmount: GatewayTransactionV1 = { ...approvedSale({ currency: 'JPY', minor: 1000 }), capturedAmount: '10.5' };
    const refusals: Array<{ poison: GatewayTransactionUpdatedV1; error: unknown }> = [
      { poison: updated(badAmount, 1, groupId), error: DomainError.validation('capturedAmount 10.5 has more decimals than its currency') },
      {
        poison: updated({ ...owned, tranStatus: 'VOIDED' }, 2, 'grp_intruder'),
        error: new OrderBatchNotApplicable(`transaction ${owned.tranId} belongs to another group`),
      },
    ];

    for (const { poison, error } of refusals) {
      const good = [approvedSale(), approvedSale(), approvedSale()];
      const items = [...good.map((sale) => updated(sale, 1, groupId)), poison].map((update) => ({ update, receipt: receiptOf(randomUUID()) }));

      expect(await updates.applyBatch(items).catch((thrown: unknown) => thrown)).toEqual(error);
      for (const sale of good) expect(await orders.findById(sale.tranId)).toBeNull();
      expect(
        await count('SELECT count(*)::int AS n FROM transactions.inbox WHERE message_id = ANY($1)', [items.map((item) => item.receipt.messageId)]),
      ).toBe(0);
    }
    expect(await orders.findById(owned.tranId)).toMatchObject({ groupId, version: 1, tranStatus: 'APPROVED' });
  });

  it('should apply every good event of a batch that holds a poisoned one, dead-lettering only that one', async () => {
    const transport = app.publisher as InProcessTransport;
    const deadLetters: InProcessMessage[] = [];
    const unsubscribe = transport.subscribe(orderUpdatesConsumer.deadLetterSubject, async (message) => void deadLetters.push(message), 'batch-test-dead-letters');
    const pbo = await app.newPbo();
    const poisons: Array<{ payload: (sale: GatewayTransactionV1) => object; reason: RegExp }> = [
      { payload: (sale) => ({ version: 0, groupId: pbo.groupId, merchantId: null, transaction: sale }), reason: /version must not be less than 1/ },
      {
        payload: (sale) => updated({ ...sale, amount: { value: '1.005', currency: 'MYR' } }, 1, pbo.groupId),
        reason: /^amount 1\.005 has more decimals than its currency$/,
      },
    ];
    // The sizes of the batches the transport hands the order consumer (proof that the events came as one).
    const batchCalls: number[] = [];
    type Deliver = (subscription: { subject: string }, handler: unknown, messages: InProcessMessage[]) => Promise<void>;
    const transportInternals = transport as unknown as { deliverBatch: Deliver };
    const deliverBatch = transportInternals.deliverBatch;
    const spy = jest.spyOn(transportInternals, 'deliverBatch').mockImplementation(function (this: InProcessTransport, subscription, handler, messages) {
      if (subscription.subject === GATEWAY_TRANSACTION_UPDATED_V1) batchCalls.push(messages.length);
      return deliverBatch.call(this, subscription, handler, messages);
    });
    try {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.nat(), fc.constantFrom(...poisons), async (good, at, poison) => {
          deadLetters.length = 0;
          batchCalls.length = 0;
          const sales = Array.from({ length: good }, () => approvedSale());
          const poisoned = approvedSale();
          const payloads: object[] = sales.map((sale) => updated(sale, 1, pbo.groupId));
          const position = at % (good + 1);
          payloads.splice(position, 0, poison.payload(poisoned));
          const poisonId = randomUUID();

          // Published in one turn of the event loop: the consumer takes them as one batch.
          await Promise.all(
            payloads.map((payload, index) => transport.publish(GATEWAY_TRANSACTION_UPDATED_V1, payload, { msgId: index === position ? poisonId : randomUUID() })),
          );
          await app.settled();

          expect(batchCalls).toEqual([good + 1]);
          for (const sale of sales) expect(dataOf(await pbo.get<{ tranId: string }>(`/api/v2/order/${sale.tranId}`)).tranId).toBe(sale.tranId);
          expect((await pbo.get(`/api/v2/order/${poisoned.tranId}`)).status).toBe(404);
          expect(deadLetters.map((letter) => letter.headers[DEAD_LETTER_HEADERS.messageId])).toEqual([poisonId]);
          expect(deadLetters[0].headers[DEAD_LETTER_HEADERS.reason]).toMatch(poison.reason);
        }),
        { numRuns: 12 },
      );
    } finally {
      spy.mockRestore();
      unsubscribe();
    }
  });
});
