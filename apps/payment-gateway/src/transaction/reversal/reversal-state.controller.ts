import { ContractViolationError, decodeContract, HOST_REVERSAL_UPDATED_V1, HostReversalUpdatedV1 } from '@app/contracts';
import { EventContext, MessagingController, PoisonMessageError } from '@app/messaging';
import { Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { REVERSAL_STATE_CONSUMER } from './reversal-state.consumer';
import { ReversalStates } from './reversal-states.service';

/**
 * The boundary of `host.reversal.updated.v1`, consumed durably as {@link REVERSAL_STATE_CONSUMER}:
 * a payload that breaks the contract is dead-lettered; anything else that fails (database down,
 * a lock) is retried.
 */
@MessagingController()
export class ReversalStateController {
  private readonly logger = new Logger('ReversalState');

  constructor(private readonly states: ReversalStates) {}

  @EventPattern(HOST_REVERSAL_UPDATED_V1, { consumer: REVERSAL_STATE_CONSUMER })
  async updated(@Payload() payload: unknown, @Ctx() context: EventContext): Promise<void> {
    let update: HostReversalUpdatedV1;
    try {
      update = decodeContract(HostReversalUpdatedV1, payload);
    } catch (error) {
      if (error instanceof ContractViolationError) throw new PoisonMessageError(error.message);
      throw error;
    }
    const outcome = await this.states.apply(update);
    this.logger.debug(`reversal ${update.reversalId} of ${update.requestId} ${update.state} after ${update.attempts} attempts (${context.getMessage().msgId}): ${outcome}`);
  }
}
