import { GATEWAY_PROFILE_OUTCOME_V1, GatewayProfileOutcomeV1 } from '@app/contracts';
import { MessagingController } from '@app/messaging';
import { EventPattern, Payload } from '@nestjs/microservices';
import { PROFILE_OUTCOME_CONSUMER } from './profile-outcome.consumer';
import { ProfileSyncService } from './profile-sync.service';

/**
 * The boundary of `gateway.profile.outcome.v1`, consumed durably as {@link PROFILE_OUTCOME_CONSUMER}.
 * A payload that breaks the contract is dead-lettered (the messaging controller validates it);
 * recording is one forward-only UPDATE, so a redelivered outcome needs no inbox; a failure
 * (database down) is retried.
 */
@MessagingController()
export class ProfileOutcomeController {
  constructor(private readonly sync: ProfileSyncService) {}

  @EventPattern(GATEWAY_PROFILE_OUTCOME_V1, { consumer: PROFILE_OUTCOME_CONSUMER })
  async outcome(@Payload() outcome: GatewayProfileOutcomeV1): Promise<void> {
    await this.sync.recordOutcome(outcome);
  }
}
