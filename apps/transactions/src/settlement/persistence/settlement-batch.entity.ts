import { ACQUIRER_KEY_MAX_LENGTH, type HostReconciliationV1 } from '@app/contracts';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { BatchState, BatchTotals, SettlementBatch } from '../settlement';

/**
 * A settlement batch: one per terminal batch the gateway numbered (group, host message format,
 * acquirer, MID, TID, currency, batch number: the gateway's own key, so devices sharing a MID/TID share
 * it), created with the first action booked in it. States: 0 open, 1 settled, 2 settle failed,
 * 3 settling; the settling row is the lock that keeps a second settle out.
 */
@Entity({ name: 'settlement_batch' })
@Index('uq_settlement_batch_terminal', ['groupId', 'hostMessageFormat', 'acquirerKey', 'primaryMid', 'primaryTid', 'currency', 'batchNo'], { unique: true })
@Index('uq_settlement_batch_batch_id', ['batchId'], { unique: true })
@Index('uq_settlement_batch_uuid', ['uuid'], { unique: true })
@Index('ix_settlement_batch_group_created', ['groupId', 'createdAt', 'id'])
@Check('ck_settlement_batch_state', 'state BETWEEN 0 AND 3')
export class SettlementBatchEntity implements SettlementBatch {
  @PrimaryColumn({
    type: 'bigint',
    generated: 'increment',
    primaryKeyConstraintName: 'pk_settlement_batch',
    transformer: { to: (value: unknown) => value, from: (value: string) => Number(value) },
  })
  id: number;

  @Column({ type: 'uuid' })
  uuid: string;

  @Column({ type: 'varchar', length: 16 })
  batchId: string;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  merchantId: string | null;

  @Column({ type: 'varchar', length: 128 })
  merchantName: string;

  @Column({ type: 'varchar', length: 80 })
  acceptanceId: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  profileName: string | null;

  @Column({ type: 'varchar', length: 32 })
  primaryMid: string;

  @Column({ type: 'varchar', length: 32 })
  primaryTid: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 6 })
  batchNo: string;

  @Column({ type: 'varchar', length: 32 })
  hostMessageFormat: string;

  /** The gateway's acquirer of the batch: one MID/TID has a batch at each acquirer (empty for batches recorded before the gateway said). */
  @Column({ type: 'varchar', length: ACQUIRER_KEY_MAX_LENGTH, default: '' })
  acquirerKey: string;

  @Column({ type: 'smallint', default: 0 })
  state: BatchState;

  @Column({ type: 'smallint', nullable: true })
  stateBeforeSettle: BatchState | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  settleRequestId: string | null;

  @Column({ type: 'int', default: 0 })
  settleAttempts: number;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  settlingUntil: Date | null;

  @Column({ type: 'jsonb', nullable: true })
  totals: BatchTotals | null;

  @Column({ type: 'jsonb', nullable: true })
  hostTotals: BatchTotals | null;

  @Column({ type: 'jsonb', nullable: true })
  difference: BatchTotals | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  reconciliation: HostReconciliationV1 | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  hostRespCode: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  hostRespMessage: string | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  settledAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
