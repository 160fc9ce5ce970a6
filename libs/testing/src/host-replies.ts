import type { HostResponseV1 } from '@app/contracts';

/** An approval as the host connector replies it, for tests that play the connector or record its replies. */
export function approvedReply(requestId: string, mti: string, stan: string): HostResponseV1 {
  return {
    requestId,
    result: 'APPROVED',
    hostRespCode: '00',
    hostRespMessage: 'Approved',
    mti,
    stan,
    transmittedAt: '1123080000',
    rrn: `5327080${stan.slice(1)}`,
    approvalCode: 'A1B2C3',
  };
}
