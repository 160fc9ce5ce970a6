import { oneOfCheck } from '@app/database';
import { ACQUIRER_KEY_MAX_LENGTH, type HostReconciliationV1, type HostSettleRequestV1 } from '@app/contracts';
import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { BatchSettlement, BatchSettlementState, BatchTotalsMinor } from '../batch-settlement';

/** A closed terminal batch and its reconciliation with the host: one row per terminal batch. */
@Entity({ name: 'batch_settlement' })
@Index('ux_batch_settlement_batch', ['groupId', 'hostMessageFormat', 'acquirerKey', 'mid', 'tid', 'currency', 'batchNo'], { unique: true })
@Check('ck_batch_settlement_state', oneOfCheck('state', ['SETTLING', 'SETTLED', 'SETTLE_FAILED']))
export class BatchSettlementEntity implements BatchSettlement {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_batch_settlement' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  @Column({ type: 'varchar', length: 32 })
  hostMessageFormat: string;

  /** The acquirer whose batch it is (the transactions' `acquirerKey`). */
  @Column({ type: 'varchar', length: ACQUIRER_KEY_MAX_LENGTH })
  acquirerKey: string;

  @Column({ type: 'varchar', length: 32 })
  mid: string;

  @Column({ type: 'varchar', length: 32 })
  tid: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 6 })
  batchNo: string;

  @Column({ type: 'text' })
  acceptanceId: string;

  @Column({ type: 'varchar', length: 16 })
  state: BatchSettlementState;

  @Column({ type: 'varchar', length: 64 })
  requestId: string;

  @Column({ type: 'int', default: 1 })
  attempts: number;

  @Column({ type: 'jsonb' })
  hostRequest: HostSettleRequestV1;

  @Column({ type: 'jsonb' })
  totals: BatchTotalsMinor;

  @Column({ type: 'jsonb', nullable: true })
  hostTotals: BatchTotalsMinor | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  reconciliation: HostReconciliationV1 | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  hostRespCode: string | null;

  @Column({ type: 'varchar', length: 512, default: '' })
  hostRespMessage: string;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  claimedUntil: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  settledAt: Date | null;

  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  updatedAt: Date | null;
}
