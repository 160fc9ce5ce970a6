import type { HostFollowUpRequestV1 } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { HostRoute } from '../hosts/host-exchange';
import { MOCK_ENDPOINT, MOCK_URL } from '../hosts/mock-host';
import { StanRepository } from '../stan/persistence/stan.repository';
import { ReversalRepository } from './persistence/reversal.repository';

/**
 * Puts reversals in the persistent queue the {@link ReversalWorker}s work. The reversal gets its
 * STAN here, once: repeats (0401) go with the same STAN. The in-process MOCK host is recorded as
 * having acknowledged at once.
 */
@Injectable()
export class ReversalQueue {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly reversals: ReversalRepository,
    private readonly stans: StanRepository,
  ) {}

  async enqueue(route: HostRoute, reversal: HostFollowUpRequestV1, reason: string): Promise<string> {
    const tid = reversal.target.tid;
    if (route.kind === 'mock') {
      const stan = await this.stans.next('MOCK', MOCK_ENDPOINT, tid);
      return this.reversals.recordAcknowledged(
        { requestId: reversal.requestId, format: 'MOCK', hostUrl: MOCK_URL, tid, stan, request: reversal, reason: reason.slice(0, 200) },
        '00',
      );
    }
    const { address } = route;
    const stan = await this.stans.next(address.format, address.endpoint, tid);
    const id = await this.reversals.enqueue({
      requestId: reversal.requestId,
      format: address.format,
      hostUrl: address.url,
      tid,
      stan,
      request: reversal,
      reason: reason.slice(0, 200),
    });
    for (const listener of this.listeners) listener();
    return id;
  }

  /** Calls `listener` after each enqueue (the worker of this process wakes up). */
  onEnqueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
