import { RequestReplyServer } from '@app/messaging';
import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { MockHost } from './hosts/mock-host';
import { HOST_CONNECTOR_QUEUE_GROUP } from './requests/host-subjects';
import { KeyExchangeScheduler } from './keys/key-exchange-scheduler';
import { ReversalWorker } from './reversal/reversal-worker';
import { RequestRecovery } from './reversal/request-recovery';
import { EchoKeeper } from './sessions/echo-keeper';
import { IsoSessionPool } from './sessions/iso-session-pool';

/**
 * Starts the connector's workers once the application is up (the messaging module serves the
 * requests), and stops the connector in order before the transport drains and the database
 * closes: first stop taking requests (waiting for those in flight), then the reversal worker, the
 * key exchanges and the echoes, then the host sessions.
 */
@Injectable()
export class HostConnectorLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly requests: RequestReplyServer,
    private readonly worker: ReversalWorker,
    private readonly echoes: EchoKeeper,
    private readonly pool: IsoSessionPool,
    private readonly mock: MockHost,
    private readonly keyExchange: KeyExchangeScheduler,
    private readonly recovery: RequestRecovery,
  ) {}

  onApplicationBootstrap(): void {
    this.worker.start();
    this.echoes.start();
    this.keyExchange.start();
    this.recovery.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.mock.close();
    // Its own queue group only, and first: the messaging module stops serving only after every context's onModuleDestroy.
    await this.requests.close(HOST_CONNECTOR_QUEUE_GROUP);
    await this.worker.stop();
    await this.keyExchange.stop();
    await this.recovery.stop();
    await this.echoes.stop();
    await this.pool.close();
  }
}
