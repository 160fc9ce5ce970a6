import { PollingLoop } from '@app/common';
import { TypeOrmUnitOfWork } from '@app/database';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { TransactionRepository } from '../persistence/transaction.repository';
import { TransactionChangeWriter } from '../transaction-change-writer';
import { TRANSACTION_SETTINGS, TransactionSettings } from '../transaction-settings';

/** Transactions one pass publishes again, in one database transaction. */
const BATCH = 100;

/**
 * Publishes again, once, the event of each transaction migration 1795830000000 marked (those of
 * batches not yet settled when batches became per acquirer): `gateway.transaction.updated.v1` at
 * its current version, which now names its acquirer. The transactions context applies such a
 * version over the same version of an order that has no acquirer yet (docs/decisions.md, "Review
 * r14r"), and moves it into that acquirer's batch. Replicas share the marks (`FOR UPDATE SKIP
 * LOCKED`); a mark is deleted with the event's outbox row, in one commit. Once none is left, a pass
 * is one read of an empty table each sweep interval (`closeSweepIntervalMs`).
 */
@Injectable()
export class AcquirerKeyRepublisher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AcquirerKeyRepublisher');
  private readonly loop: PollingLoop;

  constructor(
    private readonly transactions: TransactionRepository,
    private readonly writer: TransactionChangeWriter,
    private readonly uow: TypeOrmUnitOfWork,
    @Inject(TRANSACTION_SETTINGS) settings: TransactionSettings,
  ) {
    this.loop = new PollingLoop(this.logger, settings.closeSweepIntervalMs, async () => (await this.publishMarked()) === BATCH);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  /** One pass: publishes up to one batch of marked transactions again; answers how many. */
  async publishMarked(): Promise<number> {
    const published = await this.uow.run(async () => {
      const marks: Array<{ tran_id: string }> = await this.uow.manager.query(
        'SELECT tran_id FROM transaction_republish ORDER BY tran_id LIMIT $1 FOR UPDATE SKIP LOCKED',
        [BATCH],
      );
      const ids = marks.map((mark) => mark.tran_id);
      for (const id of ids) {
        // Locked as a change locks it: the event is of the version the row has when it commits.
        const transaction = await this.transactions.lockById(id);
        if (transaction) await this.writer.announce(transaction, await this.transactions.actionsOf(id));
      }
      if (ids.length > 0) await this.uow.manager.query('DELETE FROM transaction_republish WHERE tran_id = ANY($1::text[])', [ids]);
      return ids.length;
    });
    if (published > 0) this.logger.log(`published ${published} transaction(s) again, naming their acquirer`);
    return published;
  }
}
