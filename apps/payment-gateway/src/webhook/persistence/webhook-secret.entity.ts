import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A PBO's webhook signing secret (one per group, replaced by rotation), sealed with the
 * platform's FieldCipher (AES-256-GCM under DATA_ENCRYPTION_KEY): a database reader cannot sign.
 */
@Entity({ name: 'webhook_secret' })
export class WebhookSecretEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_webhook_secret' })
  groupId: string;

  /** FieldCipher.seal of `whsec_` and 64 hex digits. */
  @Column({ type: 'text' })
  sealedSecret: string;

  /** When this secret was made (first use or rotation). */
  @Column({ type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
