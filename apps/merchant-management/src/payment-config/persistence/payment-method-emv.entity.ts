import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { EmvConfigEntity } from '../../emv/persistence/emv-config.entity';
import { PaymentMethodBindingEntity } from './payment-method-binding.entity';

/** An EMV config a bound payment method uses. */
@Entity({ name: 'payment_method_emv' })
@Index('ix_payment_method_emv_emv', ['emvId'])
export class PaymentMethodEmvEntity {
  @PrimaryColumn({ type: 'integer' })
  methodId: number;

  @PrimaryColumn({ type: 'integer' })
  emvId: number;

  @Column({ type: 'integer' })
  position: number;

  @ManyToOne(() => PaymentMethodBindingEntity, (method) => method.emvs, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'method_id', foreignKeyConstraintName: 'fk_payment_method_emv_method' })
  method?: PaymentMethodBindingEntity;

  @ManyToOne(() => EmvConfigEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'emv_id', foreignKeyConstraintName: 'fk_payment_method_emv_emv' })
  emv?: EmvConfigEntity;
}
