import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { PboEntity } from '../../pbo/persistence/pbo.entity';
import { Timestamped } from '../../shared/timestamps';
import { EmvConfigView } from '../emv-config.view';

/** Contactless EMV parameters of one payment method, owned by a PBO. */
@Entity({ name: 'emv_config' })
@Index('ix_emv_config_group', ['groupId', 'id'])
export class EmvConfigEntity extends Timestamped implements EmvConfigView {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  @ManyToOne(() => PboEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'fk_emv_config_group' })
  pbo?: PboEntity;

  @Column({ type: 'varchar', length: 128 })
  emvName: string;

  /** Payment method code (`01`..`06`). */
  @Column({ type: 'varchar', length: 2 })
  paymentMethod: string;

  @Column({ type: 'varchar', length: 3, nullable: true })
  currency: string | null;

  /** The EMV parameter object (docs/decisions.md, "EMV parameter object"). */
  @Column({ type: 'jsonb' })
  params: Record<string, unknown>;

  /** `params.aid`, kept as a column for the device's emvAID list. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  aid: string | null;

  /** `params.appVersion`. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  emvVersion: string | null;
}
