import { Injectable } from '@nestjs/common';
import { EntityManager, QueryRunner } from 'typeorm';
import { MessageHeaders } from '../transport/message-publisher';
import { OutboxMessage } from './outbox-message.entity';
import { uuidV7 } from './uuid-v7';

/** Key in `QueryRunner.data` telling the relay's commit listener that this transaction wrote outbox rows. */
export const OUTBOX_ENQUEUED_FLAG = '@app/messaging:outboxEnqueued';

/** True when rows were enqueued on this query runner since the flag was last cleared. */
export function hasEnqueued(queryRunner: QueryRunner): boolean {
  return queryRunner.data?.[OUTBOX_ENQUEUED_FLAG] === true;
}

export function clearEnqueued(queryRunner: QueryRunner): void {
  if (queryRunner.data) delete queryRunner.data[OUTBOX_ENQUEUED_FLAG];
}

/** One message for {@link OutboxWriter.enqueueMany}. */
export interface OutboxEntry {
  subject: string;
  payload: object;
  headers?: MessageHeaders;
}

/** Rows per INSERT of {@link OutboxWriter.enqueueMany} (4 parameters each, far below PostgreSQL's 65,535). */
const ENQUEUE_CHUNK = 1000;

/**
 * Writes outgoing messages into the caller's transaction: the message exists if and only if the
 * state change it announces was committed. The relay publishes it afterwards.
 */
@Injectable()
export class OutboxWriter {
  /**
   * Adds a message to the outbox of `manager`'s DataSource and answers its id (the broker's
   * de-duplication id). `manager` must be inside a transaction, else the message could outlive a
   * failed state change or be lost after a successful one.
   */
  async enqueue(manager: EntityManager, subject: string, payload: object, headers: MessageHeaders = {}): Promise<string> {
    const queryRunner = manager.queryRunner;
    if (!queryRunner?.isTransactionActive) {
      throw new Error(`OutboxWriter.enqueue(${subject}) needs the EntityManager of an open transaction`);
    }
    const id = uuidV7();
    await manager.insert(OutboxMessage, { id, subject, payload, headers });
    queryRunner.data = { ...queryRunner.data, [OUTBOX_ENQUEUED_FLAG]: true };
    return id;
  }

  /**
   * {@link enqueue} for several messages at once, in one multi-row INSERT per
   * {@link ENQUEUE_CHUNK} messages: they are published in the order given. Answers their ids.
   */
  async enqueueMany(manager: EntityManager, messages: readonly OutboxEntry[]): Promise<string[]> {
    const queryRunner = manager.queryRunner;
    if (!queryRunner?.isTransactionActive) {
      throw new Error(`OutboxWriter.enqueueMany(${messages[0]?.subject ?? ''}) needs the EntityManager of an open transaction`);
    }
    if (messages.length === 0) return [];
    const rows = messages.map(({ subject, payload, headers }) => ({ id: uuidV7(), subject, payload, headers: headers ?? {} }));
    for (let start = 0; start < rows.length; start += ENQUEUE_CHUNK) {
      await manager.insert(OutboxMessage, rows.slice(start, start + ENQUEUE_CHUNK));
    }
    queryRunner.data = { ...queryRunner.data, [OUTBOX_ENQUEUED_FLAG]: true };
    return rows.map((row) => row.id);
  }
}
