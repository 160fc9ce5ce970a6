import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An `Idempotency-Key` of one device and what it answered: claimed when the request starts,
 * linked to the transaction it created, and holding the answer once there is one. Kept 24 h.
 */
@Entity({ name: 'idempotency_key' })
@Index('ix_idempotency_key_created', ['createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_idempotency_key' })
  groupId: string;

  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_idempotency_key' })
  deviceId: string;

  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_idempotency_key' })
  idempotencyKey: string;

  /** SHA-256 (hex) of the request body in canonical JSON. */
  @Column({ type: 'varchar', length: 64 })
  requestHash: string;

  @Column({ type: 'text', nullable: true })
  tranId: string | null;

  @Column({ type: 'smallint', nullable: true })
  responseStatus: number | null;

  @Column({ type: 'jsonb', nullable: true })
  responseBody: Record<string, unknown> | null;

  /** When the key was first used (its 24 hours run from here). */
  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' })
  createdAt: Date;

  /** When the request that holds it started (a request that died is taken over after a while). */
  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' })
  claimedAt: Date;
}
