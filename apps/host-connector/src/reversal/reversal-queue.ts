import type { HostFollowUpRequestV1, HostQueuedReversalV1 } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { HostRoute, SentMessage } from '../hosts/host-exchange';
import { MOCK_ENDPOINT, MOCK_URL } from '../hosts/mock-host';
import { StanRepository } from '../stan/persistence/stan.repository';
import { ReversalRepository } from './persistence/reversal.repository';

/**
 * A reversal that went on the wire before it was queued (a caller's own `host.reverse.v1`, a void
 * sent as a reversal) and got no answer: what it was sent with. The queue repeats that message.
 */
export type SentReversal = Pick<SentMessage, 'stan' | 'at'>;

/**
 * Puts reversals in the persistent queue the {@link ReversalWorker}s work. A reversal of the
 * connector's own gets its STAN and transmission time here, once, and goes as 0400 (0420) first;
 * one already sent (`sent`) keeps the STAN and time it was sent with and is owed as the 1987
 * repeat (0401/0421) from its first attempt on, as a terminal repeats an unanswered reversal. Every
 * repeat goes with that STAN and time. The in-process MOCK host is recorded as having acknowledged
 * at once.
 */
@Injectable()
export class ReversalQueue {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly reversals: ReversalRepository,
    private readonly stans: StanRepository,
  ) {}

  /** Answers the reversal as queued (as its first `host.reversal.updated.v1` says it), for the reply that says it was reversed. */
  async enqueue(route: HostRoute, reversal: HostFollowUpRequestV1, reason: string, sent?: SentReversal): Promise<HostQueuedReversalV1> {
    const tid = reversal.target.tid;
    const [format, endpoint, hostUrl] = route.kind === 'mock' ? ['MOCK', MOCK_ENDPOINT, MOCK_URL] : [route.address.format, route.address.endpoint, route.address.url];
    const row = {
      requestId: reversal.requestId,
      format,
      hostUrl,
      tid,
      stan: sent?.stan ?? (await this.stans.next(format, endpoint, tid)),
      transmittedAt: sent?.at ?? new Date(),
      transmissions: sent === undefined ? 0 : 1,
      // `attempts` counts every transmission, the first included: a message already sent was the first attempt (docs/decisions.md, "Reversal attempts").
      attempts: sent === undefined ? 0 : 1,
      // The repeat of a message that was itself the reversal (a caller's own, a void sent as one) completes that request when acknowledged.
      effect: sent === undefined ? ('UNDOES_REQUEST' as const) : ('COMPLETES_REQUEST' as const),
      request: reversal,
      reason: reason.slice(0, 200),
    };
    const queued =
      route.kind === 'mock'
        ? await this.reversals.recordAcknowledged({ ...row, attempts: row.attempts + 1, transmissions: row.transmissions + 1 }, '00')
        : await this.reversals.enqueue(row);
    if (route.kind !== 'mock') for (const listener of this.listeners) listener();
    const { requestId: _requestId, ...state } = queued;
    return state;
  }
  /** Calls `listener` after each enqueue (the worker of this process wakes up). */
  onEnqueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
