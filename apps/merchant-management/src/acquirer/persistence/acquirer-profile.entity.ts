import { oneOfCheck } from '@app/database';
import { Check, Column, Entity, Index, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { PboEntity } from '../../pbo/persistence/pbo.entity';
import { Timestamped } from '../../shared/timestamps';
import { AcquirerProfile, MethodList } from '../acquirer-profile';
import { AcquirerProfileEmvEntity } from './acquirer-profile-emv.entity';

/** Host connection and the payment methods and EMV configs a profile handles. */
@Entity({ name: 'acquirer_profile' })
@Unique('uq_acquirer_profile_name', ['groupId', 'profileName'])
@Index('uq_acquirer_profile_default', ['groupId', 'acqType'], { unique: true, where: 'as_default' })
@Check('ck_acquirer_profile_acq_type', oneOfCheck('acq_type', ['card', 'qr']))
export class AcquirerProfileEntity extends Timestamped implements AcquirerProfile {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  @ManyToOne(() => PboEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'fk_acquirer_profile_group' })
  pbo?: PboEntity;

  @Column({ type: 'varchar', length: 128 })
  profileName: string;

  @Column({ type: 'boolean', default: false })
  asDefault: boolean;

  @Column({ type: 'boolean', default: false })
  asSettleBlock: boolean;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 8, default: 'card' })
  acqType: string;

  @Column({ type: 'varchar', length: 512, nullable: true })
  connUrl: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  notifyUrl: string | null;

  @Column({ type: 'jsonb', nullable: true })
  connExtraParams: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 32 })
  connMessageFormat: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  enablerMsgFormat: string | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  enablerParams: string | null;

  /** Connect timeout towards the host, milliseconds (legacy `connTimeout`). */
  @Column({ type: 'integer', nullable: true })
  connTimeout: number | null;

  /** Request timeout towards the host, milliseconds (legacy `connRequestTimeout`). */
  @Column({ type: 'integer', nullable: true })
  connRequestTimeout: number | null;

  @Column({ type: 'jsonb' })
  methodList: MethodList;

  @Column({ type: 'varchar', length: 128, nullable: true })
  createdBy: string | null;

  @OneToMany(() => AcquirerProfileEmvEntity, (emv) => emv.profile)
  emvs?: AcquirerProfileEmvEntity[];
}
