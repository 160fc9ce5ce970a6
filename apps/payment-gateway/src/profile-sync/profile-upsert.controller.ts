import { DomainError } from '@app/common';
import { decodeContract, GATEWAY_PROFILE_UPSERT_V1, GatewayProfileUpsertV1 } from '@app/contracts';
import { batchOf, ConsumedMessage, EventBatchContext, EventContext, MessagingController, PoisonMessageError } from '@app/messaging';
import { Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { PROFILE_UPSERT_CONSUMER } from './profile-upsert.consumer';
import { ProfileSyncService, ReceivedUpsert } from './profile-sync.service';

/**
 * The boundary of `gateway.profile.upsert.v1`, consumed durably as {@link PROFILE_UPSERT_CONSUMER}.
 * A payload that breaks the contract is dead-lettered, never applied (the messaging controller
 * validates it); refusals by the domain (a profile of another group) are final too; anything else
 * (database down, lock conflicts) is retried.
 */
@MessagingController()
export class ProfileUpsertController {
  private readonly logger = new Logger('ProfileUpsert');

  constructor(private readonly sync: ProfileSyncService) {}

  @EventPattern(GATEWAY_PROFILE_UPSERT_V1, { consumer: PROFILE_UPSERT_CONSUMER })
  async upsert(@Payload() upsert: GatewayProfileUpsertV1, @Ctx() context: EventContext): Promise<void> {
    try {
      const outcome = await this.sync.apply(upsert, context.receipt());
      this.logger.debug(`${upsert.profileId} version ${upsert.version} (${context.getMessage().msgId}): ${outcome}`);
    } catch (error) {
      if (error instanceof DomainError) throw new PoisonMessageError(error.message);
      throw error;
    }
  }

  /**
   * Applies a batch set-based, all or nothing. Any message that breaks its contract, or any
   * upsert the batch path will not decide (BatchNotApplicable, a conflict), makes this throw with
   * nothing written: the consumer then hands each message to {@link upsert}, which decides it alone.
   */
  @EventPattern(batchOf(GATEWAY_PROFILE_UPSERT_V1), { consumer: PROFILE_UPSERT_CONSUMER })
  async upsertBatch(@Payload() messages: ConsumedMessage[], @Ctx() context: EventBatchContext): Promise<void> {
    const items: ReceivedUpsert[] = messages.map((message) => ({
      upsert: decodeContract(GatewayProfileUpsertV1, message.payload),
      receipt: context.receiptOf(message),
    }));
    const outcomes = await this.sync.applyBatch(items);
    this.logger.debug(`batch of ${items.length}: ${outcomes.filter((outcome) => outcome === 'applied').length} applied`);
  }
}
