import { DomainError } from '@app/common';
import { ContractViolationError, decodeContract, GATEWAY_PROFILE_UPSERT_V1, GatewayProfileUpsertV1, profileOutcomeKeyOf } from '@app/contracts';
import { batchOf, ConsumedMessage, EventBatchContext, EventContext, MessagingController, PoisonMessageError } from '@app/messaging';
import { ConsumerDefinition, describeError, failureAction } from '@app/messaging/consumer';
import { Inject, Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { PROFILE_UPSERT_CONSUMER } from './profile-upsert.consumer';
import { ProfileSyncService, ReceivedUpsert } from './profile-sync.service';

/**
 * The boundary of `gateway.profile.upsert.v1`, consumed durably as {@link PROFILE_UPSERT_CONSUMER}.
 * A payload that breaks the contract is dead-lettered, never applied; refusals by the domain (a
 * profile of another group) are final too; anything else (database down, lock conflicts) is
 * retried. Whatever is dead-lettered is told to merchant-management as a REJECTED outcome with
 * its reason (when the upsert can be named), so the device shows it (docs/decisions.md, "Profile
 * sync state").
 */
@MessagingController()
export class ProfileUpsertController {
  private readonly logger = new Logger('ProfileUpsert');

  constructor(
    private readonly sync: ProfileSyncService,
    @Inject(PROFILE_UPSERT_CONSUMER) private readonly consumer: ConsumerDefinition,
  ) {}

  /** Decoded here, not by the messaging pipe: a payload that breaks the contract still names the profile it is refused for. */
  @EventPattern(GATEWAY_PROFILE_UPSERT_V1, { consumer: PROFILE_UPSERT_CONSUMER })
  async upsert(@Payload() payload: unknown, @Ctx() context: EventContext): Promise<void> {
    let upsert: GatewayProfileUpsertV1;
    try {
      upsert = decodeContract(GatewayProfileUpsertV1, payload);
    } catch (error) {
      if (!(error instanceof ContractViolationError)) throw error;
      await this.refuse(payload, error.message);
      throw new PoisonMessageError(error.message);
    }
    try {
      const outcome = await this.sync.apply(upsert, context.receipt());
      this.logger.debug(`${upsert.profileId} version ${upsert.version} (${context.getMessage().msgId}): ${outcome}`);
    } catch (error) {
      if (error instanceof DomainError) {
        await this.refuse(payload, error.message);
        throw new PoisonMessageError(error.message);
      }
      const action = failureAction(error, context.getMessage().deliveryCount, this.consumer);
      if (action.kind === 'dead-letter') {
        // Its last delivery: told as REJECTED if the database takes it; the dead letter is written either way.
        await this.refuse(payload, action.reason).catch((refusal: unknown) => this.logger.error(`could not record the refusal of ${context.getMessage().msgId}: ${describeError(refusal)}`));
      }
      throw error;
    }
  }

  /** Queues the REJECTED outcome of a refused upsert; one that names no profile is only dead-lettered. */
  private async refuse(payload: unknown, reason: string): Promise<void> {
    const key = profileOutcomeKeyOf(payload);
    if (!key) {
      this.logger.warn(`an upsert that names no profile was refused: ${reason}`);
      return;
    }
    await this.sync.reject(key, reason);
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
