import { PollingLoop } from '@app/common';
import { HostMessageFormat, HostResponseV1, REVERSAL_QUEUED_CLAUSE } from '@app/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { HostConnectorConfig } from '../config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { HostRoute } from '../hosts/host-exchange';
import { AbandonedRequest, RequestLogRepository } from '../request-log/persistence/request-log.repository';
import { replyWithout } from '../requests/host-response';
import { parseHostUrl } from '../routing/host-address';
import { ReversalRepository } from './persistence/reversal.repository';
import { ReversalQueue } from './reversal-queue';

const BATCH = 20;

/**
 * Crash recovery: a reversible request whose handler stopped after sending (the process was
 * killed, the database went away) has no outcome recorded, and the host may have approved it.
 * Its recovery record was written before sending, so once its deadline and HOST_RECOVERY_GRACE_MS
 * have passed, any replica queues the reversal it needs and records the request as REVERSED; a
 * caller repeating the requestId gets that reply.
 */
@Injectable()
export class RequestRecovery {
  private readonly logger = new Logger('RequestRecovery');
  private readonly loop: PollingLoop;

  constructor(
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
    private readonly requestLog: RequestLogRepository,
    private readonly reversals: ReversalRepository,
    private readonly queue: ReversalQueue,
  ) {
    this.loop = new PollingLoop(this.logger, config.reversal.pollIntervalMs, async () => (await this.recoverNow()) === BATCH);
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass; answers how many requests were recovered. */
  recoverNow(): Promise<number> {
    return this.requestLog.recoverAbandoned(this.config.recoveryGraceMs, BATCH, (request) => this.recover(request));
  }

  private async recover(request: AbandonedRequest): Promise<HostResponseV1> {
    const reason = `${request.operation} ${request.requestId} was left unfinished after it was sent (the connector stopped before recording the host's answer)`;
    // A reversal queued by an earlier pass that stopped before recording the reply is not queued twice.
    if (!(await this.reversals.existsFor(request.requestId))) {
      const route: HostRoute =
        request.hostUrl === null ? { kind: 'mock' } : { kind: 'remote', address: parseHostUrl(request.format as HostMessageFormat, request.hostUrl) };
      // A request that was the reversal itself may have reached the host: it is repeated (0401, same STAN and time), not sent anew.
      await this.queue.enqueue(route, request.pendingReversal, reason, request.sentReversal);
    }
    this.logger.warn(`${reason}: reversal queued`);
    // The reply names what was sent, as the handler's own would have: the reversal itself, else the original it reverses.
    const sent = request.sentReversal ?? request.pendingReversal.original;
    return replyWithout(request.requestId, 'REVERSED', `${reason}${REVERSAL_QUEUED_CLAUSE}`, sent);
  }
}
