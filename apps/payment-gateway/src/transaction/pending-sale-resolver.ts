import { Clock, errorMessage, PollingLoop } from '@app/common';
import { currencyInfo, HostAuthorizeRequestV1 } from '@app/contracts';
import { encodeTlv } from '@app/iso8583';
import { HostClient } from '@app/messaging';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { askAuthorization, outcomeOfReply, settlesRepeat } from './host-outcome';
import { LeasedAction, TransactionRepository } from './persistence/transaction.repository';
import { SaleRecorder } from './sale-recorder';
import { isKeptAuthorization, type Transaction } from './transaction';
import { FollowUpService } from './follow-up/follow-up.service';
import { TRANSACTION_SETTINGS, TransactionSettings } from './transaction-settings';

/** Pending sales one replica checks in one pass, side by side. */
const BATCH = 10;

/**
 * The card part of a repeated request: the chip data the gateway kept (AID, cryptogram, TVR,
 * ATC, amount, currency) and no card number, which the gateway never keeps. A connector that
 * handled the requestId answers from its log and reads no card data; one that never received it
 * cannot send a message without a PAN and refuses it (REJECTED: nothing was sent), so a repeat can
 * never become a second, late charge.
 */
export function chipOnlyEmv(transaction: Transaction): string {
  const numeric = currencyInfo(transaction.currency)?.numeric ?? '000';
  return encodeTlv([
    { tag: '4F', value: Buffer.from(transaction.aid, 'hex') },
    { tag: '9F26', value: Buffer.from(transaction.tc, 'hex') },
    { tag: '95', value: Buffer.from(transaction.tvr, 'hex') },
    { tag: '9F36', value: Buffer.from(transaction.atc, 'hex') },
    { tag: '9F02', value: Buffer.from(transaction.amountMinor.padStart(12, '0'), 'hex') },
    { tag: '5F2A', value: Buffer.from(numeric.padStart(4, '0'), 'hex') },
  ])
    .toString('hex')
    .toUpperCase();
}

/**
 * Finishes sales (and voids, refunds and captures: {@link FollowUpService.resolvePending})
 * whose outcome their request could not learn (the connector did not answer, or the gateway
 * stopped mid-request): every replica takes due PENDING actions (leased in the
 * database, so never two at once), asks `host.authorize.v1` again under the same requestId and
 * records the connector's answer. Until it has one, the sale stays PENDING and is asked again
 * with a growing delay; it is never declined for want of an answer.
 */
@Injectable()
export class PendingSaleResolver implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('PendingSaleResolver');
  private readonly loop: PollingLoop;

  constructor(
    private readonly transactions: TransactionRepository,
    private readonly recorder: SaleRecorder,
    private readonly followUps: FollowUpService,
    private readonly host: HostClient,
    private readonly clock: Clock,
    @Inject(TRANSACTION_SETTINGS) private readonly settings: TransactionSettings,
  ) {
    this.loop = new PollingLoop(this.logger, this.settings.resolverIntervalMs, async () => (await this.resolveDue()) === BATCH);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  /** One pass: answers how many pending sales it checked. */
  async resolveDue(): Promise<number> {
    const { resolverBackoffMs, resolverBackoffMaxMs } = this.settings;
    const due = await this.transactions.leaseDueActions(this.clock.now(), BATCH, { baseMs: resolverBackoffMs, maxMs: resolverBackoffMaxMs });
    await Promise.all(due.map((leased) => this.resolve(leased).catch((error: unknown) => this.logger.error(`sale ${leased.tranId}: ${errorMessage(error)}`))));
    return due.length;
  }

  private async resolve(leased: LeasedAction): Promise<void> {
    const nothingInFlight = this.clock.now().getTime() - leased.createdAt.getTime() >= this.settings.nothingSentAfterMs;
    // A void, refund or capture is asked again by its own use-case, under the same rules.
    if (leased.actionType !== 'NEW') {
      await this.followUps.resolvePending(leased, nothingInFlight);
      return;
    }
    const transaction = await this.transactions.findById(leased.tranId);
    if (!transaction || transaction.tranStatus !== 'PENDING' || !leased.hostRequest || !isKeptAuthorization(leased.hostRequest)) return;
    const request: HostAuthorizeRequestV1 = { ...leased.hostRequest, card: { emvTlv: chipOnlyEmv(transaction), entryMode: 'NFC' } };
    const asked = await askAuthorization(this.host, request, (request.timeoutMs ?? this.settings.hostTimeoutMs) + this.settings.replyMarginMs);
    if (asked.kind === 'reply' && settlesRepeat(asked.response, nothingInFlight)) {
      await this.recorder.record(transaction.id, outcomeOfReply(asked.response));
      this.logger.log(`sale ${transaction.id} (${leased.actionId}) resolved: ${asked.response.result}`);
      return;
    }
    const why = asked.kind === 'reply' ? `${asked.response.result}: ${asked.response.hostRespMessage}` : asked.detail;
    this.logger.warn(`sale ${transaction.id} (${leased.actionId}) still unknown after check ${leased.attempts + 1}: ${why}`);
  }
}
