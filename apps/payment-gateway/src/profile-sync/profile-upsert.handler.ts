import { DomainError } from '@app/common';
import { ContractViolationError, decodeContract, GatewayProfileUpsertV1 } from '@app/contracts';
import { ConsumedMessage, ConsumerDefinition, ConsumerHandler, PoisonMessageError } from '@app/messaging/consumer';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { PROFILE_UPSERT_CONSUMER } from './profile-upsert.consumer';
import { ProfileSyncService, ReceivedUpsert } from './profile-sync.service';

/**
 * The boundary of `gateway.profile.upsert.v1`: validates the payload against its contract (a
 * message that breaks it is dead-lettered, never applied), then applies it. Refusals by the
 * domain (a profile of another group) are final too; anything else (database down, lock
 * conflicts) is retried.
 */
@Injectable()
export class ProfileUpsertHandler implements ConsumerHandler {
  private readonly logger = new Logger('ProfileUpsert');

  constructor(
    private readonly sync: ProfileSyncService,
    @Inject(PROFILE_UPSERT_CONSUMER) private readonly definition: ConsumerDefinition,
  ) {}

  async handle(message: ConsumedMessage): Promise<void> {
    let upsert: GatewayProfileUpsertV1;
    try {
      upsert = decodeContract(GatewayProfileUpsertV1, message.payload);
    } catch (error) {
      if (error instanceof ContractViolationError) throw new PoisonMessageError(error.message);
      throw error;
    }
    try {
      const outcome = await this.sync.apply(upsert, { consumer: this.definition.name, messageId: message.msgId, subject: message.subject });
      this.logger.debug(`${upsert.profileId} version ${upsert.version} (${message.msgId}): ${outcome}`);
    } catch (error) {
      if (error instanceof DomainError) throw new PoisonMessageError(error.message);
      throw error;
    }
  }

  /**
   * Applies a batch set-based, all or nothing. Any message that breaks its contract, or any
   * upsert the batch path will not decide (BatchNotApplicable, a conflict), makes this throw with
   * nothing written: the consumer then hands each message to {@link handle}, which decides it alone.
   */
  async handleBatch(messages: ConsumedMessage[]): Promise<void> {
    const items: ReceivedUpsert[] = messages.map((message) => ({
      upsert: decodeContract(GatewayProfileUpsertV1, message.payload),
      receipt: { consumer: this.definition.name, messageId: message.msgId, subject: message.subject },
    }));
    const outcomes = await this.sync.applyBatch(items);
    this.logger.debug(`batch of ${items.length}: ${outcomes.filter((outcome) => outcome === 'applied').length} applied`);
  }
}
