import { HOST_RESULTS, HostResponseV1, HostResultV1, REVERSAL_QUEUED_CLAUSE } from '@app/contracts';
import { notDeliveredOutcome, outcomeOfReply, reversedUnknown, settlesRepeat } from './host-outcome';

function reply(result: HostResultV1): HostResponseV1 {
  return {
    requestId: 'act_x',
    result,
    hostRespCode: null,
    hostRespMessage: `message of ${result}`,
    mti: null,
    stan: null,
    transmittedAt: null,
    rrn: null,
    approvalCode: null,
  };
}

describe('sale outcomes', () => {
  it.each([
    ['APPROVED', 'APPROVED', 'SUCCESS', 'HostSuccess'],
    ['DECLINED', 'DECLINED', 'FAILED', 'HostDeclined'],
    ['REVERSED', 'REVERSED', 'FAILED', 'HostTimeout'],
    ['HOST_UNAVAILABLE', 'DECLINED', 'FAILED', 'HostUnavailable'],
    ['REJECTED', 'DECLINED', 'FAILED', 'HostRejected'],
  ] as const)('should record a %s reply as tranStatus %s, action %s, reason %s', (result, tranStatus, actionStatus, reason) => {
    // An unreachable host's text (socket details, the address) stays in the log: the caller reads one text.
    const hostRespMessage = result === 'HOST_UNAVAILABLE' ? 'the acquirer host could not be reached' : `message of ${result}`;
    expect(outcomeOfReply(reply(result))).toEqual({ tranStatus, actionStatus, reason, hostRespMessage, response: reply(result) });
  });

  it('should record a reply REVERSED for an unusable approval with reason HostApprovalReversed, and one reversed for no answer (or from an older connector) as HostTimeout', () => {
    const approvalReversed = { ...reply('REVERSED'), reversedFor: 'UNUSABLE_APPROVAL' as const };
    expect(outcomeOfReply(approvalReversed)).toMatchObject({ tranStatus: 'REVERSED', actionStatus: 'FAILED', reason: 'HostApprovalReversed' });
    expect(outcomeOfReply({ ...reply('REVERSED'), reversedFor: 'NO_ANSWER' })).toMatchObject({ tranStatus: 'REVERSED', reason: 'HostTimeout' });
    // The cause says nothing on another result.
    expect(outcomeOfReply({ ...reply('APPROVED'), reversedFor: 'UNUSABLE_APPROVAL' })).toMatchObject({ reason: 'HostSuccess' });
  });

  it('should record a reply REVERSED for an answer without an outcome (POMELO ERROR) as HostOutcomeUnknown, with what the host answered', () => {
    const message = 'POMELO_JSON: the host answered ERROR 96 (HTTP 200) without saying whether the authorize moved money';
    const unknown = { ...reply('REVERSED'), reversedFor: 'UNKNOWN_OUTCOME' as const, hostRespMessage: `${message}${REVERSAL_QUEUED_CLAUSE}` };
    expect(outcomeOfReply(unknown)).toMatchObject({ tranStatus: 'REVERSED', actionStatus: 'FAILED', reason: 'HostOutcomeUnknown', hostRespMessage: `${message}${REVERSAL_QUEUED_CLAUSE}` });
    expect(outcomeOfReply({ ...unknown, result: 'DECLINED' })).toMatchObject({ reason: 'HostDeclined' });
  });

  it('should take both reasons of an unknown outcome, and only those, as reversed for it', () => {
    for (const reason of ['HostTimeout', 'HostOutcomeUnknown']) expect(reversedUnknown(reason)).toBe(true);
    for (const reason of ['HostSuccess', 'HostDeclined', 'HostApprovalReversed', 'HostUnavailable', 'HostRejected', 'HostConnectorUnavailable', 'Pending'])
      expect(reversedUnknown(reason)).toBe(false);
  });

  it('should record a request nobody received as declined by an unavailable host connector', () => {
    expect(notDeliveredOutcome('nobody')).toEqual({
      tranStatus: 'DECLINED',
      actionStatus: 'FAILED',
      reason: 'HostConnectorUnavailable',
      hostRespMessage: 'nobody',
      response: null,
    });
  });

  it('should let no repeated request settle as HOST_UNAVAILABLE while the first may still be in flight, and every other result settle', () => {
    for (const result of HOST_RESULTS) {
      expect(settlesRepeat(reply(result), false)).toBe(result !== 'HOST_UNAVAILABLE');
      expect(settlesRepeat(reply(result), true)).toBe(true);
    }
  });
});
