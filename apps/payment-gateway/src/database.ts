import { ContextDatabaseDefinition } from '@app/database';
import { createOutboxMigration, OutboxMessage } from '@app/messaging';
import { createInboxMigration, InboxMessage } from '@app/messaging/consumer';
import { AcceptanceEntity } from './profile/persistence/acceptance.entity';
import { ProfileAcceptanceEntity } from './profile/persistence/profile-acceptance.entity';
import { ProfileEntity } from './profile/persistence/profile.entity';
import { TerminalIdentityEntity } from './profile/persistence/terminal-identity.entity';
import { Profiles1763900001000 } from './migrations/1763900001000-profiles';
import { ProfileTimeZone1763900002000 } from './migrations/1763900002000-profile-time-zone';
import { Webhooks1763900004000 } from './migrations/1763900004000-webhooks';
import { Transactions1763900003000 } from './migrations/1763900003000-transactions';
import { TransactionFollowUps1763900005000 } from './migrations/1763900005000-transaction-follow-ups';
import { ProfileRetired1763900006000 } from './migrations/1763900006000-profile-retired';
import { AcceptanceHostUrl1763900007000 } from './migrations/1763900007000-acceptance-host-url';
import { TransactionAcceptanceName1763900008000 } from './migrations/1763900008000-transaction-acceptance-name';
import { ActionHostOrderId1763900008600 } from './migrations/1763900008600-action-host-order-id';
import { ProfileActiveSdkId1763900008700 } from './migrations/1763900008700-profile-active-sdk-id';
import { TerminalSettleHold1763900008800 } from './migrations/1763900008800-terminal-settle-hold';
import { TransactionTimeZone1763900013300 } from './migrations/1763900013300-transaction-time-zone';
import { TransactionCardRead1764800000000 } from './migrations/1764800000000-transaction-card-read';
import { ActionClientRequestId801764800001000 } from './migrations/1764800001000-action-client-request-id-80';
import { ActionReversal1764800002000 } from './migrations/1764800002000-action-reversal';
import { TerminalIdentity1764800003000 } from './migrations/1764800003000-terminal-identity';
import { TerminalIdentityTrimmed1764800004000 } from './migrations/1764800004000-terminal-identity-trimmed';
import { ActionLegacyRequestId1764800004713 } from './migrations/1764800004713-action-legacy-request-id';
import { TerminalIdentityHostCanonical1795797724019 } from './migrations/1795797724019-terminal-identity-host-canonical';
import { ProfileKeepsTerminals1795800000000 } from './migrations/1795800000000-profile-keeps-terminals';
import { TransactionRepublishEntity } from './transaction/acquirer-key/transaction-republish.entity';
import { BatchPerAcquirer1795830000000 } from './migrations/1795830000000-batch-per-acquirer';
import { ConstantEnumChecks1795900000000 } from './migrations/1795900000000-constant-enum-checks';
import { AcceptanceAcquirerRef1795820000000 } from './migrations/1795820000000-acceptance-acquirer-ref';
import { BatchSettlementEntity } from './transaction/settlement/persistence/batch-settlement.entity';
import { IdempotencyKeyEntity } from './transaction/persistence/idempotency-key.entity';
import { TerminalBatchEntity } from './transaction/persistence/terminal-batch.entity';
import { TransactionActionEntity } from './transaction/persistence/transaction-action.entity';
import { PaymentTransactionEntity } from './transaction/persistence/transaction.entity';
import { PAYMENT_GATEWAY_CONNECTION, PAYMENT_GATEWAY_SCHEMA } from './shared/inject';
import { WebhookDeliveryEntity } from './webhook/persistence/webhook-delivery.entity';
import { WebhookSecretEntity } from './webhook/persistence/webhook-secret.entity';

export { PAYMENT_GATEWAY_CONNECTION, PAYMENT_GATEWAY_SCHEMA };

/** payment-gateway's schema: its entities and its migrations, nothing else. */
export const paymentGatewayDatabase: ContextDatabaseDefinition = {
  name: PAYMENT_GATEWAY_CONNECTION,
  schema: PAYMENT_GATEWAY_SCHEMA,
  entities: [
    ProfileEntity,
    AcceptanceEntity,
    ProfileAcceptanceEntity,
    TerminalIdentityEntity,
    InboxMessage,
    PaymentTransactionEntity,
    TransactionActionEntity,
    TerminalBatchEntity,
    IdempotencyKeyEntity,
    BatchSettlementEntity,
    OutboxMessage,
    WebhookSecretEntity,
    WebhookDeliveryEntity,
    TransactionRepublishEntity,
  ],
  migrations: [
    createInboxMigration(PAYMENT_GATEWAY_SCHEMA, 1763900000000),
    Profiles1763900001000,
    ProfileTimeZone1763900002000,
    Transactions1763900003000,
    // Transaction events leave through it (gateway.transaction.updated.v1).
    createOutboxMigration(PAYMENT_GATEWAY_SCHEMA, 1763900003100),
    Webhooks1763900004000,
    TransactionFollowUps1763900005000,
    ProfileRetired1763900006000,
    AcceptanceHostUrl1763900007000,
    TransactionAcceptanceName1763900008000,
    ActionHostOrderId1763900008600,
    ProfileActiveSdkId1763900008700,
    TerminalSettleHold1763900008800,
    TransactionTimeZone1763900013300,
    TransactionCardRead1764800000000,
    ActionClientRequestId801764800001000,
    ActionReversal1764800002000,
    TerminalIdentity1764800003000,
    TerminalIdentityTrimmed1764800004000,
    ActionLegacyRequestId1764800004713,
    TerminalIdentityHostCanonical1795797724019,
    ProfileKeepsTerminals1795800000000,
    AcceptanceAcquirerRef1795820000000,
    BatchPerAcquirer1795830000000,
    ConstantEnumChecks1795900000000,
  ],
};
