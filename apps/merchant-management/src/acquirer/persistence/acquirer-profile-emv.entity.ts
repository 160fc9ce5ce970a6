import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { EmvConfigEntity } from '../../emv/persistence/emv-config.entity';
import { AcquirerProfileEntity } from './acquirer-profile.entity';

/** One EMV config listed for a payment method of an acquirer profile (the profile's emvList). */
@Entity({ name: 'acquirer_profile_emv' })
@Index('ix_acquirer_profile_emv_emv', ['emvId'])
export class AcquirerProfileEmvEntity {
  @PrimaryColumn({ type: 'integer' })
  profileId: number;

  @PrimaryColumn({ type: 'varchar', length: 2 })
  paymentMethod: string;

  @PrimaryColumn({ type: 'integer' })
  emvId: number;

  /** Order within the method's list, as the PBO gave it. */
  @Column({ type: 'integer' })
  position: number;

  @ManyToOne(() => AcquirerProfileEntity, (profile) => profile.emvs, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'profile_id', foreignKeyConstraintName: 'fk_acquirer_profile_emv_profile' })
  profile?: AcquirerProfileEntity;

  /** RESTRICT: an EMV config cannot be deleted while a profile lists it. */
  @ManyToOne(() => EmvConfigEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'emv_id', foreignKeyConstraintName: 'fk_acquirer_profile_emv_emv' })
  emv?: EmvConfigEntity;
}
