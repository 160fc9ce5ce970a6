import { ContextDatabaseDefinition } from '@app/database';
import { createOutboxMigration, OutboxMessage } from '@app/messaging';
import { AcquirerProfileEmvEntity } from './acquirer/persistence/acquirer-profile-emv.entity';
import { AcquirerProfileEntity } from './acquirer/persistence/acquirer-profile.entity';
import { ActivationThrottleEntity } from './device-app/persistence/activation-throttle.entity';
import { DeviceAdminThrottleEntity } from './device/persistence/device-admin-throttle.entity';
import { DeviceEntity } from './device/persistence/device.entity';
import { EmvConfigEntity } from './emv/persistence/emv-config.entity';
import { MerchantEntity } from './merchant/persistence/merchant.entity';
import { InitialSchema1763780000000 } from './migrations/1763780000000-initial-schema';
import { Devices1763800000000 } from './migrations/1763800000000-devices';
import { DeviceAdminThrottle1764000000000 } from './migrations/1764000000000-device-admin-throttle';
import { DeviceProfileSync1764060000000 } from './migrations/1764060000000-device-profile-sync';
import { DeviceAdminChecksUnderWay1764071000000 } from './migrations/1764071000000-device-admin-checks-under-way';
import { DeviceActiveSdkBackfill1764100000000 } from './migrations/1764100000000-device-active-sdk-backfill';
import { ConstantEnumChecks1795900000000 } from './migrations/1795900000000-constant-enum-checks';
import { PaymentBindingEntity } from './payment-config/persistence/payment-binding.entity';
import { PaymentMethodBindingEntity } from './payment-config/persistence/payment-method-binding.entity';
import { PaymentMethodEmvEntity } from './payment-config/persistence/payment-method-emv.entity';
import { PboEntity } from './pbo/persistence/pbo.entity';
import { MERCHANT_MANAGEMENT_CONNECTION, MERCHANT_MANAGEMENT_SCHEMA } from './shared/inject';

export { MERCHANT_MANAGEMENT_CONNECTION, MERCHANT_MANAGEMENT_SCHEMA };

/** merchant-management's schema: its entities and its migrations, nothing else. */
export const merchantManagementDatabase: ContextDatabaseDefinition = {
  name: MERCHANT_MANAGEMENT_CONNECTION,
  schema: MERCHANT_MANAGEMENT_SCHEMA,
  entities: [
    PboEntity,
    EmvConfigEntity,
    AcquirerProfileEntity,
    AcquirerProfileEmvEntity,
    MerchantEntity,
    PaymentBindingEntity,
    PaymentMethodBindingEntity,
    PaymentMethodEmvEntity,
    OutboxMessage,
    DeviceEntity,
    ActivationThrottleEntity,
    DeviceAdminThrottleEntity,
  ],
  // The outbox is ready for the events that later features write in their transactions.
  migrations: [InitialSchema1763780000000, createOutboxMigration(MERCHANT_MANAGEMENT_SCHEMA, 1763790000000), Devices1763800000000, DeviceAdminThrottle1764000000000, DeviceProfileSync1764060000000, DeviceAdminChecksUnderWay1764071000000, DeviceActiveSdkBackfill1764100000000, ConstantEnumChecks1795900000000],
};
