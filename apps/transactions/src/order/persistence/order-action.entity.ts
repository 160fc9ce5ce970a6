import type { GatewayActionStatus, GatewayActionType, GatewayReversalV1 } from '@app/contracts';
import { Column, Entity, Index, ManyToOne, JoinColumn, PrimaryColumn } from 'typeorm';
import { OrderAction } from '../order';
import { OrderEntity } from './order.entity';

/**
 * An action of an order (spec 2 detail `actions`), upserted by its gateway actionId so its number
 * (`id`, which a refund answers) stays the same across versions.
 */
@Entity({ name: 'order_action' })
@Index('uq_order_action_action_id', ['actionId'], { unique: true })
@Index('ix_order_action_tran', ['tranId', 'position'])
@Index('ix_order_action_booked_batch', ['batchNo', 'tranId'], { where: "action_type = 'REFUND' AND action_status = 'SUCCESS' AND batch_no IS NOT NULL" })
export class OrderActionEntity implements OrderAction {
  // bigint: a platform's lifetime of actions; read as a number (exact up to 2^53).
  @PrimaryColumn({
    type: 'bigint',
    generated: 'increment',
    primaryKeyConstraintName: 'pk_order_action',
    transformer: { to: (value: unknown) => value, from: (value: string) => Number(value) },
  })
  id: number;

  @Column({ type: 'varchar', length: 80 })
  actionId: string;

  @Column({ type: 'varchar', length: 80 })
  tranId: string;

  @ManyToOne(() => OrderEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tran_id', foreignKeyConstraintName: 'fk_order_action_order' })
  order?: OrderEntity;

  @Column({ type: 'smallint' })
  position: number;

  @Column({ type: 'varchar', length: 16 })
  actionType: GatewayActionType;

  @Column({ type: 'varchar', length: 16 })
  actionStatus: GatewayActionStatus;

  @Column({ type: 'varchar', length: 12 })
  trace: string;

  @Column({ type: 'bigint' })
  amountMinor: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 6, nullable: true })
  batchNo: string | null;

  @Column({ type: 'varchar', length: 64 })
  reason: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  hostRespCode: string | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  hostRespMessage: string | null;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  /** `{ state, attempts, lastResponseCode, effect?, notRecorded? }` of the gateway's action, as the version the order holds carried it. */
  @Column({ type: 'jsonb', nullable: true })
  reversal: GatewayReversalV1 | null;
}
