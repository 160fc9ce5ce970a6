import { Column, Entity, Index, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { PaymentBindingEntity } from './payment-binding.entity';
import { PaymentMethodEmvEntity } from './payment-method-emv.entity';

/**
 * One payment method of a binding. The unique (merchant, currency, method) constraint is what
 * makes "a (currency, paymentMethodCode) pair is bound to at most one acquirer profile per
 * merchant" hold under concurrency.
 */
@Entity({ name: 'payment_method_binding' })
@Unique('uq_payment_method_binding_merchant_currency_method', ['merchantUuid', 'currency', 'paymentMethodCode'])
@Index('ix_payment_method_binding_binding', ['bindingId'])
export class PaymentMethodBindingEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  bindingId: number;

  @ManyToOne(() => PaymentBindingEntity, (binding) => binding.methods, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'binding_id', foreignKeyConstraintName: 'fk_payment_method_binding_binding' })
  binding?: PaymentBindingEntity;

  @Column({ type: 'uuid' })
  merchantUuid: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 2 })
  paymentMethodCode: string;

  /** Allowed transaction types (reserved). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  allows: string[];

  @OneToMany(() => PaymentMethodEmvEntity, (emv) => emv.method)
  emvs?: PaymentMethodEmvEntity[];
}
