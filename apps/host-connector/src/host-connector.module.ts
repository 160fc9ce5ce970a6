import { DatabaseModule, databaseProbeProvider, PruneRule, RetentionModule } from '@app/database';
import { OutboxModule, outboxPruneRule } from '@app/messaging';
import { ConsumerDefinition } from '@app/messaging/consumer';
import { DynamicModule, Module } from '@nestjs/common';
import { HostConnectorConfig } from './config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from './config/config.token';
import { hostConnectorDatabase } from './database';
import { HostConnectorHealth } from './health/host-connector-health.service';
import { HostConnectorLifecycle } from './host-connector.lifecycle';
import { HostRouter } from './hosts/host-router';
import { IsoHostClient } from './hosts/iso-host.client';
import { JsonHostClient } from './hosts/json-host.client';
import { MockHost } from './hosts/mock-host';
import { WorkingKeyRepository } from './keys/persistence/working-key.repository';
import { KeptCardRepository } from './card-data/persistence/kept-card.repository';
import { KeyExchangeScheduler } from './keys/key-exchange-scheduler';
import { KeyExchangeService } from './keys/key-exchange.service';
import { WorkingKeyService } from './keys/working-key.service';
import { HOST_PROTOCOLS, HostProtocols, hostProtocolsFor } from './protocol/host-protocols';
import { RequestLogRepository } from './request-log/persistence/request-log.repository';
import { HostRequestController } from './requests/host-request.controller';
import { HostAddressCheckController } from './routing/host-address-check.controller';
import { HostRequestService } from './requests/host-request.service';
import { ReversalRepository } from './reversal/persistence/reversal.repository';
import { LateAnswers } from './reversal/late-answers';
import { ReversalQueue } from './reversal/reversal-queue';
import { ReversalWorker } from './reversal/reversal-worker';
import { RequestRecovery } from './reversal/request-recovery';
import { EchoKeeper } from './sessions/echo-keeper';
import { IsoSessionPool } from './sessions/iso-session-pool';
import { TerminalClaimRepository } from './terminals/persistence/terminal-claim.repository';
import { TerminalOwners } from './terminals/terminal-owners';
import { TERMINAL_RELEASED_CONSUMER, terminalReleasedConsumer } from './terminals/terminal-released.consumer';
import { TerminalReleasedController } from './terminals/terminal-released.controller';
import { StanRepository } from './stan/persistence/stan.repository';

export interface HostConnectorModuleOptions {
  /** Replaces the protocol libraries (tests with a scripted dialect). */
  protocols?: HostProtocols;
  /** Replaces the consumer of `gateway.terminal.released.v1` (a run on a shared NATS server: its own stream, or an idle one). */
  terminalReleased?: ConsumerDefinition;
}

/**
 * The host-connector bounded context: answers `host.*.v1` (HostRequestController, queue group
 * `host-connector`) through the process's request/reply strategy, speaks ISO 8583 over TCP and JSON over HTTP to
 * acquirer hosts, answers MOCK in process, consumes `gateway.terminal.released.v1` (a PBO's claims of a
 * terminal the gateway released go), and keeps STAN counters, working keys, the reversal
 * queue and the request log on its own schema. Needs `platformModules` (database URL, field
 * cipher, messaging) from the application that hosts it.
 */
/**
 * Finished request-log rows (a repeat of their requestId would now be a new request) and
 * acknowledged reversals, after HOST_RETENTION_DAYS; unfinished ones are never pruned. Kept card
 * data once it expires (HOST_CARD_DATA_DAYS after it was sent).
 */
/** How long the connector keeps the time of a terminal's release (`terminal_release`). */
const RELEASE_KEPT_MS = 24 * 60 * 60_000;

export function hostConnectorPruneRules(retentionMs: number): PruneRule[] {
  const cutoff = () => new Date(Date.now() - retentionMs);
  return [
    { table: 'request_log', condition: 'started_at < $1 AND response IS NOT NULL', cutoff },
    { table: 'reversal', condition: "status = 'ACKNOWLEDGED' AND acknowledged_at < $1", cutoff },
    // Sealed card data kept for follow-ups goes when its own time (HOST_CARD_DATA_DAYS) is up.
    { table: 'kept_card', condition: 'expires_at < $1', cutoff: () => new Date() },
    // A release need outlive only the requests in flight when it ran (each bounded by its deadline, at most minutes).
    { table: 'terminal_release', condition: 'released_at < $1', cutoff: () => new Date(Date.now() - RELEASE_KEPT_MS) },
  ];
}

@Module({})
export class HostConnectorModule {
  static register(config: HostConnectorConfig, options: HostConnectorModuleOptions = {}): DynamicModule {
    return {
      module: HostConnectorModule,
      imports: [
        DatabaseModule.forContext(hostConnectorDatabase),
        OutboxModule.forContext({ connection: hostConnectorDatabase.name }),
        RetentionModule.forContext({
          connection: hostConnectorDatabase.name,
          rules: (retention) => [...hostConnectorPruneRules(config.retentionMs), outboxPruneRule(retention.messagesMs)],
        }),
      ],
      controllers: [HostRequestController, HostAddressCheckController, TerminalReleasedController],
      providers: [
        { provide: HOST_CONNECTOR_CONFIG, useValue: config },
        { provide: HOST_PROTOCOLS, useValue: options.protocols ?? hostProtocolsFor(config.specs, config.jsonSpecs) },
        { provide: TERMINAL_RELEASED_CONSUMER, useValue: options.terminalReleased ?? terminalReleasedConsumer },
        StanRepository,
        WorkingKeyRepository,
        ReversalRepository,
        RequestLogRepository,
        KeptCardRepository,
        TerminalClaimRepository,
        TerminalOwners,
        databaseProbeProvider(hostConnectorDatabase.name),
        IsoSessionPool,
        IsoHostClient,
        JsonHostClient,
        MockHost,
        HostRouter,
        WorkingKeyService,
        KeyExchangeService,
        KeyExchangeScheduler,
        ReversalQueue,
        ReversalWorker,
        LateAnswers,
        RequestRecovery,
        EchoKeeper,
        HostRequestService,
        HostConnectorHealth,
        HostConnectorLifecycle,
      ],
      exports: [HostConnectorHealth],
    };
  }
}
