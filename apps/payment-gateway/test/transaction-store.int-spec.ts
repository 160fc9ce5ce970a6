import fc from 'fast-check';
import { defaultPaymentGatewayOptions } from '../src/payment-gateway.options';
import { UnitOfWork } from '@app/database';
import { unique } from '@app/testing';
import { Client } from 'pg';
import { IdempotencyService } from '../src/transaction/idempotency.service';
import { TerminalBatchRepository } from '../src/transaction/persistence/terminal-batch.repository';
import { TransactionRepository } from '../src/transaction/persistence/transaction.repository';
import type { TerminalKey, Transaction, TransactionAction } from '../src/transaction/transaction';
import { GatewayTestApp, startGateway } from './support';

/** A pending sale's rows as the sale path writes them before asking the host. */
function pendingSale(groupId: string, now: Date): { transaction: Transaction; action: TransactionAction } {
  const tranId = `tran_${unique()}${unique()}abcdef`;
  const actionId = `act_${unique()}${unique()}abcdef`;
  const transaction: Transaction = {
    id: tranId,
    groupId,
    merchantId: null,
    profileId: 'prof_test',
    acceptanceId: 'acpt_test',
    acceptanceName: 'Acquirer test',
    timeZone: null,
    sdkId: 'dev-test',
    tranType: 'SALE',
    tranStatus: 'PENDING',
    currency: 'MYR',
    amountMinor: '1000',
    approvedMinor: null,
    capturedMinor: '0',
    refundedMinor: '0',
    paymentMethod: 'VISA',
    entryMode: 'NFC',
    accountMasked: '476173******0119',
    accountBin: '476173',
    accountLast4: '0119',
    issCountryCode: null,
    cvmPerformed: 'NO_CVM',
    cvmSignatureUrl: null,
    aid: 'A0000000031010',
    appName: null,
    tc: '1122334455667788',
    tvr: '0000000000',
    tsi: null,
    atc: '0001',
    posReference: null,
    trace: '',
    description: null,
    callbackUrl: null,
    merchantName: 'Kopi Corner',
    merchantAddr: null,
    mcc: null,
    primaryMid: 'MID',
    primaryTid: 'TID',
    subMid: null,
    subTid: null,
    hostMessageFormat: 'MOCK',
    acquirerKey: 'ref:1',
    providerReference: null,
    linkedTranId: null,
    preferredAcceptanceTag: null,
    extraData: null,
    transStatusInfo: null,
    rrn: null,
    approvalCode: null,
    batchNo: null,
    settleState: 'OPEN',
    iccResponse: null,
    version: 1,
    createdAt: now,
    updatedAt: null,
  };
  const action: TransactionAction = {
    id: actionId,
    tranId,
    actionType: 'NEW',
    actionStatus: 'PENDING',
    requestId: actionId,
    amountMinor: '1000',
    currency: 'MYR',
    trace: '',
    reason: 'Pending',
    hostRespCode: null,
    hostRespMessage: null,
    rrn: null,
    approvalCode: null,
    hostMti: null,
    hostStan: null,
    hostTransmittedAt: null,
    hostOrderId: null,
    posReference: null,
    extraData: null,
    hostRequest: null,
    nextCheckAt: now,
    checkAttempts: 0,
    createdAt: now,
    updatedAt: null,
  };
  return { transaction, action };
}

/** The transaction store on PostgreSQL: the locks and leases the money rules and the resolver rely on. */
describe('transaction store', () => {
  let app: GatewayTestApp;
  let uow: UnitOfWork;
  let transactions: TransactionRepository;

  beforeAll(async () => {
    app = await startGateway({}, { ...defaultPaymentGatewayOptions(), transactions: { resolverIntervalMs: 3_600_000 } });
    uow = app.app.get(UnitOfWork);
    transactions = app.app.get(TransactionRepository);
  });

  afterAll(() => app?.close());

  describe('terminal batches', () => {
    /** A settlement's move to the next batch, from a connection of its own that waits at most 300 ms for locks. */
    async function advanceBatch(key: TerminalKey): Promise<void> {
      const client = new Client({ connectionString: app.database.url });
      await client.connect();
      try {
        await client.query(`SET lock_timeout = '300ms'`);
        await client.query(`UPDATE payment_gateway.terminal_batch SET batch_no = '000002' WHERE group_id = $1 AND tid = $2`, [key.groupId, key.tid]);
      } finally {
        await client.end();
      }
    }

    it('should let approvals of a terminal take its open batch side by side, and keep its settlement waiting until they commit', async () => {
      const batches = app.app.get(TerminalBatchRepository);
      const key: TerminalKey = { groupId: unique('grp_'), hostMessageFormat: 'MOCK', acquirerKey: 'ref:1', mid: 'MID', tid: 'TID00001', currency: 'MYR' };
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let taken!: () => void;
      const inBatch = new Promise<void>((resolve) => (taken = resolve));
      // The terminal's first approval makes its row (a second one meanwhile waits for that insert to commit).
      expect(await uow.run(() => batches.openBatchNo(key))).toBe('000001');

      const first = uow.run(async () => {
        const batchNo = await batches.openBatchNo(key);
        taken();
        await held;
        return batchNo;
      });
      await inBatch;
      // A second approval of the same terminal is not held up by the first one's share lock.
      const second = await uow.run(() => batches.openBatchNo(key));
      await expect(advanceBatch(key)).rejects.toThrow(/lock timeout/);
      release();

      expect([await first, second]).toEqual(['000001', '000001']);
      await advanceBatch(key);
      expect(await uow.run(() => batches.openBatchNo(key))).toBe('000002');
    });
  });

  describe('terminal batches at two acquirers', () => {
    // Review r14r: a MID/TID's first batch at another acquirer follows the numbers it has at its others, also when both start at once.
    it("should number the first batches of one MID/TID at acquirers that start together one after the other, and a later one's after the highest", async () => {
      const batches = app.app.get(TerminalBatchRepository);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 2, max: 5 }), async (acquirers) => {
          const terminal = { groupId: unique('grp_'), hostMessageFormat: 'MOCK', mid: 'MID', tid: 'TID00001', currency: 'MYR' };
          const firsts = await Promise.all(Array.from({ length: acquirers }, (_, index) => uow.run(() => batches.openBatchNo({ ...terminal, acquirerKey: `ref:${index}` }))));
          expect([...firsts].sort()).toEqual(Array.from({ length: acquirers }, (_, index) => String(index + 1).padStart(6, '0')));
          expect(await uow.run(() => batches.openBatchNo({ ...terminal, acquirerKey: 'name:Later' }))).toBe(String(acquirers + 1).padStart(6, '0'));
        }),
        { numRuns: 5 },
      );
    });

    // Review r14s: a close moved each acquirer's own number on by one, so two acquirers at one host met on a number again.
    it('should close any acquirer\'s batch onto a number after every one the MID/TID has at its acquirers, in any order of closes', async () => {
      const batches = app.app.get(TerminalBatchRepository);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 8 }), async (closes) => {
          const terminal = { groupId: unique('grp_'), hostMessageFormat: 'MOCK', mid: 'MID', tid: 'TID00001', currency: 'MYR' };
          const keys = [0, 1, 2].map((index) => ({ ...terminal, acquirerKey: `ref:${index}` }));
          const used = new Set<string>();
          for (const key of keys) used.add(await uow.run(() => batches.openBatchNo(key)));
          for (const index of closes) {
            const next = await uow.run(async () => {
              await batches.lockExclusive(keys[index]);
              const number = await batches.nextNumber(keys[index]);
              await batches.advance(keys[index], number, new Date());
              return number;
            });
            expect(used.has(next)).toBe(false);
            used.add(next);
          }
        }),
        { numRuns: 10 },
      );
    });
  });

  describe('the resolver lease', () => {
    it('should hand each due pending action to one taker only, and not again before its backoff has passed', async () => {
      const groupId = unique('grp_');
      const now = new Date();
      const sales = Array.from({ length: 12 }, () => pendingSale(groupId, new Date(now.getTime() - 1000)));
      await uow.run(async () => {
        for (const sale of sales) {
          await transactions.insert(sale.transaction);
          await transactions.insertAction(sale.action);
        }
      });
      const backoff = { baseMs: 60_000, maxMs: 120_000 };

      const takes = await Promise.all([1, 2, 3].map(() => transactions.leaseDueActions(now, 10, backoff)));

      const taken = takes.flat().map((leased) => leased.actionId);
      expect(new Set(taken).size).toBe(taken.length);
      expect(taken.filter((id) => sales.some((sale) => sale.action.id === id)).sort()).toEqual(sales.map((sale) => sale.action.id).sort());
      expect(takes.flat().every((leased) => leased.attempts === 0)).toBe(true);
      expect(await transactions.leaseDueActions(now, 100, backoff)).toEqual([]);
      const later = await transactions.leaseDueActions(new Date(now.getTime() + 60_000), 100, backoff);
      expect(later.map((leased) => leased.actionId).sort()).toEqual(sales.map((sale) => sale.action.id).sort());
      expect(later.every((leased) => leased.attempts === 1)).toBe(true);
    });
  });

  describe('Idempotency-Key claims', () => {
    it('should give a key to one of many requests that race for it, and answer the others that it is in flight', async () => {
      const idempotency = app.app.get(IdempotencyService);
      const scope = { groupId: unique('grp_'), deviceId: 'dev-race', idempotencyKey: unique('key-') };

      const claims = await Promise.allSettled(Array.from({ length: 8 }, () => idempotency.claim(scope, 'a'.repeat(64))));

      expect(claims.filter((claim) => claim.status === 'fulfilled').map((claim) => (claim as PromiseFulfilledResult<unknown>).value)).toEqual([
        { kind: 'new' },
      ]);
      for (const claim of claims.filter((each) => each.status === 'rejected')) {
        expect((claim as PromiseRejectedResult).reason).toMatchObject({ message: `a request with Idempotency-Key ${scope.idempotencyKey} is still in flight` });
      }
    });
  });
});
