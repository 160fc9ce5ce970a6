import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The last time the gateway released a PBO's terminal (`gateway.terminal.released.v1`) at an
 * address: a request of that PBO that began before it confirms no claim afterwards, so a release
 * is final for what was in flight when it ran (docs/decisions.md, "A release is final for requests
 * in flight"). Kept a day (HostConnectorModule's prune rules), far beyond any request's deadline.
 */
@Entity({ name: 'terminal_release' })
export class TerminalReleaseEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_terminal_release' })
  groupId: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_release' })
  format: string;

  /** `ip:port` as the claims key it; empty: every address (the host could not be told). */
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_terminal_release' })
  address: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_release' })
  mid: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_release' })
  tid: string;

  /** To the microsecond (the database's clock when the release ran), compared with when a claim was made. */
  @Column({ type: 'timestamptz' })
  releasedAt: Date;
}
