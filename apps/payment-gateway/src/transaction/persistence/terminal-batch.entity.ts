import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A terminal's open batch number, which the gateway owns (issue 13): approvals take it under a
 * share lock of this row; settlement advances it under an exclusive one.
 */
@Entity({ name: 'terminal_batch' })
export class TerminalBatchEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_terminal_batch' })
  groupId: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_batch' })
  hostMessageFormat: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_batch' })
  mid: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_terminal_batch' })
  tid: string;

  @PrimaryColumn({ type: 'varchar', length: 3, primaryKeyConstraintName: 'pk_terminal_batch' })
  currency: string;

  /** The open batch: 6 digits, from 000001. */
  @Column({ type: 'varchar', length: 6, default: '000001' })
  batchNo: string;

  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  updatedAt: Date | null;
}
