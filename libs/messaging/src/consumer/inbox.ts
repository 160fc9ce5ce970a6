import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { InboxMessage } from './inbox-message.entity';

/** Who processed which message: the consumer side of the reliability model. */
export interface InboxEntry {
  consumer: string;
  messageId: string;
  subject: string;
}

/**
 * Records processed messages in the caller's transaction, so a message counts as processed if
 * and only if its change was committed.
 */
@Injectable()
export class Inbox {
  /**
   * Records `entry` and answers true, or answers false when the consumer already processed that
   * message (the caller then changes nothing). A concurrent transaction recording the same
   * message makes this wait for its outcome. `manager` must be inside a transaction.
   */
  async record(manager: EntityManager, entry: InboxEntry): Promise<boolean> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error(`Inbox.record(${entry.consumer}) needs the EntityManager of an open transaction`);
    }
    const result = await manager.createQueryBuilder().insert().into(InboxMessage).values(entry).orIgnore().returning('message_id').execute();
    return (result.raw as unknown[]).length === 1;
  }

  /**
   * Records several entries in one statement; answers the message ids that were new (the others
   * were processed before, or by a concurrent transaction that committed first).
   */
  async recordMany(manager: EntityManager, entries: InboxEntry[]): Promise<Set<string>> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('Inbox.recordMany needs the EntityManager of an open transaction');
    }
    if (entries.length === 0) return new Set();
    const metadata = manager.connection.getMetadata(InboxMessage);
    const rows: { message_id: string }[] = await manager.query(
      `INSERT INTO ${metadata.tablePath} (consumer, message_id, subject) SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING RETURNING message_id`,
      [entries.map((entry) => entry.consumer), entries.map((entry) => entry.messageId), entries.map((entry) => entry.subject)],
    );
    return new Set(rows.map((row) => row.message_id));
  }

  /** How many messages `consumer` has processed (tests, diagnostics). */
  count(manager: EntityManager, consumer: string): Promise<number> {
    return manager.getRepository(InboxMessage).countBy({ consumer });
  }
}
