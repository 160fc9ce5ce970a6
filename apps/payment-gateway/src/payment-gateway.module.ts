import { DatabaseModule, RetentionModule } from '@app/database';
import { HostClient, Inbox, inboxPruneRule } from '@app/messaging';
import { GATEWAY_NAMESPACE_SETTING } from '@app/runtime';
import { Module } from '@nestjs/common';
import { PAYMENT_GATEWAY_CONNECTION, paymentGatewayDatabase } from './database';
import { AcceptanceRepository } from './profile/persistence/acceptance.repository';
import { ProfileRepository } from './profile/persistence/profile.repository';
import { ProfileController } from './profile/profile.controller';
import { ProfileService } from './profile/profile.service';
import { PROFILE_UPSERT_CONSUMER, profileUpsertConsumer } from './profile-sync/profile-upsert.consumer';
import { ProfileUpsertController } from './profile-sync/profile-upsert.controller';
import { ProfileSyncService } from './profile-sync/profile-sync.service';
import { SignOnService } from './sign-on/sign-on.service';
import { GatewayErrorFormat } from './shared/error-format';
import { GATEWAY_NAMESPACE } from './shared/namespace';

/**
 * The payment-gateway bounded context: gateway profiles and acceptances on its own schema, the
 * profile API under `/{GATEWAY_NAMESPACE}/api/v1` (problem-details errors) and the consumer of
 * merchant-management's profile upserts. Needs `platformModules` (database URL, auth, messaging)
 * from the application that hosts it.
 */
@Module({
  imports: [
    DatabaseModule.forContext(paymentGatewayDatabase),
    RetentionModule.forContext({ connection: PAYMENT_GATEWAY_CONNECTION, rules: (retention) => [inboxPruneRule(retention.messagesMs)] }),
  ],
  controllers: [ProfileController, ProfileUpsertController],
  providers: [
    { provide: GATEWAY_NAMESPACE, useExisting: GATEWAY_NAMESPACE_SETTING },
    GatewayErrorFormat,
    ProfileRepository,
    AcceptanceRepository,
    ProfileService,
    HostClient,
    SignOnService,
    Inbox,
    ProfileSyncService,
    { provide: PROFILE_UPSERT_CONSUMER, useValue: profileUpsertConsumer },
  ],
})
export class PaymentGatewayModule {}
