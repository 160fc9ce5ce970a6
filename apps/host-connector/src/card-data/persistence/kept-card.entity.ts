import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The card data of a transaction the connector sent, kept for its follow-ups (refund, capture,
 * void, reversal), which card-present hosts match on: the authorisation's EMV TLV, sealed with
 * the platform's FieldCipher (AES-256-GCM under the data key), never in clear. Keyed by what a
 * follow-up names its original by; deleted once `expires_at` has passed.
 */
@Entity({ name: 'kept_card' })
@Index('ix_kept_card_expires', ['expiresAt'])
export class KeptCardEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_kept_card' })
  format: string;

  @PrimaryColumn({ type: 'varchar', length: 300, primaryKeyConstraintName: 'pk_kept_card' })
  endpoint: string;

  @PrimaryColumn({ type: 'varchar', length: 8, primaryKeyConstraintName: 'pk_kept_card' })
  tid: string;

  @PrimaryColumn({ type: 'varchar', length: 6, primaryKeyConstraintName: 'pk_kept_card' })
  stan: string;

  /** Field 7 of the transaction, MMDDhhmmss. */
  @PrimaryColumn({ type: 'varchar', length: 10, primaryKeyConstraintName: 'pk_kept_card' })
  transmittedAt: string;

  /** FieldCipher.seal of the card's EMV TLV (hex). */
  @Column({ type: 'text' })
  sealedCard: string;

  @Column({ type: 'timestamptz', precision: 3 })
  expiresAt: Date;
}
