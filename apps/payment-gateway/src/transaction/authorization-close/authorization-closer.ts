import { Clock, PollingLoop } from '@app/common';
import { UnitOfWork } from '@app/database';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { TransactionRepository } from '../persistence/transaction.repository';
import { TransactionChangeWriter } from '../transaction-change-writer';
import { TRANSACTION_SETTINGS, TransactionSettings } from '../transaction-settings';

/** Authorisations one replica closes in one database transaction. */
const BATCH = 50;

/**
 * The 7-day close (DECISIONS.md: "an AUTH not captured in 7 days → CLOSED"): every replica, on
 * its interval, closes the authorisations approved longer ago than the validity and never
 * captured, each with its `gateway.transaction.updated.v1`. A CLOSED authorisation leaves its
 * batch (it booked nothing) and can no longer be captured, voided or refunded. Replicas share the
 * work through `FOR UPDATE SKIP LOCKED`; one with a capture in flight waits for that capture.
 */
@Injectable()
export class AuthorizationCloser implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AuthorizationCloser');
  private readonly loop: PollingLoop;

  constructor(
    private readonly transactions: TransactionRepository,
    private readonly writer: TransactionChangeWriter,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    @Inject(TRANSACTION_SETTINGS) private readonly settings: TransactionSettings,
  ) {
    this.loop = new PollingLoop(this.logger, this.settings.closeSweepIntervalMs, async () => (await this.closeDue()) === BATCH);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  /** One pass: closes up to one batch of due authorisations; answers how many. */
  async closeDue(): Promise<number> {
    const closed = await this.uow.run(async () => {
      const now = this.clock.now();
      const due = await this.transactions.lockAuthorizationsToClose(new Date(now.getTime() - this.settings.authorizationValidityMs), BATCH);
      for (const transaction of due) {
        await this.writer.write(transaction, { tranStatus: 'CLOSED', batchNo: null, updatedAt: now }, await this.transactions.actionsOf(transaction.id));
      }
      return due.map((transaction) => transaction.id);
    });
    if (closed.length > 0) this.logger.log(`closed ${closed.length} authorisations not captured in time: ${closed.join(', ')}`);
    return closed.length;
  }
}
