import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A terminal as the host sees it — the format, an address the connector reaches the host at
 * (`ip:port`, as its name resolved), MID and TID without their pad — and the one PBO whose
 * requests may use it (docs/decisions.md, "One owner per terminal, whatever the spelling"). The
 * primary key makes two PBOs' first requests at once end with one owner.
 */
@Entity({ name: 'terminal_claim' })
export class TerminalClaimEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_claim' })
  format: string;

  /** `ip:port` (IPv6 in brackets) the connector connects to. */
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_terminal_claim' })
  address: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_claim' })
  mid: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_claim' })
  tid: string;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  claimedAt: Date;

  /** When the host first answered a sign-on or approved a request of the owner; null while the first request is pending. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  confirmedAt: Date | null;
}
