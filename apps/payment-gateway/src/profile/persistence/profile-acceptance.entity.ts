import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AcceptanceEntity } from './acceptance.entity';
import { ProfileEntity } from './profile.entity';

/**
 * An acceptance bound to a profile, at a position: payment methods are routed to the first bound
 * acceptance (by position) that supports them, which is the profile's `acptSelection`.
 */
@Entity({ name: 'profile_acceptance' })
@Index('ix_profile_acceptance_acceptance', ['acceptanceId'])
export class ProfileAcceptanceEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_profile_acceptance' })
  profileId: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_profile_acceptance' })
  acceptanceId: string;

  /** 0-based order of the acceptance in the profile's list. */
  @Column({ type: 'smallint' })
  position: number;

  @ManyToOne(() => ProfileEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'profile_id', foreignKeyConstraintName: 'fk_profile_acceptance_profile' })
  profile?: ProfileEntity;

  @ManyToOne(() => AcceptanceEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'acceptance_id', foreignKeyConstraintName: 'fk_profile_acceptance_acceptance' })
  acceptance?: AcceptanceEntity;
}
