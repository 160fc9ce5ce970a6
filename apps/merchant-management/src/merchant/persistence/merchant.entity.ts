import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { PboEntity } from '../../pbo/persistence/pbo.entity';
import { Timestamped } from '../../shared/timestamps';
import { Merchant } from '../merchant';

/** A merchant onboarded by a PBO. */
@Entity({ name: 'merchant' })
@Unique('uq_merchant_mch_id', ['mchId'])
@Index('uq_merchant_provider_reference', ['groupId', 'providerReference'], { unique: true, where: 'provider_reference IS NOT NULL' })
@Index('ix_merchant_group_created', ['groupId', 'createdAt'])
@Check('ck_merchant_state', 'state IN (0, 1)')
export class MerchantEntity extends Timestamped implements Merchant {
  @PrimaryColumn({ type: 'uuid' })
  uuid: string;

  @Column({ type: 'varchar', length: 32 })
  mchId: string;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  @ManyToOne(() => PboEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'fk_merchant_group' })
  pbo?: PboEntity;

  @Column({ type: 'varchar', length: 128 })
  mchName: string;

  @Column({ type: 'varchar', length: 4, nullable: true })
  mcc: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  region: string | null;

  @Column({ type: 'varchar', length: 64 })
  timeZone: string;

  @Column({ type: 'varchar', length: 2, nullable: true })
  country: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  transType: string | null;

  @Column({ type: 'varchar', length: 128 })
  contactName: string;

  @Column({ type: 'varchar', length: 254 })
  contactEmail: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  contactPhone: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  contactAddress: string | null;

  /** Logo URL or base64 image; bounded by the request body limit. */
  @Column({ type: 'text', nullable: true })
  receiptLogo: string | null;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  receiptInfo: string | null;

  @Column({ type: 'smallint', default: 1 })
  state: number;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  providerReference: string | null;

  /** scrypt hash of the operator passcode; never returned. */
  @Column({ type: 'varchar', length: 256, nullable: true })
  passcodeHash: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  mdr: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  merchantType: string | null;

  @Column({ type: 'jsonb', nullable: true })
  additionalData: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  createdBy: string | null;
}
