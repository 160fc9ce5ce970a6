import { databaseProbeProvider, RetentionModule } from '@app/database';
import { OutboxModule, outboxPruneRule } from '@app/messaging';
import { GATEWAY_NAMESPACE_SETTING } from '@app/runtime';
import { Module } from '@nestjs/common';
import { ActivationProfileService } from './activation-profile/activation-profile.service';
import { ActivationProfileRepository } from './activation-profile/persistence/activation-profile.repository';
import { AcquirerController } from './acquirer/acquirer.controller';
import { AcquirerV2Controller } from './acquirer/legacy/acquirer-v2.controller';
import { AcquirerService } from './acquirer/acquirer.service';
import { AcquirerProfileRepository } from './acquirer/persistence/acquirer-profile.repository';
import { MERCHANT_MANAGEMENT_CONNECTION } from './database';
import { MerchantManagementDatabaseModule, pboModuleWithDatabase } from './database.module';
import { DeviceAppController } from './device-app/device-app.controller';
import { DeviceAppService, GATEWAY_NAMESPACE } from './device-app/device-app.service';
import { CodeThrottleRepository } from './shared/persistence/code-throttle.repository';
import { DeviceAdminService } from './device/device-admin.service';
import { DeviceVerificationController } from './device/device-verification.controller';
import { DeviceController } from './device/device.controller';
import { DeviceV2Controller } from './device/legacy/device-v2.controller';
import { DeviceService } from './device/device.service';
import { DeviceAdminThrottleRepository } from './device/persistence/device-admin-throttle.repository';
import { DeviceRepository } from './device/persistence/device.repository';
import { EmvController } from './emv/emv.controller';
import { EmvV2Controller } from './emv/legacy/emv-v2.controller';
import { EmvService } from './emv/emv.service';
import { EmvConfigRepository } from './emv/persistence/emv-config.repository';
import { HealthController } from './health/health.controller';
import { MerchantV2Controller } from './merchant/legacy/merchant-v2.controller';
import { MerchantController } from './merchant/merchant.controller';
import { MerchantService } from './merchant/merchant.service';
import { MerchantRepository } from './merchant/persistence/merchant.repository';
import { PaymentConfigV2Controller } from './payment-config/legacy/payment-config-v2.controller';
import { PaymentConfigController } from './payment-config/payment-config.controller';
import { PaymentConfigService } from './payment-config/payment-config.service';
import { PaymentConfigRepository } from './payment-config/persistence/payment-config.repository';
import { CurrentController } from './pbo/current.controller';
import { GroupVerificationController } from './pbo/group-verification.controller';
import { PboModule } from './pbo/pbo.module';
import { ProfileSyncRepository } from './profile-sync/persistence/profile-sync.repository';
import { PROFILE_OUTCOME_CONSUMER, profileOutcomeConsumer } from './profile-sync/profile-outcome.consumer';
import { ProfileOutcomeController } from './profile-sync/profile-outcome.controller';
import { ProfileSyncController } from './profile-sync/profile-sync.controller';
import { ProfileSyncService } from './profile-sync/profile-sync.service';

/**
 * The merchant-management bounded context: PBOs, EMV configs, acquirer profiles, merchants and
 * payment configs, on its own schema. Needs `DatabaseModule.forRoot` and `AuthModule.forRoot`
 * from the application that hosts it.
 */
@Module({
  imports: [
    MerchantManagementDatabaseModule,
    pboModuleWithDatabase(),
    OutboxModule.forContext({ connection: MERCHANT_MANAGEMENT_CONNECTION }),
    RetentionModule.forContext({ connection: MERCHANT_MANAGEMENT_CONNECTION, rules: (retention) => [outboxPruneRule(retention.messagesMs)] }),
  ],
  controllers: [
    CurrentController,
    EmvController,
    AcquirerController,
    PaymentConfigController,
    MerchantController,
    DeviceController,
    ProfileSyncController,
    DeviceAppController,
    HealthController,
    // NATS request/reply (docs/architecture.md, "Where a new handler goes").
    DeviceVerificationController,
    GroupVerificationController,
    // The gateway's outcomes of profile upserts (JetStream durable consumer, in process in standalone).
    ProfileOutcomeController,
    // Legacy /api/v2 (docs/decisions.md, "Legacy /api/v2"): thin controllers over the same services.
    EmvV2Controller,
    AcquirerV2Controller,
    PaymentConfigV2Controller,
    MerchantV2Controller,
    DeviceV2Controller,
  ],
  providers: [
    ActivationProfileRepository,
    ActivationProfileService,
    EmvConfigRepository,
    EmvService,
    AcquirerProfileRepository,
    AcquirerService,
    MerchantRepository,
    MerchantService,
    PaymentConfigRepository,
    PaymentConfigService,
    databaseProbeProvider(MERCHANT_MANAGEMENT_CONNECTION),
    DeviceRepository,
    DeviceService,
    DeviceAdminThrottleRepository,
    DeviceAdminService,
    CodeThrottleRepository,
    DeviceAppService,
    ProfileSyncRepository,
    ProfileSyncService,
    { provide: PROFILE_OUTCOME_CONSUMER, useValue: profileOutcomeConsumer },
    // The gateway namespace devices are sent to (GATEWAY_NAMESPACE, default demo).
    { provide: GATEWAY_NAMESPACE, useExisting: GATEWAY_NAMESPACE_SETTING },
  ],
  exports: [PboModule],
})
export class MerchantManagementModule {}
