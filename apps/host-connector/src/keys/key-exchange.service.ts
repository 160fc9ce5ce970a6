import { HostNetworkRequestV1, HostTargetV1 } from '@app/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { HostConnectorConfig } from '../config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { unansweredWhy } from '../hosts/host-exchange';
import { HostRouter } from '../hosts/host-router';
import { groupScopeOf } from '../routing/group-scope';
import { HostAddress } from '../routing/host-address';
import { WorkingKeyRepository } from './persistence/working-key.repository';
import { WorkingKeyService } from './working-key.service';

/** How a key exchange ended: the new key stored (its check value), or why the key was not replaced. */
export type KeyExchangeOutcome = { kind: 'stored'; keyCheckValue: string } | { kind: 'failed'; reason: string };

/**
 * One key exchange (0800, field 70 = the spec's `host.keyExchangeCode`, default 101; the JSON
 * formats' key exchange) for a terminal on its host: the key the host issues is checked and stored
 * like a sign-on's. Run on a schedule (KeyExchangeScheduler) and right after a sign-on that brought
 * no key the format needs. A failed exchange comes due again after HOST_KEY_EXCHANGE_RETRY_MS,
 * for a terminal that has no key yet too: the scheduler retries it.
 */
@Injectable()
export class KeyExchangeService {
  constructor(
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
    private readonly workingKeys: WorkingKeyService,
    private readonly keys: WorkingKeyRepository,
    private readonly router: HostRouter,
  ) {}

  async exchange(address: HostAddress, target: HostTargetV1, deadlineAt: number): Promise<KeyExchangeOutcome> {
    const outcome = await this.attempt(address, target, deadlineAt);
    if (outcome.kind === 'failed') {
      const { hostMessageFormat: format, tid, mid, acptId, acquirerId } = target;
      await this.keys.scheduleRetry({
        groupId: groupScopeOf(target),
        format,
        endpoint: address.endpoint,
        tid,
        hostUrl: address.url,
        mid,
        acptId,
        acquirerId: acquirerId ?? null,
        retryInMs: this.config.keyExchange.retryMs,
      });
    }
    return outcome;
  }

  private async attempt(address: HostAddress, target: HostTargetV1, deadlineAt: number): Promise<KeyExchangeOutcome> {
    const request: HostNetworkRequestV1 = { requestId: `kex_${randomUUID()}`, target };
    const exchange = await this.router.exchange({ kind: 'remote', address }, 'keyexchange', request, deadlineAt);
    if (exchange.kind !== 'answered') return { kind: 'failed', reason: `key exchange ${exchange.kind === 'no-answer' && exchange.unreadable ? 'answered' : exchange.kind}: ${unansweredWhy(exchange)}` };
    const { answer } = exchange;
    if (!answer.approved) return { kind: 'failed', reason: `key exchange declined with ${answer.hostRespCode} (${answer.hostRespMessage})` };
    const origin = { hostUrl: address.url, mid: target.mid, acptId: target.acptId, acquirerId: target.acquirerId ?? null };
    const accepted = await this.workingKeys.accept(
      { groupId: groupScopeOf(target), format: target.hostMessageFormat, endpoint: address.endpoint, tid: target.tid, origin },
      answer,
      'KEY_EXCHANGE',
    );
    switch (accepted.kind) {
      case 'stored':
        return accepted;
      case 'refused':
        return { kind: 'failed', reason: `key exchange answer refused: ${accepted.reason}` };
      case 'none':
        return { kind: 'failed', reason: 'the host approved the key exchange but sent no key' };
    }
  }
}
