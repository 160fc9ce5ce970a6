import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export const INBOX_PRIMARY_KEY = 'pk_inbox';
export const INBOX_PROCESSED_INDEX = 'ix_inbox_processed_at';

/**
 * One message a consumer has processed, written in the same transaction as the change the
 * message caused: a redelivered message finds its row and changes nothing. Lives in each
 * context's own schema; create it with {@link createInboxMigration}.
 */
@Entity({ name: 'inbox' })
// Old rows are pruned by age (the duplicate window of the broker and the payload versions cover older repeats).
@Index(INBOX_PROCESSED_INDEX, ['processedAt'])
export class InboxMessage {
  /** The durable consumer that processed the message (several may share a schema). */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: INBOX_PRIMARY_KEY })
  consumer: string;

  /** The publisher's message id (`Nats-Msg-Id`, the outbox id). */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: INBOX_PRIMARY_KEY })
  messageId: string;

  @Column({ type: 'text' })
  subject: string;

  @CreateDateColumn({ type: 'timestamptz' })
  processedAt: Date;
}
