import { Column, Entity, Index, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { AcquirerProfileEntity } from '../../acquirer/persistence/acquirer-profile.entity';
import { Timestamped } from '../../shared/timestamps';
import { PaymentMethodBindingEntity } from './payment-method-binding.entity';

/** A merchant's binding to one acquirer profile in one currency (a payment config record). */
@Entity({ name: 'payment_binding' })
@Unique('uq_payment_binding_profile_currency', ['merchantUuid', 'acquirerProfileId', 'currency'])
@Index('ix_payment_binding_acquirer_profile', ['acquirerProfileId'])
export class PaymentBindingEntity extends Timestamped {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** RESTRICT: a merchant with a payment config cannot be deleted. */
  @Column({ type: 'uuid' })
  merchantUuid: string;

  // Named, not imported: payment-config sits below merchant in the layering (docs/decisions.md).
  @ManyToOne('MerchantEntity', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'merchant_uuid', foreignKeyConstraintName: 'fk_payment_binding_merchant' })
  merchant?: object;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  /** RESTRICT: an acquirer profile bound to a merchant cannot be deleted. */
  @Column({ type: 'integer' })
  acquirerProfileId: number;

  @ManyToOne(() => AcquirerProfileEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'acquirer_profile_id', foreignKeyConstraintName: 'fk_payment_binding_acquirer_profile' })
  acquirerProfile?: AcquirerProfileEntity;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** Merchant id at the acquirer host for this binding, when it differs from the PBO default. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  mid: string | null;

  @OneToMany(() => PaymentMethodBindingEntity, (method) => method.binding)
  methods?: PaymentMethodBindingEntity[];
}
