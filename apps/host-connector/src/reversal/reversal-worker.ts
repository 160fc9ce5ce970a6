import { errorMessage } from '@app/common';
import { HostMessageFormat, HostOriginalV1 } from '@app/contracts';
import { acknowledgementOf, reversalAcknowledgementOf } from '@app/host-protocol';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { HostConnectorConfig } from '../config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { HostRouter } from '../hosts/host-router';
import { HOST_PROTOCOLS, HostProtocols } from '../protocol/host-protocols';
import { checkAllowed, HostAddress, parseHostUrl } from '../routing/host-address';
import { AcknowledgedVoid, DueReversal, ReversalAttemptOutcome, ReversalRepository } from './persistence/reversal.repository';
import { ReversalQueue } from './reversal-queue';

/**
 * Works the reversal queue: each lane claims the next due reversal with a lease committed before
 * sending ({@link ReversalRepository.workNextDue}: no other lane or replica sends it meanwhile, and
 * an attempt a crash cut short counts as transmitted), sends it (0400 the first time it reaches the
 * wire, 0401 after, with the STAN and transmission time kept on the row), and either marks it acknowledged (the host answered with what its format's
 * spec file counts as acknowledging: an ISO spec's `host.reversalAcknowledgedCodes`, default 00 and
 * 94; a JSON spec's approving status words, or a declining one with its `reversalAcknowledgedCodes`,
 * default 94; a duplicate acknowledgement, 94, only on a repeat (something of the reversal was
 * transmitted before) and while no earlier attempt was refused: {@link acknowledgementOf}) or schedules the next attempt with exponential backoff, capped: also after any other
 * answer (12, 25, 30, 96, an unknown outcome…), whose code is kept on the row as `last_resp_code`. Polls the queue
 * and is woken at once by an enqueue in this process.
 */
/**
 * A reversal still unacknowledged this long after it was queued is overdue: the acquirer may
 * hold the cardholder's money. It is retried as before, and reported (error log, readiness
 * `overdueReversals`) for an operator to take up with the acquirer.
 */
export const REVERSAL_OVERDUE_MS = 15 * 60_000;

/** What a claim's lease adds to the exchange deadline (connect, a slow database, a busy event loop). */
export const REVERSAL_LEASE_MARGIN_MS = 30_000;

/** A settle's hold on its terminal's reversals: the STANs of those it could not get acknowledged first, and the release. */
export interface SettleHold {
  stillPending: string[];
  /**
   * The voids sent as reversals (COMPLETES_REQUEST) still PENDING whose repeat under the hold got
   * no refusal (unanswered, still on the wire, or not sent in the time): the host may have voided
   * their originals, or may yet (docs/decisions.md, "A void acknowledged while its batch settles").
   */
  unansweredVoids: Array<{ stan: string; original: HostOriginalV1 }>;
  /** When the hold began, by the database's clock (what `acknowledgedAt` is read against). */
  since: Date;
  /** The terminal's voids sent as reversals that the host has acknowledged (their repeats), at this host. */
  acknowledgedVoids(): Promise<AcknowledgedVoid[]>;
  release(): Promise<void>;
}

@Injectable()
export class ReversalWorker {
  private readonly logger = new Logger('ReversalWorker');
  private running = false;
  private lanes: Promise<void>[] = [];
  private readonly sleepers = new Set<() => void>();
  private unsubscribe: (() => void) | undefined;
  private wakeRequested = false;

  constructor(
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
    private readonly reversals: ReversalRepository,
    private readonly router: HostRouter,
    private readonly queue: ReversalQueue,
    @Inject(HOST_PROTOCOLS) private readonly protocols: HostProtocols,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.queue.onEnqueued(() => this.wake());
    this.lanes = Array.from({ length: this.config.reversal.concurrency }, () => this.lane());
  }

  /** Stops after the attempts in progress. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    this.wake();
    await Promise.all(this.lanes);
    this.lanes = [];
  }

  wake(): void {
    this.wakeRequested = true;
    for (const sleeper of [...this.sleepers]) sleeper();
  }

  /** Delay before attempt `attempts + 1`, after `attempts` failed ones. */
  backoffAfter(attempts: number): number {
    const { backoffBaseMs, backoffMaxMs } = this.config.reversal;
    return Math.min(backoffMaxMs, backoffBaseMs * 2 ** Math.max(0, Math.min(30, attempts - 1)));
  }

  /**
   * How long a claimed reversal is held for its attempt (`workNextDue`): longer than the exchange's
   * deadline, so no other worker takes it while it may still be on the wire.
   */
  leaseMs(): number {
    return this.config.timeoutMs + REVERSAL_LEASE_MARGIN_MS;
  }

  private async lane(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.reversals.workNextDue((reversal) => this.attempt(reversal), this.leaseMs());
      } catch (error) {
        this.logger.error(`reversal queue: ${errorMessage(error)}`);
      }
      if (!worked && this.running) await this.sleep(this.config.reversal.pollIntervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.wakeRequested) {
      this.wakeRequested = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  /**
   * What a terminal does before it settles, done for the connector's own reversals of terminal
   * `tid` at `address` (docs/decisions.md, "A terminal's reversals go before its 0500"): holds
   * them from every worker (in the database, so across replicas) until the settle releases the
   * hold, then sends each one still PENDING once, due or not, through the worker's own attempt,
   * within the first half of what is left before `deadlineAt` (the rest is the settle's). Answers
   * the STANs of those still unacknowledged, and the release.
   */
  async holdForSettle(address: HostAddress, tid: string, deadlineAt: number): Promise<SettleHold> {
    const { format } = address;
    const sameHost = (hostUrl: string): boolean => {
      try {
        return parseHostUrl(format, hostUrl).endpoint === address.endpoint;
      } catch {
        return false;
      }
    };
    const spellings = new Set([address.url, ...(await this.reversals.pendingOfTerminal(format, tid)).map((r) => r.hostUrl).filter(sameHost)]);
    // Held until a little past the deadline should this process die before releasing it.
    const { id: holdId, since } = await this.reversals.holdForSettle(format, tid, [...spellings], new Date(deadlineAt + 1000));
    const budgetEnd = Date.now() + Math.max(0, deadlineAt - Date.now()) / 2;
    const stillPending: string[] = [];
    const unansweredVoids: SettleHold['unansweredVoids'] = [];
    try {
      // Listed again under the hold: none queued meanwhile is missed, and no worker starts on one.
      for (const reversal of (await this.reversals.pendingOfTerminal(format, tid)).filter((r) => spellings.has(r.hostUrl))) {
        const left = budgetEnd - Date.now();
        const outcome =
          left > 0 ? await this.reversals.workNow(reversal.id, left, this.leaseMs(), (due) => this.attempt(due, Math.min(Date.now() + this.config.timeoutMs, budgetEnd))) : undefined;
        // null: no longer PENDING (a worker's attempt in flight acknowledged it), or that attempt outlasted the wait.
        const acknowledged = outcome?.kind === 'acknowledged' || (outcome === null && !(await this.reversals.isPending(reversal.id)));
        if (!acknowledged) stillPending.push(reversal.stan);
        // Answered now with a code that refuses it: the void did not take. Anything else leaves its outcome unknown: no answer,
        // a duplicate (94) after a refusal, which may repeat an unanswered attempt the host applied (review r16f), and a
        // transient refusal (96, system malfunction: a fault, not a decision, review r16g).
        const refused = outcome?.kind === 'failed' && outcome.respCode !== null && outcome.inconclusive !== true;
        if (!acknowledged && !refused && reversal.effect === 'COMPLETES_REQUEST') unansweredVoids.push({ stan: reversal.stan, original: reversal.original });
      }
    } catch (error) {
      await this.reversals.releaseSettleHold(holdId);
      throw error;
    }
    if (stillPending.length > 0) this.logger.warn(`settle of ${format} TID ${tid}: reversals still unacknowledged when it goes: STAN ${stillPending.join(', ')}`);
    return {
      stillPending,
      unansweredVoids,
      since,
      acknowledgedVoids: () => this.reversals.acknowledgedVoidsOfTerminal(format, tid, [...spellings]),
      release: () => this.reversals.releaseSettleHold(holdId),
    };
  }

  private async attempt(reversal: DueReversal, deadlineAt = Date.now() + this.config.timeoutMs): Promise<ReversalAttemptOutcome> {
    const failed = (error: string, transmitted: boolean, respCode: string | null = null, inconclusive = false): ReversalAttemptOutcome => {
      const delay = this.backoffAfter(reversal.attempts + 1);
      const line = `reversal ${reversal.id} (${reversal.format} ${reversal.hostUrl} TID ${reversal.tid} STAN ${reversal.stan}) attempt ${reversal.attempts + 1} failed: ${error}; next in ${delay} ms`;
      const ageMs = Date.now() - reversal.createdAt.getTime();
      // Retried for ever, but not silently: past the overdue mark every failure is an error an operator is paged for.
      if (ageMs > REVERSAL_OVERDUE_MS) this.logger.error(`${line}; OVERDUE: unacknowledged for ${Math.round(ageMs / 60_000)} min, check it with the acquirer`);
      else this.logger.warn(line);
      return { kind: 'failed', error, transmitted, respCode, nextAttemptAt: new Date(Date.now() + delay), ...(inconclusive ? { inconclusive: true as const } : {}) };
    };
    let route;
    try {
      const checked = checkAllowed(parseHostUrl(reversal.format as HostMessageFormat, reversal.hostUrl), this.config.allowList, reversal.request.target.groupId);
      if (!checked.ok) return failed(checked.message, false);
      route = { kind: 'remote' as const, address: checked.address };
    } catch (error) {
      return failed(errorMessage(error), false);
    }
    // One rule for a duplicate acknowledgement (94): it stands only for a repeat, when something of this reversal went out before.
    const earlier = reversal.transmissions > 0 ? { lastRespCode: reversal.lastRespCode } : undefined;
    const exchange = await this.router.exchange(route, 'reverse', reversal.request, deadlineAt, {
      stan: reversal.stan,
      repeat: reversal.transmissions > 0,
      at: reversal.transmittedAt,
      ignoreDown: true,
      earlier,
    });
    switch (exchange.kind) {
      case 'answered': {
        const { hostRespCode, hostRespMessage } = exchange.answer;
        const acknowledgement = acknowledgementOf(exchange.answer, earlier);
        if (!acknowledgement.acknowledged) {
          const rule = reversalAcknowledgementOf(this.protocols.dialectFor(reversal.format as HostMessageFormat));
          return failed(`the host answered ${hostRespCode} (${hostRespMessage}), ${acknowledgement.why} (${rule})`, true, hostRespCode, exchange.answer.acknowledgedAsDuplicate === true || exchange.answer.transient === true);
        }
        this.logger.log(`reversal ${reversal.id} (TID ${reversal.tid} STAN ${reversal.stan}) acknowledged with ${exchange.answer.hostRespCode}`);
        return { kind: 'acknowledged', respCode: hostRespCode };
      }
      case 'not-sent':
        return failed(exchange.reason, false);
      case 'no-answer':
        return failed(exchange.reason, true);
      case 'unexpressible':
        return failed(`the format cannot express this reversal: ${exchange.reason}`, false);
    }
  }
}
