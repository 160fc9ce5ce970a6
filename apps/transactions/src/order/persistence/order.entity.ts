import { ACQUIRER_KEY_MAX_LENGTH, type GatewayTranStatus, type GatewayTranType } from '@app/contracts';
import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Order, OrderState, SettleState } from '../order';

/**
 * The order read model (spec 2 "Transaction (order)"): one row per gateway transaction, replaced
 * by a higher `version` only. Indexes follow the list's filters, each led by the tenant and
 * ending in the list's order (newest first); the batch key finds a settlement batch's orders.
 */
@Entity({ name: 'orders' })
@Index('ix_orders_group_created', ['groupId', 'createdAt', 'tranId'])
@Index('ix_orders_group_rrn', ['groupId', 'rrn'], { where: 'rrn IS NOT NULL' })
@Index('ix_orders_group_batch_no', ['groupId', 'batchNo', 'createdAt'], { where: 'batch_no IS NOT NULL' })
@Index('ix_orders_group_device', ['groupId', 'sdkId', 'createdAt'])
@Index('ix_orders_group_state', ['groupId', 'state', 'createdAt'])
@Index('ix_orders_group_settle_state', ['groupId', 'settleState', 'createdAt'])
@Index('ix_orders_batch', ['groupId', 'hostMessageFormat', 'acquirerKey', 'primaryMid', 'primaryTid', 'currency', 'batchNo'], { where: 'batch_no IS NOT NULL' })
@Check('ck_orders_state', 'state BETWEEN 0 AND 7')
@Check('ck_orders_settle_state', 'settle_state BETWEEN 0 AND 2')
export class OrderEntity implements Order {
  @PrimaryColumn({ type: 'varchar', length: 80, primaryKeyConstraintName: 'pk_orders' })
  tranId: string;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  merchantId: string | null;

  @Column({ type: 'int' })
  version: number;

  @Column({ type: 'varchar', length: 16 })
  tranType: GatewayTranType;

  @Column({ type: 'varchar', length: 16 })
  tranStatus: GatewayTranStatus;

  @Column({ type: 'smallint' })
  state: OrderState;

  @Column({ type: 'smallint', nullable: true })
  settleState: SettleState | null;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'bigint' })
  amountMinor: string;

  @Column({ type: 'bigint', nullable: true })
  approvedMinor: string | null;

  @Column({ type: 'bigint' })
  capturedMinor: string;

  @Column({ type: 'bigint' })
  refundedMinor: string;

  @Column({ type: 'int' })
  refundCount: number;

  @Column({ type: 'varchar', length: 16 })
  paymentMethod: string;

  @Column({ type: 'varchar', length: 16 })
  entryMode: string;

  @Column({ type: 'varchar', length: 32 })
  accountMasked: string;

  @Column({ type: 'varchar', length: 32 })
  cvmPerformed: string;

  @Column({ type: 'varchar', length: 32 })
  aid: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  appName: string | null;

  @Column({ type: 'varchar', length: 32 })
  tc: string;

  @Column({ type: 'varchar', length: 16 })
  tvr: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  tsi: string | null;

  @Column({ type: 'varchar', length: 8 })
  atc: string;

  @Column({ type: 'varchar', length: 80 })
  profileId: string;

  @Column({ type: 'varchar', length: 80 })
  acceptanceId: string;

  @Column({ type: 'varchar', length: 64 })
  sdkId: string;

  @Column({ type: 'varchar', length: 12 })
  trace: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  rrn: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  approvalCode: string | null;

  @Column({ type: 'varchar', length: 6, nullable: true })
  batchNo: string | null;

  @Column({ type: 'varchar', length: 128 })
  merchantName: string;

  @Column({ type: 'varchar', length: 512, nullable: true })
  merchantAddr: string | null;

  @Column({ type: 'varchar', length: 32 })
  primaryMid: string;

  @Column({ type: 'varchar', length: 32 })
  primaryTid: string;

  @Column({ type: 'varchar', length: 32 })
  hostMessageFormat: string;

  @Column({ type: 'varchar', length: ACQUIRER_KEY_MAX_LENGTH, default: '' })
  acquirerKey: string;

  @Column({ type: 'varchar', length: 80, nullable: true })
  linkedTranId: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  callbackUrl: string | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  posReference: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  timeZone: string | null;

  /** The gateway's createdAt, to the millisecond. */
  @Column({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  updatedAt: Date | null;

  /** When this row last took a version (operations: how far behind the read model is). */
  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' })
  syncedAt: Date;
}
