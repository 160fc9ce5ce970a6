import { HttpResponse } from '@app/testing';
import fc from 'fast-check';
import { followUp, settle } from './follow-up-support';
import { saleBody, SaleTestApp, startGatewayWithConnector, Terminal, TransactionView } from './sale-support';

/** One step of a random run; `pick` chooses among the transactions made so far. */
type Command =
  | { kind: 'sale' | 'auth'; minor: number }
  | { kind: 'capture'; pick: number; minor: number | null }
  | { kind: 'void'; pick: number }
  | { kind: 'refund'; pick: number; minor: number }
  | { kind: 'settle' };

/** Minor units as the API writes them in MYR. */
const decimal = (minor: number): string => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

/** Amounts of 0.01 to 40.00, now and then one the host declines (ending in 51); never one it leaves unanswered (91: slow). */
const amount = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 4000 }).filter((minor) => minor % 100 !== 91 && minor % 100 !== 51) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 39 }).map((units) => units * 100 + 51) },
);
const pick = fc.nat({ max: 20 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('sale' as const, 'auth' as const), minor: amount }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('capture' as const), pick, minor: fc.option(amount, { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('void' as const), pick }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('refund' as const), pick, minor: amount }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('settle' as const) }) },
);
/** Steps run one after the other; the commands of a step run at once. */
const run = fc.array(fc.array(command, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 7 });

interface Row {
  id: string;
  tran_type: 'SALE' | 'AUTH';
  tran_status: string;
  approved_minor: string | null;
  captured_minor: string;
  refunded_minor: string;
  batch_no: string | null;
  settle_state: string;
}

interface ActionRow {
  tran_id: string;
  action_type: string;
  action_status: string;
  amount_minor: string;
  batch_no: string | null;
  created_at: Date;
}

/**
 * A model test of the money rules (issue 13): random runs of sales, authorisations, captures,
 * voids, refunds and settlements against one terminal (MOCK through the connector, on the
 * PostgreSQL server), some at once. A step of one command must be answered as a small model of
 * the rules predicts (done, refused 409, or declined: 200 with the action FAILED); after every step, whatever ran at once,
 * the database keeps every invariant: refunds ≤ captured ≤ approved; each sum is what its
 * successful actions add up to; each status agrees with the actions; no action left in flight;
 * every settled batch counts what its transactions hold now (so no sale was voided after it was
 * settled), and a void of a settled transaction always came before its batch closed.
 */
describe('the money rules under random runs of follow-ups and settlements', () => {
  let app: SaleTestApp;

  beforeAll(async () => {
    app = await startGatewayWithConnector({ hostTimeoutMs: 1500, replyMarginMs: 1500, reaskWaitMs: 1000 }, { simulator: false });
  });

  afterAll(() => app?.close());

  /** Whether the open batch may close: it does not hold authorisations not captured yet and nothing else (no other transaction, no refund booked in it). */
  function settlesSomething({ transactions, actions }: { transactions: Row[]; actions: ActionRow[] }, openBatchNo: string): boolean {
    const uncapturedAuth = (row: Row) => row.tran_type === 'AUTH' && row.tran_status === 'APPROVED' && BigInt(row.captured_minor) === 0n;
    const inBatch = transactions.filter((row) => row.batch_no === openBatchNo);
    return (
      !inBatch.some(uncapturedAuth) ||
      inBatch.some((row) => !uncapturedAuth(row)) ||
      actions.some((action) => action.action_type === 'REFUND' && action.action_status === 'SUCCESS' && action.batch_no === openBatchNo)
    );
  }

  async function rowsOf(terminal: Terminal): Promise<{ transactions: Row[]; actions: ActionRow[] }> {
    const transactions = await app.query<Row>(
      `SELECT id, tran_type, tran_status, approved_minor, captured_minor, refunded_minor, batch_no, settle_state
         FROM payment_gateway.payment_transaction WHERE primary_tid = $1 AND group_id = $2 ORDER BY created_at, id`,
      [terminal.tid, terminal.groupId],
    );
    const actions = await app.query<ActionRow>(
      `SELECT tran_id, action_type, action_status, amount_minor, batch_no, created_at FROM payment_gateway.transaction_action
        WHERE tran_id = ANY($1) ORDER BY created_at, id`,
      [transactions.map((row) => row.id)],
    );
    return { transactions, actions };
  }

  /** What the rules say a lone command does to the transaction as it was before it (null: refused). */
  function predicted(command: Command, before: Row | undefined, openBatchNo: string | undefined): 'done' | 'refused' {
    if (!before || before.tran_status !== 'APPROVED') return 'refused';
    const captured = BigInt(before.captured_minor);
    const refunded = BigInt(before.refunded_minor);
    const approved = BigInt(before.approved_minor ?? '0');
    switch (command.kind) {
      case 'void':
        return refunded === 0n && before.settle_state === 'OPEN' && before.batch_no === openBatchNo ? 'done' : 'refused';
      case 'refund':
        return captured > 0n && refunded + BigInt(command.minor) <= captured ? 'done' : 'refused';
      case 'capture':
        return before.tran_type === 'AUTH' && captured === 0n && BigInt(command.minor ?? approved) <= approved ? 'done' : 'refused';
      default:
        return 'refused';
    }
  }

  function expectInvariants(
    transactions: Row[],
    actions: ActionRow[],
    settlements: Array<{ batch_no: string; state: string; totals: Record<string, string | number>; created_at: Date }>,
  ): void {
    expect(actions.filter((action) => action.action_status === 'PENDING')).toEqual([]);
    for (const row of transactions) {
      const own = actions.filter((action) => action.tran_id === row.id && action.action_status === 'SUCCESS');
      const total = (type: string) => own.filter((action) => action.action_type === type).reduce((sum, action) => sum + BigInt(action.amount_minor), 0n);
      const count = (type: string) => own.filter((action) => action.action_type === type).length;
      const approved = BigInt(row.approved_minor ?? '0');
      const captured = BigInt(row.captured_minor);
      const refunded = BigInt(row.refunded_minor);
      const context = `${row.tran_type} ${row.id} ${row.tran_status}`;
      expect([context, refunded <= captured && captured <= approved]).toEqual([context, true]);
      expect([context, refunded]).toEqual([context, total('REFUND')]);
      expect([context, captured]).toEqual([context, row.tran_type === 'SALE' ? approved : total('CAPTURE')]);
      expect([context, count('CAPTURE') <= 1, count('VOID') <= 1]).toEqual([context, true, true]);
      expect([context, row.tran_status === 'VOIDED']).toEqual([context, count('VOID') === 1]);
      expect([context, row.tran_status === 'REFUNDED']).toEqual([context, captured > 0n && refunded === captured]);
      if (row.tran_status === 'VOIDED') expect([context, refunded]).toEqual([context, 0n]);
      if (row.tran_status === 'DECLINED') expect([context, own.length, row.batch_no]).toEqual([context, 0, null]);
    }
    for (const settlement of settlements) {
      const inBatch = transactions.filter((row) => row.batch_no === settlement.batch_no);
      const payments = inBatch.filter((row) => row.tran_status !== 'VOIDED' && BigInt(row.captured_minor) > 0n);
      const voided = inBatch.filter((row) => row.tran_status === 'VOIDED');
      // A void counts only of booked money: a voided authorisation never captured moved none.
      const voidsOfBooked = voided.filter((row) => BigInt(row.captured_minor) > 0n);
      expect([settlement.batch_no, settlement.state, settlement.totals.paymentCount, settlement.totals.paymentMinor, settlement.totals.voidCount]).toEqual([
        settlement.batch_no,
        'SETTLED',
        payments.length,
        payments.reduce((sum, row) => sum + BigInt(row.captured_minor), 0n).toString(),
        voidsOfBooked.length,
      ]);
      for (const row of voided) {
        const voidAction = actions.find((action) => action.tran_id === row.id && action.action_type === 'VOID' && action.action_status === 'SUCCESS')!;
        expect(voidAction.created_at.getTime()).toBeLessThan(settlement.created_at.getTime());
      }
      for (const row of inBatch) expect([row.id, row.settle_state]).toEqual([row.id, 'SETTLED']);
    }
  }

  it('should keep every invariant, and answer each lone command as the rules say', async () => {
    await fc.assert(
      fc.asyncProperty(run, async (steps) => {
        const terminal = await app.newTerminal();
        const made: TransactionView[] = [];
        let openBatchNo = '000001';
        // A terminal has a batch from its first approval on; before that there is nothing to settle (404).
        let anyApproved = false;
        const perform = async (step: Command): Promise<HttpResponse<unknown> | { status: number; batchNo?: string }> => {
          const target = 'pick' in step && made.length > 0 ? made[step.pick % made.length] : undefined;
          switch (step.kind) {
            case 'sale':
            case 'auth': {
              const response = await terminal.sale(saleBody(terminal, { value: decimal(step.minor), tranType: step.kind === 'sale' ? 'SALE' : 'AUTH' }));
              if (response.status === 201) made.push(response.body as TransactionView);
              if ((response.body as TransactionView).tranStatus === 'APPROVED') anyApproved = true;
              return response;
            }
            case 'settle': {
              if (made.length === 0) return { status: 404 };
              const batchNo = openBatchNo;
              const reply = await settle(app, terminal, made[0].acceptanceId, batchNo);
              if (reply.outcome === 'SETTLED' && batchNo === openBatchNo) openBatchNo = String(Number(batchNo) + 1).padStart(6, '0');
              return { status: reply.outcome === 'SETTLED' ? 200 : (reply.refusal?.status ?? 500), batchNo };
            }
            case 'void':
              return target ? followUp(terminal, target.tranId, 'void') : { status: 404 };
            case 'refund':
              return target ? followUp(terminal, target.tranId, 'refund', { amount: decimal(step.minor) }) : { status: 404 };
            case 'capture':
              return target ? followUp(terminal, target.tranId, 'capture', step.minor === null ? {} : { amount: decimal(step.minor) }) : { status: 404 };
          }
        };
        for (const step of steps) {
          const lone = step.length === 1 ? step[0] : undefined;
          const loneTarget = lone && 'pick' in lone && made.length > 0 ? made[lone.pick % made.length] : undefined;
          const before = loneTarget ? (await rowsOf(terminal)).transactions.find((row) => row.id === loneTarget.tranId) : undefined;
          const settles = lone?.kind === 'settle' ? settlesSomething(await rowsOf(terminal), openBatchNo) : undefined;
          const answers = await Promise.all(step.map(perform));
          for (const answer of answers) expect([200, 201, 404, 409]).toContain(answer.status);
          if (lone && loneTarget) {
            const expected = predicted(lone, before, openBatchNo);
            const declinedAmount = 'minor' in lone && lone.minor !== null && lone.minor % 100 === 51;
            const status = expected === 'refused' ? 409 : 200;
            expect([lone, before?.tran_status, answers[0].status]).toEqual([lone, before?.tran_status, status]);
            if (status === 200 && lone.kind !== 'sale' && lone.kind !== 'auth' && lone.kind !== 'settle') {
              const last = ((answers[0] as HttpResponse<TransactionView>).body).actions.at(-1);
              expect([lone, last?.actionStatus, last?.reason]).toEqual([lone, ...(declinedAmount ? ['FAILED', 'HostDeclined'] : ['SUCCESS', 'HostSuccess'])]);
            }
          }
          // No batch before the first approval (404); a batch of authorisations not captured and nothing else is not closed (409).
          if (lone?.kind === 'settle') expect(answers[0].status).toBe(anyApproved ? (settles ? 200 : 409) : 404);
          const { transactions, actions } = await rowsOf(terminal);
          const settlements = await app.query<{ batch_no: string; state: string; totals: Record<string, string | number>; created_at: Date }>(
            `SELECT batch_no, state, totals, created_at FROM payment_gateway.batch_settlement WHERE tid = $1 AND group_id = $2`,
            [terminal.tid, terminal.groupId],
          );
          expectInvariants(transactions, actions, settlements);
        }
      }),
      { numRuns: 20 },
    );
  });
});
