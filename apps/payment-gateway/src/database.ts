import { ContextDatabaseDefinition } from '@app/database';
import { createInboxMigration, InboxMessage } from '@app/messaging/consumer';
import { AcceptanceEntity } from './profile/persistence/acceptance.entity';
import { ProfileAcceptanceEntity } from './profile/persistence/profile-acceptance.entity';
import { ProfileEntity } from './profile/persistence/profile.entity';
import { Profiles1763900001000 } from './migrations/1763900001000-profiles';
import { ProfileTimeZone1763900002000 } from './migrations/1763900002000-profile-time-zone';
import { Webhooks1763900004000 } from './migrations/1763900004000-webhooks';
import { PAYMENT_GATEWAY_CONNECTION, PAYMENT_GATEWAY_SCHEMA } from './shared/inject';
import { WebhookDeliveryEntity } from './webhook/persistence/webhook-delivery.entity';
import { WebhookSecretEntity } from './webhook/persistence/webhook-secret.entity';

export { PAYMENT_GATEWAY_CONNECTION, PAYMENT_GATEWAY_SCHEMA };

/** payment-gateway's schema: its entities and its migrations, nothing else. */
export const paymentGatewayDatabase: ContextDatabaseDefinition = {
  name: PAYMENT_GATEWAY_CONNECTION,
  schema: PAYMENT_GATEWAY_SCHEMA,
  entities: [ProfileEntity, AcceptanceEntity, ProfileAcceptanceEntity, InboxMessage, WebhookSecretEntity, WebhookDeliveryEntity],
  migrations: [createInboxMigration(PAYMENT_GATEWAY_SCHEMA, 1763900000000), Profiles1763900001000, ProfileTimeZone1763900002000, Webhooks1763900004000],
};
