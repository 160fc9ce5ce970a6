import { DomainError, ErrorCode } from '@app/common';
import fc from 'fast-check';
import { TEST_NOW as NOW, testAction as action, testTransaction as transaction } from '../testing/test-transactions';
import { changesOfApproval, COMPLETING_VOID_RETRY_SECONDS, FollowUpContext, planCapture, planRefund, planVoid } from './follow-up-rules';

const DAY = 24 * 60 * 60 * 1000;

const context = (overrides: Partial<FollowUpContext> = {}): FollowUpContext => ({
  openBatchNo: '000001',
  now: NOW,
  authorizationValidityMs: 7 * DAY,
  ...overrides,
});

/** Whether `act` is refused with a conflict (409). */
function conflict(act: () => unknown): boolean {
  try {
    act();
    return false;
  } catch (error) {
    if (error instanceof DomainError && error.code === ErrorCode.Conflict) return true;
    throw error;
  }
}

const STATUSES = ['PENDING', 'APPROVED', 'DECLINED', 'REVERSED', 'VOIDED', 'REFUNDED', 'CLOSED'] as const;
const SETTLE_STATES = ['OPEN', 'SETTLING', 'SETTLED', 'SETTLE_FAILED'] as const;

/** A sale or a (captured or not) authorisation in any state, with consistent sums, and its actions. */
const anyTransaction = fc
  .record({
    tranType: fc.constantFrom('SALE' as const, 'AUTH' as const),
    tranStatus: fc.constantFrom(...STATUSES),
    approved: fc.integer({ min: 1, max: 100_000 }),
    captureShare: fc.integer({ min: 0, max: 100 }),
    refundShare: fc.integer({ min: 0, max: 100 }),
    settleState: fc.constantFrom(...SETTLE_STATES),
    batchNo: fc.constantFrom('000001', '000002', null),
    pending: fc.boolean(),
    ageDays: fc.integer({ min: 0, max: 10 }),
  })
  .map((drawn) => {
    const captured = drawn.tranType === 'SALE' ? drawn.approved : Math.floor((drawn.approved * drawn.captureShare) / 100);
    const refunded = Math.floor((captured * drawn.refundShare) / 100);
    const approvedAt = new Date(NOW.getTime() - drawn.ageDays * DAY);
    const actions = [
      action({ amountMinor: String(drawn.approved), hostMti: drawn.tranType === 'SALE' ? '0200' : '0100', createdAt: approvedAt, updatedAt: approvedAt }),
    ];
    if (drawn.tranType === 'AUTH' && captured > 0)
      actions.push(action({ id: `act_${'c'.repeat(22)}`, actionType: 'CAPTURE', amountMinor: String(captured), hostMti: '0220', hostStan: '000002' }));
    if (refunded > 0) actions.push(action({ id: `act_${'r'.repeat(22)}`, actionType: 'REFUND', amountMinor: String(refunded), hostStan: '000003' }));
    if (drawn.pending)
      actions.push(action({ id: `act_${'p'.repeat(22)}`, actionType: 'REFUND', actionStatus: 'PENDING', amountMinor: '1', reason: 'Pending' }));
    return {
      transaction: transaction({
        tranType: drawn.tranType,
        tranStatus: drawn.tranStatus,
        amountMinor: String(drawn.approved),
        approvedMinor: String(drawn.approved),
        capturedMinor: String(captured),
        refundedMinor: String(refunded),
        settleState: drawn.settleState,
        batchNo: drawn.batchNo,
      }),
      actions,
      pending: drawn.pending,
      ageDays: drawn.ageDays,
    };
  });

describe('the money rules of follow-ups', () => {
  describe('refund', () => {
    it('should allow exactly the refunds of an APPROVED transaction within what is left of its capture, and keep refunds ≤ captured', () => {
      fc.assert(
        fc.property(anyTransaction, fc.integer({ min: 1, max: 120_000 }), ({ transaction: t, actions, pending }, amount) => {
          const left = Number(t.capturedMinor) - Number(t.refundedMinor);
          const allowed = !pending && t.tranStatus === 'APPROVED' && Number(t.capturedMinor) > 0 && amount <= left;

          expect(conflict(() => planRefund(t, actions, String(amount)))).toBe(!allowed);
          if (!allowed) return;
          const plan = planRefund(t, actions, String(amount));
          const changes = changesOfApproval(t, 'REFUND', plan.amountMinor, '000001');
          expect(BigInt(changes.refundedMinor!)).toBeLessThanOrEqual(BigInt(t.capturedMinor));
          expect(changes.tranStatus).toBe(amount === left ? 'REFUNDED' : 'APPROVED');
          // The refund that leaves nothing to refund says so to the connector, which then deletes the original's kept card.
          expect(plan.final).toBe(changes.tranStatus === 'REFUNDED');
          // The host knows a captured authorisation by its capture, a sale by itself.
          expect(plan.originalKind).toBe(t.tranType === 'AUTH' ? 'CAPTURE' : 'SALE');
          expect(plan.original.actionType).toBe(t.tranType === 'AUTH' ? 'CAPTURE' : 'NEW');
        }),
      );
    });
  });

  describe('void', () => {
    it('should allow a void only of an APPROVED transaction without refunds, OPEN in the open batch, with nothing in flight', () => {
      fc.assert(
        fc.property(anyTransaction, fc.constantFrom('000001', '000002'), ({ transaction: t, actions, pending }, openBatchNo) => {
          const allowed = !pending && t.tranStatus === 'APPROVED' && t.refundedMinor === '0' && t.settleState === 'OPEN' && t.batchNo === openBatchNo;

          expect(conflict(() => planVoid(t, actions, context({ openBatchNo })))).toBe(!allowed);
          if (!allowed) return;
          const plan = planVoid(t, actions, context({ openBatchNo }));
          const captured = t.tranType === 'AUTH' && t.capturedMinor !== '0';
          // A captured authorisation voids its capture; anything else its own approval, all of it.
          expect([plan.originalKind, plan.amountMinor]).toEqual(
            captured ? ['CAPTURE', t.capturedMinor] : [t.tranType === 'AUTH' ? 'PREAUTH' : 'SALE', t.approvedMinor],
          );
          expect(changesOfApproval(t, 'VOID', plan.amountMinor, openBatchNo)).toEqual({ tranStatus: 'VOIDED' });
        }),
      );
    });
  });

  describe('capture', () => {
    it('should allow one capture of an APPROVED authorisation, at most what was authorised, within the validity', () => {
      fc.assert(
        fc.property(
          anyTransaction,
          fc.option(fc.integer({ min: 1, max: 120_000 }), { nil: undefined }),
          ({ transaction: t, actions, pending, ageDays }, amount) => {
            const allowed =
              t.tranType === 'AUTH' &&
              !pending &&
              t.tranStatus === 'APPROVED' &&
              t.capturedMinor === '0' &&
              ageDays < 7 &&
              (amount ?? 0) <= Number(t.approvedMinor);

            expect(conflict(() => planCapture(t, actions, amount === undefined ? undefined : String(amount), context()))).toBe(!allowed);
            if (!allowed) return;
            const plan = planCapture(t, actions, amount === undefined ? undefined : String(amount), context());
            expect(plan).toMatchObject({ originalKind: 'PREAUTH', amountMinor: String(amount ?? t.approvedMinor) });
            expect(changesOfApproval(t, 'CAPTURE', plan.amountMinor, '000002')).toEqual({
              capturedMinor: plan.amountMinor,
              batchNo: '000002',
              settleState: 'OPEN',
            });
          },
        ),
      );
    });

    it('should refuse a capture at the end of the validity to the millisecond', () => {
      const approvedAt = new Date(NOW.getTime() - 7 * DAY);
      const auth = transaction({ tranType: 'AUTH', capturedMinor: '0' });
      const actions = [action({ hostMti: '0100', createdAt: approvedAt, updatedAt: approvedAt })];

      expect(() => planCapture(auth, actions, undefined, context())).toThrow('its authorisation is older than 7 days');
      expect(planCapture(auth, actions, undefined, context({ now: new Date(NOW.getTime() - 1) })).amountMinor).toBe('1000');
    });
  });

  it('should name what is in flight, and why a transaction that is not APPROVED is refused', () => {
    const sale = transaction({});
    const pending = action({ id: `act_${'p'.repeat(22)}`, actionType: 'VOID', actionStatus: 'PENDING' });

    expect(() => planRefund(sale, [action({}), pending], '1')).toThrow(`has VOID action ${pending.id} in flight`);
    expect(() => planRefund(transaction({ tranStatus: 'REFUNDED' }), [action({})], '1')).toThrow('cannot be refunded: it is REFUNDED in full');
    expect(() => planVoid(transaction({ tranStatus: 'DECLINED' }), [], context())).toThrow('cannot be voided: it is DECLINED');
  });

  it('should refuse every follow-up 409 with Retry-After, naming the void, while a void sent as a reversal is repeated; and without one once the host completed a void the transaction could not take', () => {
    const sale = transaction({});
    const timedOutVoid = action({ id: `act_${'v'.repeat(22)}`, actionType: 'VOID', actionStatus: 'FAILED', reason: 'HostTimeout', hostMti: '0400', reversal: null });
    const repeating = { reversalId: '0190a000-0000-7000-8000-000000000001', state: 'PENDING' as const, attempts: 1, lastResponseCode: '96', queuedAt: '2026-11-20T10:00:00.000Z', effect: 'COMPLETES_REQUEST' as const };
    const refusals = (actions: ReturnType<typeof action>[]) =>
      [() => planVoid(sale, actions, context()), () => planRefund(sale, actions, '1'), () => planCapture(transaction({ tranType: 'AUTH', capturedMinor: '0' }), actions, undefined, context())].map((act) => {
        try {
          act();
          return undefined;
        } catch (error) {
          return error as DomainError;
        }
      });

    // Unanswered so far, or answered with a refusal (review r16d: the text said "did not answer" to a host that said 96).
    for (const [reversal, why] of [
      [null, `the host did not answer its void ${timedOutVoid.id} in time`],
      [{ ...repeating, lastResponseCode: null }, `the host did not answer its void ${timedOutVoid.id} in time`],
      [repeating, `the host refused the repeat of its void ${timedOutVoid.id} (96)`],
    ] as const) {
      for (const error of refusals([action({}), { ...timedOutVoid, reversal }])) {
        expect(error).toMatchObject({ code: ErrorCode.Conflict, retryAfterSeconds: COMPLETING_VOID_RETRY_SECONDS });
        expect(error!.message).toContain(`${why}, and that void is being repeated until the host acknowledges it`);
      }
    }
    const notRecorded = { ...repeating, state: 'ACKNOWLEDGED' as const, notRecorded: 'the host acknowledged the repeat of this void, so it voided transaction t, but its batch is SETTLED' };
    for (const error of refusals([action({}), { ...timedOutVoid, reversal: notRecorded }])) {
      expect(error).toMatchObject({ code: ErrorCode.Conflict });
      expect(error!.retryAfterSeconds).toBeUndefined();
      expect(error!.message).toContain('an operator must reconcile it with the acquirer');
    }
    // A void sent as a financial message (0200) whose reversal undoes it leaves the sale open to a new void.
    expect(planVoid(sale, [action({}), { ...timedOutVoid, hostMti: '0200' }], context()).kind).toBe('VOID');
    expect(planVoid(sale, [action({}), { ...timedOutVoid, reversal: { ...repeating, effect: 'UNDOES_REQUEST' } }], context()).kind).toBe('VOID');
  });
});
