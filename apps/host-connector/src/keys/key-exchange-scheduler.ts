import { PollingLoop } from '@app/common';
import { HostMessageFormat, HostTargetV1 } from '@app/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { HostConnectorConfig } from '../config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { groupIdOfScope } from '../routing/group-scope';
import { resolveHostAddress } from '../routing/host-address';
import { DueKeyExchange, WorkingKeyRepository } from './persistence/working-key.repository';
import { KeyExchangeService } from './key-exchange.service';
import { TerminalOwners } from '../terminals/terminal-owners';

/**
 * Replaces working keys before they grow old: a key that has been in use for
 * HOST_KEY_EXCHANGE_INTERVAL_MS is exchanged (0800, field 70 = 101 or the spec's
 * `host.keyExchangeCode`; the JSON formats' key exchange) with the host it came from, and the new
 * key is checked and stored like a sign-on's. A failed exchange keeps the current key and is
 * tried again after HOST_KEY_EXCHANGE_RETRY_MS; so is one that followed a sign-on without a key
 * (the terminal has none until it succeeds), even with HOST_KEY_EXCHANGE_INTERVAL_MS=0.
 * Replicas share the work through the database (a due key is leased before it is sent).
 */
@Injectable()
export class KeyExchangeScheduler {
  private readonly logger = new Logger('KeyExchange');
  private readonly loop: PollingLoop;

  constructor(
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
    private readonly keys: WorkingKeyRepository,
    private readonly keyExchange: KeyExchangeService,
    private readonly owners: TerminalOwners,
  ) {
    this.loop = new PollingLoop(this.logger, config.keyExchange.pollIntervalMs, async () => {
      const due = await this.keys.claimDueExchange(this.config.keyExchange.retryMs);
      if (due) await this.exchange(due);
      return due !== null;
    });
  }

  /** Always runs: with scheduled replacement off it still retries the exchanges of terminals left without a key. */
  start(): void {
    this.loop.start();
  }

  /** Stops after the exchange in progress. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One key exchange; failures are logged and left to the lease to retry. */
  async exchange(due: DueKeyExchange): Promise<void> {
    const label = `${due.format} ${due.endpoint} TID ${due.tid}${due.groupId === '' ? '' : ` of ${due.groupId}`}`;
    const kept = due.keyCheckValue === null ? 'the terminal still has no working key' : `the key ${due.keyCheckValue} stays in use`;
    const retry = `${kept}; next attempt in ${this.config.keyExchange.retryMs} ms`;
    const format = due.format as HostMessageFormat;
    const { groupId } = groupIdOfScope(due.groupId);
    const checked = resolveHostAddress(format, due.hostUrl, this.config, groupId);
    if (!checked.ok) {
      this.logger.warn(`${label}: key exchange not sent: ${checked.message}; ${retry}`);
      return;
    }
    const target: HostTargetV1 = {
      hostMessageFormat: format,
      connUrl: due.hostUrl,
      acptId: due.acptId,
      mid: due.mid,
      tid: due.tid,
      ...(due.acquirerId === null ? {} : { acquirerId: due.acquirerId }),
      ...groupIdOfScope(due.groupId),
    };
    // A key exchange keeps a terminal's key; it never makes a terminal the PBO's (review r14k): only a sale or a sign-on does.
    const use = await this.owners.mayUse(target, checked.address, 'check');
    if (!use.ok && use.result === 'REJECTED') {
      // A key of another PBO's terminal (signed on before terminals had one owner): not exchanged, and gone.
      await this.keys.remove(due.groupId, due.format, due.endpoint, due.tid);
      this.logger.warn(`${label}: key exchange not sent and the key dropped: ${use.message}`);
      return;
    }
    if (!use.ok) {
      this.logger.warn(`${label}: key exchange not sent: ${use.message}; ${retry}`);
      return;
    }
    let outcome: Awaited<ReturnType<KeyExchangeService['exchange']>> | undefined;
    try {
      outcome = await this.keyExchange.exchange(checked.address, target, Date.now() + this.config.timeoutMs);
    } finally {
      await this.owners.settle(use, outcome?.kind === 'stored');
    }
    if (outcome.kind === 'stored')
      this.logger.log(`${label}: ${due.keyCheckValue === null ? 'working key' : `working key ${due.keyCheckValue} replaced by`} ${outcome.keyCheckValue}`);
    else this.logger.warn(`${label}: ${outcome.reason}; ${retry}`);
  }
}
