import { DomainError, envelopeErrorOf } from '@app/common';
import { ContractViolationError } from '@app/contracts';
import { RequestReplyError } from '@app/messaging';
import { Logger } from '@nestjs/common';
import { noReplyError, outcomeUnknown } from './upstream';

describe('the gateway and merchant-management failing, in the envelope', () => {
  const logger = new Logger('test');
  beforeAll(() => Logger.overrideLogger(false));

  it('should tell a timeout (504, outcome unknown) from nobody serving (502, nothing done)', () => {
    const timeout = noReplyError(new RequestReplyError('TIMEOUT', 's', 'late'), 'payment-gateway', logger, 'not known');
    const nobody = noReplyError(new RequestReplyError('NO_RESPONDERS', 's', 'none'), 'payment-gateway', logger, 'not known');
    expect([envelopeErrorOf(timeout.code).status, timeout.message]).toEqual([504, 'payment-gateway did not answer in time; not known']);
    expect([envelopeErrorOf(nobody.code).status, nobody.message]).toEqual([502, 'payment-gateway is not reachable']);
    expect([outcomeUnknown(new RequestReplyError('TIMEOUT', 's', '')), outcomeUnknown(new RequestReplyError('NO_RESPONDERS', 's', ''))]).toEqual([true, false]);
  });

  it('should answer a reply that breaks the contract and a failed handler with 502', () => {
    for (const error of [
      new ContractViolationError('X', 'bad'),
      new RequestReplyError('HANDLER_FAILED', 's', 'boom'),
      new RequestReplyError('BAD_REPLY', 's', 'junk'),
    ]) {
      expect(envelopeErrorOf(noReplyError(error, 'merchant-management', logger).code).status).toBe(502);
    }
  });

  it('should let other errors through unchanged', () => {
    const other = new Error('database down');
    expect(() => noReplyError(other, 'payment-gateway', logger)).toThrow(other);
    expect(noReplyError(new RequestReplyError('TIMEOUT', 's', ''), 'x', logger)).toBeInstanceOf(DomainError);
  });
});
