import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * What the connector keeps of a card after authorisation for the transaction's follow-ups
 * (refund, capture, void, later reversals), which card-present hosts match on: PAN, expiry and PAN
 * sequence number only (PCI DSS 3.3.1: never track 2, tag 57, the cryptogram or other field 55
 * data), sealed with the platform's FieldCipher (AES-256-GCM under the data key), never in clear.
 * Keyed by the terminal's identity (PBO, MID, TID) and the original's own reference (STAN and
 * field 7), which survive a restart and a host endpoint's change; deleted when the transaction can
 * no longer be followed up (declined, reversal acknowledged, void approved, refunded in full, a
 * refund's batch settled: `IsoHostClient.endedBy`) or once `expires_at` has passed. A settled sale
 * or capture keeps its row: refunds come after the daily settlement.
 */
@Entity({ name: 'kept_card' })
@Index('ix_kept_card_expires', ['expiresAt'])
export class KeptCardEntity {
  /** The PBO's groupId, '' for requests that name none. */
  @PrimaryColumn({ name: 'group_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_kept_card' })
  groupId: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_kept_card' })
  format: string;

  @PrimaryColumn({ type: 'varchar', length: 15, primaryKeyConstraintName: 'pk_kept_card' })
  mid: string;

  @PrimaryColumn({ type: 'varchar', length: 8, primaryKeyConstraintName: 'pk_kept_card' })
  tid: string;

  @PrimaryColumn({ type: 'varchar', length: 6, primaryKeyConstraintName: 'pk_kept_card' })
  stan: string;

  /** Field 7 of the transaction, MMDDhhmmss. */
  @PrimaryColumn({ type: 'varchar', length: 10, primaryKeyConstraintName: 'pk_kept_card' })
  transmittedAt: string;

  /** FieldCipher.seal of the JSON of the kept card: `{ pan, expiry, panSequence }`. */
  @Column({ type: 'text' })
  sealedCard: string;

  @Column({ type: 'timestamptz', precision: 3 })
  expiresAt: Date;
}
