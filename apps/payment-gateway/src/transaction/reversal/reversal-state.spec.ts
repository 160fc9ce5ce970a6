import { HostReversalUpdatedV1 } from '@app/contracts';
import fc from 'fast-check';
import type { ActionReversal } from '../transaction';
import { actionReversalOf, completingRepeatPending, consequenceOf, supersedes, voidHoldsSettle } from './reversal-state';

/** How a reversal's life ends: not yet, acknowledged by the host (one more attempt), or ended by an operator (no attempt: the same count, a note). */
type End = false | true | 'operator-acknowledged' | 'operator-abandoned';

/** The states one reversal goes through: queued (0 attempts), refused or unanswered attempts, and maybe its end. */
const lifeOf = (reversalId: string, queuedAt: string, refusals: number, end: End): HostReversalUpdatedV1[] => {
  const pending = Array.from({ length: refusals + 1 }, (_, attempts) => ({ requestId: 'act_a', reversalId, state: 'PENDING' as const, attempts, lastResponseCode: attempts === 0 ? null : '12', queuedAt }));
  if (end === false) return pending;
  if (end === true) return [...pending, { requestId: 'act_a', reversalId, state: 'ACKNOWLEDGED' as const, attempts: refusals + 1, lastResponseCode: '00', queuedAt }];
  const state = end === 'operator-acknowledged' ? ('ACKNOWLEDGED' as const) : ('ABANDONED' as const);
  return [...pending, { ...pending[pending.length - 1], state, operatorNote: 'acquirer checked' }];
};

const shown = (events: HostReversalUpdatedV1[]): ActionReversal | null =>
  events.reduce<ActionReversal | null>((current, event) => (supersedes(event, current) ? actionReversalOf(event) : current), null);

describe('which reversal state an action shows', () => {
  it('should show the last state of a reversal whatever the order and repeats its events arrive in, an operator’s end of it included', () => {
    fc.assert(
      fc.property(fc.nat({ max: 6 }), fc.constantFrom<End>(false, true, 'operator-acknowledged', 'operator-abandoned'), fc.func(fc.nat()), fc.nat({ max: 3 }), (refusals, end, order, repeats) => {
        const life = lifeOf('0190a000-0000-7000-8000-000000000001', '2026-11-27T12:00:00.000Z', refusals, end);
        const delivered = [...life, ...life.slice(0, repeats)].map((event, i) => ({ event, key: order(i) })).sort((a, b) => a.key - b.key).map(({ event }) => event);
        expect(shown(delivered)).toEqual(actionReversalOf(life[life.length - 1]));
      }),
    );
  });

  it('should show the later of two reversals of one request (a late approval’s, after the timeout’s), whichever arrives last', () => {
    const first = lifeOf('0190a000-0000-7000-8000-000000000001', '2026-11-27T12:00:00.000Z', 1, true);
    const second = lifeOf('0190a000-0000-7000-8000-000000000002', '2026-11-27T12:00:05.000Z', 0, false);
    expect(shown([...first, ...second])).toMatchObject({ reversalId: '0190a000-0000-7000-8000-000000000002', state: 'PENDING', attempts: 0 });
    expect(shown([...second, ...first])).toMatchObject({ reversalId: '0190a000-0000-7000-8000-000000000002', state: 'PENDING', attempts: 0 });
  });
});

describe('what an acknowledged reversal does to its action (consequenceOf)', () => {
  const EFFECTS = [undefined, 'UNDOES_REQUEST', 'COMPLETES_REQUEST'] as const;
  const STATES = ['PENDING', 'ACKNOWLEDGED'] as const;
  const ACTIONS = [
    { actionType: 'VOID', actionStatus: 'FAILED', reason: 'HostTimeout' },
    { actionType: 'VOID', actionStatus: 'PENDING', reason: 'Pending' },
    { actionType: 'VOID', actionStatus: 'SUCCESS', reason: 'HostSuccess' },
    { actionType: 'VOID', actionStatus: 'FAILED', reason: 'HostDeclined' },
    { actionType: 'REFUND', actionStatus: 'FAILED', reason: 'HostTimeout' },
    { actionType: 'NEW', actionStatus: 'FAILED', reason: 'HostTimeout' },
  ] as const;
  const TRAN_STATUSES = ['APPROVED', 'VOIDED', 'REFUNDED', 'REVERSED', 'CLOSED'] as const;
  const SETTLE_STATES = ['OPEN', 'SETTLING', 'SETTLED', 'SETTLE_FAILED'] as const;

  it('should complete a void only for the acknowledged completing repeat of a void still open here, on a transaction that can still be voided (its batch open or its settle failed), wait for a settle under way, and keep why otherwise', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EFFECTS),
        fc.constantFrom(...STATES),
        fc.constantFrom(...ACTIONS),
        fc.constantFrom(...TRAN_STATUSES),
        fc.constantFrom(...SETTLE_STATES),
        fc.constantFrom('0', '500'),
        (effect, state, action, tranStatus, settleState, refundedMinor) => {
          const consequence = consequenceOf({ state, effect }, action, { id: 'tran_x', tranStatus, settleState, refundedMinor });
          const completes = state === 'ACKNOWLEDGED' && effect === 'COMPLETES_REQUEST' && action.actionType === 'VOID';
          const openHere = action.actionStatus === 'PENDING' || (action.actionStatus === 'FAILED' && action.reason === 'HostTimeout');
          if (!completes || !openHere || tranStatus === 'VOIDED') {
            expect(consequence).toEqual({ kind: 'show' });
          } else if (tranStatus === 'APPROVED' && refundedMinor === '0' && (settleState === 'OPEN' || settleState === 'SETTLE_FAILED')) {
            expect(consequence).toEqual({ kind: 'complete-void' });
          } else if (tranStatus === 'APPROVED' && refundedMinor === '0' && settleState === 'SETTLING') {
            expect(consequence).toEqual({ kind: 'after-settle' });
          } else {
            expect(consequence.kind).toBe('not-recorded');
            if (consequence.kind === 'not-recorded') expect(consequence.why).toMatch(/^the host acknowledged the repeat of this void, so it voided transaction tran_x, but /);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('should name why a void the host completed is not recorded', () => {
    const ack = { state: 'ACKNOWLEDGED' as const, effect: 'COMPLETES_REQUEST' as const };
    const timedOut = { actionType: 'VOID' as const, actionStatus: 'FAILED' as const, reason: 'HostTimeout' };
    expect(consequenceOf(ack, timedOut, { id: 't', tranStatus: 'APPROVED', settleState: 'SETTLED', refundedMinor: '0' })).toMatchObject({ why: expect.stringMatching(/its batch is SETTLED$/) as string });
    expect(consequenceOf(ack, timedOut, { id: 't', tranStatus: 'APPROVED', settleState: 'OPEN', refundedMinor: '100' })).toMatchObject({ why: expect.stringMatching(/it was refunded since$/) as string });
    expect(consequenceOf(ack, timedOut, { id: 't', tranStatus: 'REFUNDED', settleState: 'OPEN', refundedMinor: '100' })).toMatchObject({ why: expect.stringMatching(/it is REFUNDED here$/) as string });
  });
});

describe('a void being completed by its repeat (completingRepeatPending)', () => {
  const reversal = (state: 'PENDING' | 'ACKNOWLEDGED', effect?: 'UNDOES_REQUEST' | 'COMPLETES_REQUEST'): ActionReversal => ({
    reversalId: '0190a000-0000-7000-8000-000000000001',
    state,
    attempts: 1,
    lastResponseCode: null,
    queuedAt: '2026-11-27T12:00:00.000Z',
    ...(effect === undefined ? {} : { effect }),
  });
  const timedOutVoid = { actionType: 'VOID' as const, actionStatus: 'FAILED' as const, reason: 'HostTimeout', hostMti: '0400' };

  it('should hold while the completing repeat is pending, or before its state arrives when the void went out as a reversal (04xx)', () => {
    expect(completingRepeatPending({ ...timedOutVoid, reversal: reversal('PENDING', 'COMPLETES_REQUEST') })).toBe(true);
    expect(completingRepeatPending({ ...timedOutVoid, reversal: null })).toBe(true);
    expect(completingRepeatPending({ ...timedOutVoid, hostMti: '0200', reversal: null })).toBe(false);
    expect(completingRepeatPending({ ...timedOutVoid, reversal: reversal('ACKNOWLEDGED', 'COMPLETES_REQUEST') })).toBe(false);
    expect(completingRepeatPending({ ...timedOutVoid, reversal: reversal('PENDING', 'UNDOES_REQUEST') })).toBe(false);
    expect(completingRepeatPending({ ...timedOutVoid, reversal: reversal('PENDING') })).toBe(false);
    expect(completingRepeatPending({ ...timedOutVoid, actionType: 'REFUND', reversal: reversal('PENDING', 'COMPLETES_REQUEST') })).toBe(false);
    expect(completingRepeatPending({ ...timedOutVoid, actionStatus: 'SUCCESS', reason: 'HostSuccess', reversal: reversal('ACKNOWLEDGED', 'COMPLETES_REQUEST') })).toBe(false);
  });
});

describe('a void that holds its batch’s settle (voidHoldsSettle)', () => {
  const action = fc.record({
    actionType: fc.constantFrom('NEW' as const, 'CAPTURE' as const, 'VOID' as const, 'REFUND' as const, 'REVERSAL' as const),
    actionStatus: fc.constantFrom('PENDING' as const, 'SUCCESS' as const, 'FAILED' as const),
    reason: fc.constantFrom('Pending', 'HostSuccess', 'HostDeclined', 'HostTimeout', 'HostOutcomeUnknown', 'HostApprovalReversed'),
    hostMti: fc.constantFrom(null, '0200', '0400', '0420'),
    reversal: fc.option(
      fc.record({
        reversalId: fc.constant('0190a000-0000-7000-8000-000000000001'),
        state: fc.constantFrom('PENDING' as const, 'ACKNOWLEDGED' as const),
        attempts: fc.nat({ max: 5 }),
        lastResponseCode: fc.constantFrom(null, '12', '25', '96', '00', '94'),
        queuedAt: fc.constant('2026-11-27T12:00:00.000Z'),
        effect: fc.constantFrom('UNDOES_REQUEST' as const, 'COMPLETES_REQUEST' as const),
      }),
      { nil: null },
    ),
  });

  it('should hold for a void waiting for the host, or sent as a reversal with no answer yet to it or any repeat, and for nothing else', () => {
    fc.assert(
      fc.property(action, (a) => {
        const unanswered = a.reversal === null || a.reversal.lastResponseCode === null;
        expect(voidHoldsSettle(a)).toBe(a.actionType === 'VOID' && (a.actionStatus === 'PENDING' || (completingRepeatPending(a) && unanswered)));
      }),
    );
  });

  it('should let the settle go once the host has refused a repeat of the void: it said the void did not take', () => {
    fc.assert(
      fc.property(fc.constantFrom('12', '25', '30', '96'), fc.integer({ min: 1, max: 9 }), (code, attempts) => {
        const refused = { actionType: 'VOID' as const, actionStatus: 'FAILED' as const, reason: 'HostTimeout', hostMti: '0400' };
        const reversal = { reversalId: '0190a000-0000-7000-8000-000000000001', state: 'PENDING' as const, attempts, queuedAt: '2026-11-27T12:00:00.000Z', effect: 'COMPLETES_REQUEST' as const };
        expect(voidHoldsSettle({ ...refused, reversal: { ...reversal, lastResponseCode: null } })).toBe(true);
        expect(voidHoldsSettle({ ...refused, reversal: null })).toBe(true);
        expect(voidHoldsSettle({ ...refused, reversal: { ...reversal, lastResponseCode: code } })).toBe(false);
        expect(voidHoldsSettle({ ...refused, reversal: { ...reversal, state: 'ACKNOWLEDGED', lastResponseCode: '00' } })).toBe(false);
        expect(voidHoldsSettle({ ...refused, actionStatus: 'PENDING', reason: 'Pending', reversal: null })).toBe(true);
      }),
    );
  });
});
