import { REVERSAL_QUEUED_CLAUSE } from '@app/contracts';
import { pendingAction, type TransactionAction } from '../transaction';
import { refusalOfAction } from './follow-up.service';

/** A refund reversed for an unknown outcome, as `writeOutcome` leaves it. */
function reversedRefund(reason: string, hostRespMessage: string): TransactionAction {
  const pending = pendingAction({
    id: 'act_AAAAAAAAAAAAAAAAAAAAAA',
    tranId: 'tran_AAAAAAAAAAAAAAAAAAAAAA',
    actionType: 'REFUND',
    requestId: 'req_1',
    amountMinor: '500',
    currency: 'MYR',
    posReference: null,
    extraData: null,
    hostRequest: null,
    nextCheckAt: null,
    createdAt: new Date('2026-11-27T12:00:00.000Z'),
  });
  return { ...pending, actionStatus: 'FAILED', reason, hostRespMessage: `${hostRespMessage}${REVERSAL_QUEUED_CLAUSE}` };
}

describe('what a follow-up reversed for an unknown outcome answers', () => {
  const inFlight = { now: new Date('2026-11-27T12:01:00.000Z'), askingMs: 1000 };

  it('should say the host answered without an outcome (HostOutcomeUnknown), quoting it, and that a reversal is queued: 504', () => {
    const said = 'POMELO_JSON: the host answered ERROR 96 (HTTP 200) without saying whether the refund moved money';
    expect(refusalOfAction(reversedRefund('HostOutcomeUnknown', said), inFlight)).toEqual({
      status: 504,
      detail: `the host answered the refund act_AAAAAAAAAAAAAAAAAAAAAA without an outcome; a reversal is queued and repeated until the host acknowledges it (not yet acknowledged): ${said}`,
    });
  });

  it('should say the host did not answer in time (HostTimeout): 504', () => {
    expect(refusalOfAction(reversedRefund('HostTimeout', 'no answer from ISO8583 within the deadline'), inFlight)?.detail).toMatch(
      /^the host did not answer the refund act_A{22} in time; a reversal is queued/,
    );
  });
});
