import { PollingLoop } from '@app/common';
import { HostMessageFormat, HostNetworkRequestV1 } from '@app/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { HostConnectorConfig } from '../config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { HostRouter } from '../hosts/host-router';
import { resolveHostAddress } from '../routing/host-address';
import { DueKeyExchange, WorkingKeyRepository } from './persistence/working-key.repository';
import { WorkingKeyService } from './working-key.service';

/**
 * Replaces working keys before they grow old: a key that has been in use for
 * HOST_KEY_EXCHANGE_INTERVAL_MS is exchanged (0800, field 70 = 101; the JSON formats' key
 * exchange) with the host it came from, and the new key is checked and stored like a sign-on's.
 * A failed exchange keeps the current key and is tried again after HOST_KEY_EXCHANGE_RETRY_MS.
 * Replicas share the work through the database (a due key is leased before it is sent).
 */
@Injectable()
export class KeyExchangeScheduler {
  private readonly logger = new Logger('KeyExchange');
  private readonly loop: PollingLoop;

  constructor(
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
    private readonly keys: WorkingKeyRepository,
    private readonly workingKeys: WorkingKeyService,
    private readonly router: HostRouter,
  ) {
    this.loop = new PollingLoop(this.logger, config.keyExchange.pollIntervalMs, async () => {
      const due = await this.keys.claimDueExchange(this.config.keyExchange.retryMs);
      if (due) await this.exchange(due);
      return due !== null;
    });
  }

  start(): void {
    if (this.config.keyExchange.intervalMs > 0) this.loop.start();
  }

  /** Stops after the exchange in progress. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One key exchange; failures are logged and left to the lease to retry. */
  async exchange(due: DueKeyExchange): Promise<void> {
    const label = `${due.format} ${due.endpoint} TID ${due.tid}`;
    const retry = `the key ${due.keyCheckValue} stays in use; next attempt in ${this.config.keyExchange.retryMs} ms`;
    const format = due.format as HostMessageFormat;
    const checked = resolveHostAddress(format, due.hostUrl, this.config);
    if (!checked.ok) {
      this.logger.warn(`${label}: key exchange not sent: ${checked.message}; ${retry}`);
      return;
    }
    const request: HostNetworkRequestV1 = {
      requestId: `kex_${randomUUID()}`,
      target: {
        hostMessageFormat: format,
        connUrl: due.hostUrl,
        acptId: due.acptId,
        mid: due.mid,
        tid: due.tid,
        ...(due.acquirerId === null ? {} : { acquirerId: due.acquirerId }),
      },
    };
    const exchange = await this.router.exchange({ kind: 'remote', address: checked.address }, 'keyexchange', request, Date.now() + this.config.timeoutMs);
    if (exchange.kind !== 'answered') {
      this.logger.warn(`${label}: key exchange ${exchange.kind}: ${exchange.reason}; ${retry}`);
      return;
    }
    const { answer } = exchange;
    if (!answer.approved) {
      this.logger.warn(`${label}: key exchange declined with ${answer.hostRespCode} (${answer.hostRespMessage}); ${retry}`);
      return;
    }
    const accepted = await this.workingKeys.accept(
      { format: due.format, endpoint: due.endpoint, tid: due.tid, origin: { hostUrl: due.hostUrl, mid: due.mid, acptId: due.acptId, acquirerId: due.acquirerId } },
      answer,
      'KEY_EXCHANGE',
    );
    if (accepted.kind === 'stored') this.logger.log(`${label}: working key ${due.keyCheckValue} replaced by ${accepted.keyCheckValue}`);
    else if (accepted.kind === 'refused') this.logger.warn(`${label}: key exchange answer refused: ${accepted.reason}; ${retry}`);
    else this.logger.warn(`${label}: the host approved the key exchange but sent no key; ${retry}`);
  }
}
