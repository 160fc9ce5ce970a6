import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { MessageHeaders } from '../transport/message-publisher';

/** Name of the outbox's partial index; the migration creates it under the same name. */
export const OUTBOX_PENDING_INDEX = 'ix_outbox_pending';
export const OUTBOX_PRIMARY_KEY = 'pk_outbox';

/**
 * One message waiting to be published, written in the same transaction as the state change it
 * announces. The table lives in each context's own schema (the DataSource's `schema` option), so
 * the entity names no schema. Create it with {@link createOutboxMigration}.
 */
@Entity({ name: 'outbox' })
// Only unpublished rows are ever looked up, so the index stays as small as the backlog.
@Index(OUTBOX_PENDING_INDEX, ['nextAttemptAt'], { where: 'published_at IS NULL' })
export class OutboxMessage {
  /** UUIDv7 made by the application: also the broker's de-duplication id (`Nats-Msg-Id`). */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: OUTBOX_PRIMARY_KEY })
  id: string;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'jsonb' })
  payload: object;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  headers: MessageHeaders;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  publishedAt: Date | null;

  /** Failed publish attempts so far. */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  /** Not retried before this instant (exponential back-off after failures). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: Date;
}
