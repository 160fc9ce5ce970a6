import { oneOfCheck } from '@app/database';
import {
  ACQUIRER_KEY_MAX_LENGTH,
  GATEWAY_SETTLE_STATES,
  GATEWAY_TRAN_STATUSES,
  GATEWAY_TRAN_TYPES,
  type GatewaySettleState,
  type GatewayTranStatus,
  type GatewayTranType,
} from '@app/contracts';
import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Transaction } from '../transaction';

/** The unique index that refuses a card read used before (its violation is the refusal). */
export const CARD_READ_INDEX = 'ux_payment_transaction_card_read';

/** A transaction (spec 3) with its sums; its actions are {@link TransactionActionEntity} rows. */
@Entity({ name: 'payment_transaction' })
// GET /transaction/posReference/{posReference}: the PBO's newest with that reference.
@Index('ix_payment_transaction_pos_reference', ['groupId', 'posReference', 'createdAt'], { where: 'pos_reference IS NOT NULL' })
// A terminal's batch, as settlement reads it.
@Index('ix_payment_transaction_batch', ['groupId', 'hostMessageFormat', 'acquirerKey', 'primaryMid', 'primaryTid', 'currency', 'batchNo'], { where: 'batch_no IS NOT NULL' })
// The close of authorisations not captured in time: the open ones, oldest first.
@Index('ix_payment_transaction_open_auth', ['createdAt'], { where: "tran_type = 'AUTH' AND tran_status = 'APPROVED' AND captured_minor = 0" })
// A card read (card, ATC, cryptogram) is used once, platform-wide: a repeat is a replay or a duplicate, never sent to the host again.
@Index(CARD_READ_INDEX, ['cardRead'], { unique: true, where: 'card_read IS NOT NULL' })
// A settlement request names its terminal by acceptance, MID, TID and currency.
@Index('ix_payment_transaction_terminal', ['acceptanceId', 'primaryMid', 'primaryTid', 'currency', 'createdAt'])
@Check('ck_payment_transaction_tran_type', oneOfCheck('tran_type', GATEWAY_TRAN_TYPES))
@Check('ck_payment_transaction_tran_status', oneOfCheck('tran_status', GATEWAY_TRAN_STATUSES))
@Check('ck_payment_transaction_settle_state', oneOfCheck('settle_state', GATEWAY_SETTLE_STATES))
@Check('ck_payment_transaction_sums', 'captured_minor >= 0 AND refunded_minor >= 0 AND refunded_minor <= captured_minor')
export class PaymentTransactionEntity implements Transaction {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_payment_transaction' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  merchantId: string | null;

  @Column({ type: 'text' })
  profileId: string;

  @Column({ type: 'text' })
  acceptanceId: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  acceptanceName: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  timeZone: string | null;

  @Column({ type: 'varchar', length: 64 })
  sdkId: string;

  @Column({ type: 'varchar', length: 16 })
  tranType: GatewayTranType;

  @Column({ type: 'varchar', length: 16 })
  tranStatus: GatewayTranStatus;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'bigint' })
  amountMinor: string;

  @Column({ type: 'bigint', nullable: true })
  approvedMinor: string | null;

  @Column({ type: 'bigint', default: 0 })
  capturedMinor: string;

  @Column({ type: 'bigint', default: 0 })
  refundedMinor: string;

  @Column({ type: 'varchar', length: 16 })
  paymentMethod: string;

  @Column({ type: 'varchar', length: 16 })
  entryMode: string;

  @Column({ type: 'varchar', length: 32 })
  accountMasked: string;

  @Column({ type: 'varchar', length: 8 })
  accountBin: string;

  @Column({ type: 'varchar', length: 4 })
  accountLast4: string;

  @Column({ type: 'varchar', length: 3, nullable: true })
  issCountryCode: string | null;

  @Column({ type: 'varchar', length: 32 })
  cvmPerformed: string;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  cvmSignatureUrl: string | null;

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

  @Column({ type: 'varchar', length: 64, nullable: true })
  cardRead: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  posReference: string | null;

  @Column({ type: 'varchar', length: 12, default: '' })
  trace: string;

  @Column({ type: 'varchar', length: 256, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  callbackUrl: string | null;

  @Column({ type: 'varchar', length: 128 })
  merchantName: string;

  @Column({ type: 'varchar', length: 512, nullable: true })
  merchantAddr: string | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  mcc: string | null;

  @Column({ type: 'varchar', length: 32 })
  primaryMid: string;

  @Column({ type: 'varchar', length: 32 })
  primaryTid: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  subMid: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  subTid: string | null;

  @Column({ type: 'varchar', length: 32 })
  hostMessageFormat: string;

  /** The acquirer it was made at (`acquirerKeyOf`): part of its terminal's batch key. */
  @Column({ type: 'varchar', length: ACQUIRER_KEY_MAX_LENGTH })
  acquirerKey: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  providerReference: string | null;

  @Column({ type: 'text', nullable: true })
  linkedTranId: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  preferredAcceptanceTag: string | null;

  @Column({ type: 'jsonb', nullable: true })
  extraData: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  transStatusInfo: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  rrn: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  approvalCode: string | null;

  @Column({ type: 'varchar', length: 6, nullable: true })
  batchNo: string | null;

  @Column({ type: 'varchar', length: 16, default: 'OPEN' })
  settleState: GatewaySettleState;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  iccResponse: string | null;

  @Column({ type: 'int', default: 1 })
  version: number;

  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  updatedAt: Date | null;
}
