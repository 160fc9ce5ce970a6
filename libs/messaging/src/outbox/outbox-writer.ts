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
}
