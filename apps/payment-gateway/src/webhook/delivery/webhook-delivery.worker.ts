import { Clock, errorMessage, PollingLoop } from '@app/common';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { checkDestination, Resolver } from '../destination/destination-guard';
import { ClaimedDelivery, WebhookDeliveryRepository } from '../persistence/webhook-delivery.repository';
import { WEBHOOK_CONFIG, WebhookConfig } from '../webhook.config';
import { WebhookSecretService } from '../webhook-secret.service';
import { DeliverySignal } from './delivery-signal';
import { afterAttempt, AttemptOutcome } from './retry-policy';
import { SIGNATURE_HEADER, signatureHeader } from './signature';
import { SendOutcome, WebhookSender } from './webhook-sender';

/** Nest injection token of the {@link Resolver} the guard resolves callback hosts with. */
export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

/** How long past its deadline a claimed attempt stays claimed: a worker that died mid-attempt delays the delivery no longer. */
const LEASE_MARGIN_MS = 30_000;

/** Answers `work` or fails at `deadline` (a name server that does not answer must not outlast the attempt). */
function before<T>(work: Promise<T>, deadline: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer before the deadline`)), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * Delivers queued webhooks: WEBHOOK_CONCURRENCY lanes per replica, each claiming the next due
 * delivery (FOR UPDATE SKIP LOCKED with a lease, so replicas share the queue and never attempt
 * one delivery twice at once), checking its destination, signing the stored body with the PBO's
 * current secret, POSTing it within WEBHOOK_TIMEOUT_MS and recording the outcome by the retry
 * policy. Lanes poll every WEBHOOK_POLL_MS and are woken by deliveries queued in this process.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private lanes: PollingLoop[] = [];
  private stopping = new AbortController();
  private unsubscribe: (() => void) | undefined;

  constructor(
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookConfig,
    @Inject(WEBHOOK_RESOLVER) private readonly resolve: Resolver,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly secrets: WebhookSecretService,
    private readonly sender: WebhookSender,
    private readonly signal: DeliverySignal,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  start(): void {
    if (this.lanes.length > 0) return;
    this.stopping = new AbortController();
    this.lanes = Array.from({ length: this.config.concurrency }, () => new PollingLoop(this.logger, this.config.pollIntervalMs, () => this.workOne()));
    for (const lane of this.lanes) lane.start();
    this.unsubscribe = this.signal.onQueued(() => this.lanes.forEach((lane) => lane.wake()));
  }

  /** Aborts the attempts in flight (their lease lets another replica retry them) and stops the lanes. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.stopping.abort();
    await Promise.all(this.lanes.map((lane) => lane.stop()));
    this.lanes = [];
  }

  /** Claims, attempts and records one due delivery; false when none was due. */
  async workOne(): Promise<boolean> {
    const claimed = await this.deliveries.claimNextDue(this.config.timeoutMs + LEASE_MARGIN_MS);
    if (!claimed) return false;
    const outcome = await this.attempt(claimed);
    if (outcome.kind === 'aborted') return true;
    const record = afterAttempt(outcome, claimed.attempts, claimed.firstAttemptAt, this.clock.now(), this.config);
    const recorded = await this.deliveries.recordAttempt(claimed.id, claimed.attempts, record);
    const what = `webhook ${claimed.id} (${claimed.tranId} v${claimed.version} to ${hostOf(claimed.callbackUrl)}) attempt ${claimed.attempts}`;
    if (!recorded) this.logger.warn(`${what}: ${describe(outcome)}, not recorded: the delivery moved on meanwhile`);
    else if (record.state === 'PENDING') this.logger.warn(`${what}: ${describe(outcome)}; next at ${record.nextAttemptAt?.toISOString()}`);
    else if (record.state === 'FAILED') this.logger.error(`${what}: FAILED: ${record.lastError}`);
    else this.logger.log(`${what}: delivered (${describe(outcome)})`);
    return true;
  }

  private async attempt(delivery: ClaimedDelivery): Promise<AttemptOutcome | SendOutcome> {
    const deadline = Date.now() + this.config.timeoutMs;
    try {
      const check = await checkDestination(delivery.callbackUrl, this.config.allowList, (hostname) =>
        before(this.resolve(hostname), deadline, `resolving ${hostname}`),
      );
      if (!check.ok) return check.permanent ? { kind: 'refused', reason: check.reason, detail: check.detail } : { kind: 'failed', reason: check.reason, status: null, detail: check.detail };
      const { secret } = await this.secrets.current(delivery.groupId);
      const signedAt = Math.floor(this.clock.now().getTime() / 1000);
      return await this.sender.send({
        destination: check.destination,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'SoftPOS-Webhooks/1',
          [SIGNATURE_HEADER]: signatureHeader(secret, delivery.body, signedAt),
          'Softpos-Delivery-Id': delivery.id,
          'Softpos-Transaction-Version': String(delivery.version),
        },
        body: delivery.body,
        deadline,
        timeoutMs: this.config.timeoutMs,
        signal: this.stopping.signal,
      });
    } catch (error) {
      return { kind: 'failed', reason: 'the attempt failed', status: null, detail: errorMessage(error) };
    }
  }
}

/** The host of a callback URL: logs never carry its path or query, which may hold the merchant's own tokens. */
function hostOf(callbackUrl: string): string {
  return URL.canParse(callbackUrl) ? new URL(callbackUrl).host : 'an invalid URL';
}

function describe(outcome: AttemptOutcome): string {
  switch (outcome.kind) {
    case 'delivered':
      return outcome.statusLine;
    case 'failed':
    case 'refused':
      return outcome.detail ? `${outcome.reason} (${outcome.detail})` : outcome.reason;
  }
}
