import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A terminal at an acquirer host — (host format, host, MID, TID) — and the one PBO that owns it
 * platform-wide (docs/decisions.md, "One owner per terminal identity"). The first PBO whose live
 * profile binds an acceptance with that identity claims it; another PBO's profile with it is
 * refused while the claim stands. The primary key is what makes a race of two claims end with one
 * owner. The claim goes when no live profile of the owner binds the identity any more.
 */
@Entity({ name: 'terminal_identity' })
export class TerminalIdentityEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_identity' })
  hostMessageFormat: string;

  /** The host as `hostKeyOf` (libs/contracts) names it: the normalised address, '' for the format's default. */
  @PrimaryColumn({ type: 'varchar', length: 512, primaryKeyConstraintName: 'pk_terminal_identity' })
  hostAddress: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_identity' })
  mid: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_identity' })
  tid: string;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  claimedAt: Date;
}
