import { oneOfCheck } from '@app/database';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { DeliveryState } from '../delivery/retry-policy';

/**
 * One version of a final transaction to POST to its callbackUrl, and how its attempts went.
 * Written by the consumer of `gateway.transaction.updated.v1` (once per transaction and version),
 * worked by the delivery worker; the body is kept as sent, so every attempt signs the same bytes.
 */
@Entity({ name: 'webhook_delivery' })
@Index('uq_webhook_delivery_tran_version', ['tranId', 'version'], { unique: true })
// The workers' queue: due pending deliveries, oldest due first.
@Index('ix_webhook_delivery_due', ['nextAttemptAt'], { where: "state = 'PENDING'" })
// The PBO's list, newest first (ids are UUIDv7: they sort by creation).
@Index('ix_webhook_delivery_group', ['groupId', 'id'])
// Retention of finished deliveries.
@Index('ix_webhook_delivery_finished', ['finishedAt'], { where: 'finished_at IS NOT NULL' })
@Check('ck_webhook_delivery_state', oneOfCheck('state', ['PENDING', 'DELIVERED', 'FAILED', 'SUPERSEDED']))
export class WebhookDeliveryEntity {
  /** UUIDv7; also sent as `Softpos-Delivery-Id`, the same on every attempt. */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_webhook_delivery' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  @Column({ type: 'varchar', length: 80 })
  tranId: string;

  /** The transaction's version in the event; also sent as `Softpos-Transaction-Version`. */
  @Column({ type: 'int' })
  version: number;

  @Column({ type: 'varchar', length: 16 })
  tranStatus: string;

  @Column({ type: 'varchar', length: 2048 })
  callbackUrl: string;

  /** The transaction JSON exactly as POSTed and signed (masked card data only, as in the event). */
  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'varchar', length: 16 })
  state: DeliveryState;

  /** Attempts started (a claim counts one). */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  /** When the next attempt is due; while one runs, the end of its lease. Null once final. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  nextAttemptAt: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  firstAttemptAt: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  lastAttemptAt: Date | null;

  /** The HTTP status of the last answer; null when none came. */
  @Column({ type: 'int', nullable: true })
  lastStatus: number | null;

  /** A short status line or reason; never the receiver's body. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  lastError: string | null;

  /** When it became DELIVERED, FAILED or SUPERSEDED. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  finishedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
