import { ContextDatabaseDefinition } from '@app/database';
import { createOutboxMigration, OutboxMessage } from '@app/messaging';
import { HostConnector1764100000000 } from './migrations/1764100000000-host-connector';
import { WorkingKeyExchange1764200000000 } from './migrations/1764200000000-working-key-exchange';
import { RequestLogRecovery1764300000000 } from './migrations/1764300000000-request-log-recovery';
import { ReversalLastResponseCode1764410000000 } from './migrations/1764410000000-reversal-last-response-code';
import { WorkingKeyAcquirer1764416000000 } from './migrations/1764416000000-working-key-acquirer';
import { KeptCard1764420000000 } from './migrations/1764420000000-kept-card';
import { WorkingKeyMissing1764430000000 } from './migrations/1764430000000-working-key-missing';
import { WorkingKeyGroup1764447000000 } from './migrations/1764447000000-working-key-group';
import { KeptCardFollowUp1764460000000 } from './migrations/1764460000000-kept-card-follow-up';
import { ReversalTransmittedAt1764473600000 } from './migrations/1764473600000-reversal-transmitted-at';
import { TerminalClaim1764480000000 } from './migrations/1764480000000-terminal-claim';
import { ReversalEffectAndLease1795793666901 } from './migrations/1795793666901-reversal-effect-and-lease';
import { ReversalOperatorEnd1795810000000 } from './migrations/1795810000000-reversal-operator-end';
import { TerminalRelease1795820000000 } from './migrations/1795820000000-terminal-release';
import { ConstantEnumChecks1795900000000 } from './migrations/1795900000000-constant-enum-checks';
import { SettleHold1795793655688 } from './migrations/1795793655688-settle-hold';
import { TerminalClaimConfirmed1795794198348 } from './migrations/1795794198348-terminal-claim-confirmed';
import { TerminalClaimEntity } from './terminals/persistence/terminal-claim.entity';
import { TerminalReleaseEntity } from './terminals/persistence/terminal-release.entity';
import { KeptCardEntity } from './card-data/persistence/kept-card.entity';
import { WorkingKeyEntity } from './keys/persistence/working-key.entity';
import { RequestLogEntity } from './request-log/persistence/request-log.entity';
import { ReversalEntity } from './reversal/persistence/reversal.entity';
import { SettleHoldEntity } from './reversal/persistence/settle-hold.entity';
import { HOST_CONNECTOR_CONNECTION, HOST_CONNECTOR_SCHEMA } from './shared/inject';
import { StanCounterEntity } from './stan/persistence/stan-counter.entity';

export { HOST_CONNECTOR_CONNECTION, HOST_CONNECTOR_SCHEMA };

/** host-connector's schema: STAN counters, working keys, the reversal queue, the request log, sealed card data kept for follow-ups, who owns which terminal, the settles holding a terminal's reversals and the outbox of its reversal events. */
export const hostConnectorDatabase: ContextDatabaseDefinition = {
  name: HOST_CONNECTOR_CONNECTION,
  schema: HOST_CONNECTOR_SCHEMA,
  entities: [StanCounterEntity, WorkingKeyEntity, ReversalEntity, RequestLogEntity, KeptCardEntity, TerminalClaimEntity, TerminalReleaseEntity, SettleHoldEntity, OutboxMessage],
  migrations: [HostConnector1764100000000, WorkingKeyExchange1764200000000, RequestLogRecovery1764300000000, ReversalLastResponseCode1764410000000, WorkingKeyAcquirer1764416000000,
    KeptCard1764420000000, WorkingKeyMissing1764430000000, WorkingKeyGroup1764447000000, KeptCardFollowUp1764460000000,
    // host.reversal.updated.v1 leaves through it (docs/decisions.md, "A reversal's state reaches the transaction").
    createOutboxMigration(HOST_CONNECTOR_SCHEMA, 1764470000000),
    ReversalTransmittedAt1764473600000,
    TerminalClaim1764480000000,
    ReversalEffectAndLease1795793666901,
    SettleHold1795793655688,
    TerminalClaimConfirmed1795794198348,
    ReversalOperatorEnd1795810000000,
    TerminalRelease1795820000000,
    ConstantEnumChecks1795900000000,
  ],
};
