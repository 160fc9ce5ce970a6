import { Clock, CryptoIdGenerator, IdGenerator, SystemClock } from '@app/common';
import { DatabaseModule, RetentionModule, unitOfWorkProviders } from '@app/database';
import { HostClient, Inbox, inboxPruneRule, OutboxModule, outboxPruneRule } from '@app/messaging';
import { GATEWAY_NAMESPACE_SETTING } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import { PAYMENT_GATEWAY_CONNECTION, paymentGatewayDatabase } from './database';
import { PaymentGatewayOptions } from './payment-gateway.options';
import { AcceptanceRepository } from './profile/persistence/acceptance.repository';
import { TerminalIdentityRepository } from './profile/persistence/terminal-identity.repository';
import { ProfileRepository } from './profile/persistence/profile.repository';
import { ProfileController } from './profile/profile.controller';
import { ProfileService } from './profile/profile.service';
import { PROFILE_UPSERT_CONSUMER, profileUpsertConsumer } from './profile-sync/profile-upsert.consumer';
import { ProfileUpsertController } from './profile-sync/profile-upsert.controller';
import { ProfileSyncService } from './profile-sync/profile-sync.service';
import { ProfileOutcomeRepository } from './profile-sync/persistence/profile-outcome.repository';
import { SignOnService } from './sign-on/sign-on.service';
import { GatewayErrorFormat } from './shared/error-format';
import { GATEWAY_NAMESPACE } from './shared/namespace';
import { AcquirerKeyRepublisher } from './transaction/acquirer-key/acquirer-key-republisher';
import { AuthorizationCloser } from './transaction/authorization-close/authorization-closer';
import { FollowUpController } from './transaction/follow-up/follow-up.controller';
import { FollowUpService } from './transaction/follow-up/follow-up.service';
import { IdempotencyRepository } from './transaction/persistence/idempotency.repository';
import { BatchSettlementRepository } from './transaction/settlement/persistence/batch-settlement.repository';
import { BatchSettlementService } from './transaction/settlement/batch-settlement.service';
import { TransactionChangeWriter } from './transaction/transaction-change-writer';
import { TransactionRequestController } from './transaction/transaction-requests.controller';
import { IdempotencyService, idempotencyKeyPruneRule } from './transaction/idempotency.service';
import { PendingSaleResolver } from './transaction/pending-sale-resolver';
import { TerminalBatchRepository } from './transaction/persistence/terminal-batch.repository';
import { TransactionRepository } from './transaction/persistence/transaction.repository';
import { SaleController } from './transaction/sale.controller';
import { SaleRecorder } from './transaction/sale-recorder';
import { SaleService } from './transaction/sale.service';
import { SaleProfiles } from './transaction/sale-profiles';
import { TransactionController } from './transaction/transaction.controller';
import { TransactionViews } from './transaction/transaction-views';
import { DEFAULT_TRANSACTION_SETTINGS, TRANSACTION_SETTINGS } from './transaction/transaction-settings';
import { REVERSAL_STATE_CONSUMER, reversalStateConsumer } from './transaction/reversal/reversal-state.consumer';
import { ReversalStateController } from './transaction/reversal/reversal-state.controller';
import { ReversalStates } from './transaction/reversal/reversal-states.service';
import { WEBHOOK_CONTROLLERS, webhookDeliveryPruneRule, webhookProviders } from './webhook/webhook.providers';

/**
 * The payment-gateway bounded context: gateway profiles and acceptances, transactions and their
 * actions on its own schema, the API under `/{GATEWAY_NAMESPACE}/api/v1` (problem-details
 * errors), the consumer of merchant-management's profile upserts, the outbox of its transaction
 * events and their webhooks. Needs `platformModules` (database URL, auth with device tokens,
 * field cipher, messaging) from the application that hosts it, and is loaded through
 * {@link PaymentGatewayModule.register} with its own options.
 */
@Module({
  imports: [DatabaseModule.forContext(paymentGatewayDatabase), OutboxModule.forContext({ connection: PAYMENT_GATEWAY_CONNECTION })],
  controllers: [ProfileController, ProfileUpsertController, SaleController, TransactionController, FollowUpController, TransactionRequestController, ReversalStateController],
  providers: [
    { provide: GATEWAY_NAMESPACE, useExisting: GATEWAY_NAMESPACE_SETTING },
    ...unitOfWorkProviders(PAYMENT_GATEWAY_CONNECTION),
    { provide: Clock, useClass: SystemClock },
    { provide: IdGenerator, useClass: CryptoIdGenerator },
    GatewayErrorFormat,
    ProfileRepository,
    AcceptanceRepository,
    TerminalIdentityRepository,
    ProfileService,
    HostClient,
    SignOnService,
    Inbox,
    ProfileOutcomeRepository,
    ProfileSyncService,
    { provide: PROFILE_UPSERT_CONSUMER, useValue: profileUpsertConsumer },
    TransactionRepository,
    TerminalBatchRepository,
    IdempotencyRepository,
    IdempotencyService,
    SaleRecorder,
    TransactionViews,
    SaleProfiles,
    SaleService,
    PendingSaleResolver,
    TransactionChangeWriter,
    FollowUpService,
    BatchSettlementRepository,
    BatchSettlementService,
    AuthorizationCloser,
    AcquirerKeyRepublisher,
    ReversalStates,
    { provide: REVERSAL_STATE_CONSUMER, useValue: reversalStateConsumer },
  ],
})
export class PaymentGatewayModule {
  static register(options: PaymentGatewayOptions): DynamicModule {
    return {
      module: PaymentGatewayModule,
      imports: [
        RetentionModule.forContext({
          connection: PAYMENT_GATEWAY_CONNECTION,
          rules: (retention) => [
            inboxPruneRule(retention.messagesMs),
            outboxPruneRule(retention.messagesMs),
            idempotencyKeyPruneRule(),
            webhookDeliveryPruneRule(options.webhooks.retentionMs),
          ],
        }),
      ],
      controllers: WEBHOOK_CONTROLLERS,
      providers: [{ provide: TRANSACTION_SETTINGS, useValue: { ...DEFAULT_TRANSACTION_SETTINGS, ...options.transactions } }, ...webhookProviders(options.webhooks)],
    };
  }
}
