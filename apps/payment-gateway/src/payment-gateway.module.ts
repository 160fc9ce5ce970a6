import { Clock, CryptoIdGenerator, IdGenerator, SystemClock } from '@app/common';
import { DatabaseModule, RetentionModule, unitOfWorkProviders } from '@app/database';
import { HostClient, Inbox, inboxPruneRule } from '@app/messaging';
import { GATEWAY_NAMESPACE_SETTING } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import { PAYMENT_GATEWAY_CONNECTION, paymentGatewayDatabase } from './database';
import { PaymentGatewayOptions } from './payment-gateway.options';
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
import { WEBHOOK_CONTROLLERS, webhookDeliveryPruneRule, webhookProviders } from './webhook/webhook.providers';

/**
 * The payment-gateway bounded context: gateway profiles and acceptances on its own schema, the
 * profile API under `/{GATEWAY_NAMESPACE}/api/v1` (problem-details errors), the consumer of
 * merchant-management's profile upserts and the webhooks of its transactions. Needs
 * `platformModules` (database URL, auth, field cipher, messaging) from the application that
 * hosts it, and is loaded through {@link PaymentGatewayModule.register} with its own options.
 */
@Module({
  imports: [DatabaseModule.forContext(paymentGatewayDatabase)],
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
export class PaymentGatewayModule {
  static register(options: PaymentGatewayOptions): DynamicModule {
    return {
      module: PaymentGatewayModule,
      imports: [
        RetentionModule.forContext({
          connection: PAYMENT_GATEWAY_CONNECTION,
          rules: (retention) => [inboxPruneRule(retention.messagesMs), webhookDeliveryPruneRule(options.webhooks.retentionMs)],
        }),
      ],
      controllers: WEBHOOK_CONTROLLERS,
      providers: [
        ...unitOfWorkProviders(PAYMENT_GATEWAY_CONNECTION),
        { provide: Clock, useClass: SystemClock },
        { provide: IdGenerator, useClass: CryptoIdGenerator },
        ...webhookProviders(options.webhooks),
      ],
    };
  }
}
