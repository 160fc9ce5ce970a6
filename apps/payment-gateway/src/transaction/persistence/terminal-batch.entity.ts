import { ACQUIRER_KEY_MAX_LENGTH } from '@app/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A terminal's open batch number at an acquirer, which the gateway owns (issue 13): approvals take it under a
 * share lock of this row; settlement advances it under an exclusive one.
 */
@Entity({ name: 'terminal_batch' })
export class TerminalBatchEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_terminal_batch' })
  groupId: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_batch' })
  hostMessageFormat: string;

  /** The acquirer (`acquirerKeyOf`): one MID/TID at two acquirers has a batch at each. */
  @PrimaryColumn({ type: 'varchar', length: ACQUIRER_KEY_MAX_LENGTH, primaryKeyConstraintName: 'pk_terminal_batch' })
  acquirerKey: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_batch' })
  mid: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_batch' })
  tid: string;

  @PrimaryColumn({ type: 'varchar', length: 3, primaryKeyConstraintName: 'pk_terminal_batch' })
  currency: string;

  /** The open batch: 6 digits, from 000001. */
  @Column({ type: 'varchar', length: 6, default: '000001' })
  batchNo: string;

  /** The settlement holding the terminal (no sale or follow-up of it starts a host request), while {@link settleHoldUntil} is ahead. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  settleHoldId: string | null;

  /** Until when that settlement holds the terminal (a settlement that died lets go then). */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  settleHoldUntil: Date | null;

  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  updatedAt: Date | null;
}
