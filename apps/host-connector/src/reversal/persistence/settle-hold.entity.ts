import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A settle in flight for a terminal (docs/decisions.md, "A terminal's reversals go before its
 * 0500"): until it is released, or `expiresAt` passes (the settle's deadline, should its process
 * die), no reversal worker of any replica sends a reversal of `tid` queued for one of `hostUrls`
 * (the spellings of the settle's host address the terminal's reversals were queued with).
 */
@Entity({ name: 'settle_hold' })
@Index('ix_settle_hold_tid', ['tid'])
export class SettleHoldEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_settle_hold' })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  format: string;

  @Column({ type: 'varchar', length: 8 })
  tid: string;

  @Column({ type: 'text', array: true })
  hostUrls: string[];

  @Column({ type: 'timestamptz', precision: 3 })
  expiresAt: Date;
}
