import { oneOfCheck } from '@app/database';
import { GATEWAY_ACTION_STATUSES, GATEWAY_ACTION_TYPES, type GatewayActionStatus, type GatewayActionType } from '@app/contracts';
import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { ActionReversal, KeptActionRequest, TransactionAction } from '../transaction';
import { PaymentTransactionEntity } from './transaction.entity';

/** One action of a transaction: NEW, then CAPTURE, VOID, REFUND, REVERSAL, each with its host answer. */
@Entity({ name: 'transaction_action' })
@Index('ix_transaction_action_tran', ['tranId', 'createdAt'])
// The resolver's queue: pending actions by when they are due.
@Index('ix_transaction_action_pending', ['nextCheckAt'], { where: "action_status = 'PENDING'" })
// A follow-up's caller request id is answered again, never acted on twice (per transaction).
@Index('ux_transaction_action_client_request', ['tranId', 'clientRequestId'], { unique: true, where: 'client_request_id IS NOT NULL' })
// A settlement's refunds: the refunds booked in a batch.
@Index('ix_transaction_action_refund_batch', ['batchNo'], { where: "action_type = 'REFUND' AND batch_no IS NOT NULL" })
@Check('ck_transaction_action_type', oneOfCheck('action_type', GATEWAY_ACTION_TYPES))
@Check('ck_transaction_action_status', oneOfCheck('action_status', GATEWAY_ACTION_STATUSES))
export class TransactionActionEntity implements TransactionAction {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_transaction_action' })
  id: string;

  @Column({ type: 'text' })
  tranId: string;

  @ManyToOne(() => PaymentTransactionEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tran_id', foreignKeyConstraintName: 'fk_transaction_action_tran' })
  transaction?: PaymentTransactionEntity;

  @Column({ type: 'varchar', length: 16 })
  actionType: GatewayActionType;

  @Column({ type: 'varchar', length: 16 })
  actionStatus: GatewayActionStatus;

  @Column({ type: 'varchar', length: 64 })
  requestId: string;

  @Column({ type: 'bigint' })
  amountMinor: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 12, default: '' })
  trace: string;

  @Column({ type: 'varchar', length: 64 })
  reason: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  hostRespCode: string | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  hostRespMessage: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  rrn: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  approvalCode: string | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  hostMti: string | null;

  @Column({ type: 'varchar', length: 6, nullable: true })
  hostStan: string | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  hostTransmittedAt: string | null;

  /** The host order the connector filed the action under (MPGS_AP), which its follow-ups name. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  hostOrderId: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  posReference: string | null;

  @Column({ type: 'jsonb', nullable: true })
  extraData: Record<string, unknown> | null;

  /** The connector's reversal of the action's host request, as it last reported it; null when none. */
  @Column({ type: 'jsonb', nullable: true })
  reversal: ActionReversal | null;

  /** The host request without card data (target, amount, merchant), to ask again under the same requestId. */
  @Column({ type: 'jsonb', nullable: true })
  hostRequest: KeptActionRequest | null;

  @Column({ type: 'varchar', length: 6, nullable: true })
  batchNo: string | null;

  @Column({ type: 'varchar', length: 80, nullable: true })
  clientRequestId: string | null;

  @Column({ type: 'varchar', length: 80, nullable: true })
  legacyRequestId: string | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  nextCheckAt: Date | null;

  @Column({ type: 'int', default: 0 })
  checkAttempts: number;

  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  updatedAt: Date | null;
}
