import { DomainError, ErrorCode } from '@app/common';
import { ContractViolationError } from '@app/contracts';
import { RequestReplyError } from '@app/messaging';
import { Logger } from '@nestjs/common';

/** Whether the other side may have acted on a request that got no usable answer (it timed out, failed while handling, or answered nonsense). */
export function outcomeUnknown(error: unknown): boolean {
  return !(error instanceof RequestReplyError && error.code === 'NO_RESPONDERS');
}

/** Whether a request got no reply in time (the other side may still be working on it). */
export function timedOut(error: unknown): boolean {
  return error instanceof RequestReplyError && error.code === 'TIMEOUT';
}

/**
 * What a request to another context that got no usable reply is to the caller: 504 when it did
 * not answer in time, 502 when nobody serves the subject, its handler failed or its reply broke
 * the contract (logged: that is a defect of the other side). `context` names the other side;
 * `unknown` is added to the message when it may have acted anyway.
 */
export function noReplyError(error: unknown, context: string, logger: Logger, unknown = ''): DomainError {
  const tail = unknown ? `; ${unknown}` : '';
  if (error instanceof ContractViolationError) {
    logger.error(`${context} answered outside its contract: ${error.reason}`);
    return new DomainError(ErrorCode.Upstream, `${context} gave an unreadable answer${tail}`);
  }
  if (!(error instanceof RequestReplyError)) throw error;
  switch (error.code) {
    case 'TIMEOUT':
      return new DomainError(ErrorCode.UpstreamTimeout, `${context} did not answer in time${tail}`);
    case 'NO_RESPONDERS':
      return new DomainError(ErrorCode.Upstream, `${context} is not reachable`);
    case 'HANDLER_FAILED':
    case 'BAD_REPLY':
      logger.error(`${context} failed: ${error.message}`);
      return new DomainError(ErrorCode.Upstream, `${context} failed to answer${tail}`);
  }
}
