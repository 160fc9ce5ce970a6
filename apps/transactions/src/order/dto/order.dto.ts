import { GATEWAY_ACTION_STATUSES, GATEWAY_ACTION_TYPES, GATEWAY_TRAN_STATUSES, GATEWAY_TRAN_TYPES, GATEWAY_REVERSAL_DOCS, GatewayReversalV1, HOST_REVERSAL_EFFECTS, HOST_REVERSAL_STATES, HostReversalEffect, HostReversalState, TRAN_ID_PATTERN } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { formatUtc, minorToAmount } from '../../shared/legacy';
import { LegacyListQueryDto } from '../../shared/legacy-list-query';
import { IntegerQuery } from '../../shared/query';
import { Order, OrderAction, OrderFilter, OrderState, OrderWithActions, SettleState } from '../order';

/** `GET /api/v2/order` (spec 2): every filter optional; pageSize defaults to 10, -1 returns every order. */
export class OrderListQueryDto extends LegacyListQueryDto {
  @ApiPropertyOptional({ description: 'the gateway transaction id (tranId)', example: 'tran_0123456789abcdefghijkl' })
  @IsOptional()
  @IsString()
  @Matches(TRAN_ID_PATTERN, { message: '$property must look like tran_<22 characters>' })
  transactionId?: string;

  @ApiPropertyOptional({
    description:
      "the terminal batch number (6 digits) the acquirer knows the order's batch by: the settlement batch's `acquirerRefNo`, the order's `batchNo` (one meaning in both places; with `deviceId` it lists one terminal's batch)",
    example: '000001',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: '$property must be a terminal batch number of 6 digits' })
  acquirerRefNo?: string;

  @ApiPropertyOptional({ description: "the host's retrieval reference number of the order (`rrn`, exactly; beyond spec 2)", maxLength: 64 })
  @IsOptional()
  @IsString()
  @Matches(/^[\x20-\x7e]{1,64}$/, { message: '$property must be 1 to 64 printable ASCII characters' })
  rrn?: string;

  @ApiPropertyOptional({ description: 'the device that took the transaction (sdkId)', maxLength: 64 })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: '$property must be 1 to 64 letters, digits, _ or -' })
  deviceId?: string;

  @ApiPropertyOptional({ description: '0 WAIT_FOR_SETTLE, 1 SETTLED, 2 SETTLE_FAILED', minimum: 0, maximum: 2 })
  @IsOptional()
  @IntegerQuery()
  @IsInt({ message: '$property must be 0, 1 or 2' })
  @Min(0, { message: '$property must be 0, 1 or 2' })
  @Max(2, { message: '$property must be 0, 1 or 2' })
  settleState?: number;

  @ApiPropertyOptional({ description: '0 INIT, 1 PROCESSING, 2 APPROVED, 3 DECLINED, 4 VOIDED, 5 REFUNDED, 6 CLOSED, 7 REVERSED', minimum: 0, maximum: 7 })
  @IsOptional()
  @IntegerQuery()
  @IsInt({ message: '$property must be an integer from 0 to 7' })
  @Min(0, { message: '$property must be an integer from 0 to 7' })
  @Max(7, { message: '$property must be an integer from 0 to 7' })
  state?: number;

  toFilter(): OrderFilter {
    return {
      ...this.createdRange(),
      tranId: this.transactionId,
      batchNo: this.acquirerRefNo,
      rrn: this.rrn,
      sdkId: this.deviceId,
      settleState: this.settleState as SettleState | undefined,
      state: this.state as OrderState | undefined,
    };
  }
}

/** `POST /api/v2/order/email/{id}`. */
export class OrderEmailDto {
  @ApiProperty({ description: 'recipient of the receipt', maxLength: 254 })
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: '$property must be an e-mail address' })
  email: string;
}

export class LegacyAmountDto {
  @ApiProperty({ example: 'MYR' }) currency: string;
  @ApiProperty({ example: 12.5, description: "a number in the currency's ISO 4217 exponent" }) value: number;
}

/** An order as spec 2 lists it, plus `approvedAmount`, `capturedAmount`, `refundedAmount`, `state`, `settleState`, `createdAt` and `updatedAt`. */
export class LegacyOrderDto {
  @ApiProperty({ example: 'tran_0123456789abcdefghijkl' }) tranId: string;
  @ApiProperty({ type: LegacyAmountDto, description: 'what was asked (the requested amount)' }) amount: LegacyAmountDto;
  @ApiProperty({
    type: LegacyAmountDto,
    nullable: true,
    description:
      'what the host approved: less than `amount` after a partial approval (the real charge of a sale, the hold of an authorisation); null unless approved (beyond spec 2)',
  })
  approvedAmount: LegacyAmountDto | null;
  @ApiProperty({
    type: LegacyAmountDto,
    description: 'what was charged: a sale its approved amount, an authorisation what was captured (0 until it is); a void does not change it (beyond spec 2)',
  })
  capturedAmount: LegacyAmountDto;
  @ApiProperty({ type: LegacyAmountDto, description: 'what was refunded so far (beyond spec 2)' }) refundedAmount: LegacyAmountDto;
  @ApiProperty({ type: String, nullable: true }) approvalCode: string | null;
  @ApiProperty({ type: String, nullable: true, description: "the terminal's batch number (6 digits)" }) batchNo: string | null;
  @ApiProperty() cvmPerformed: string;
  @ApiProperty({ type: String, nullable: true }) appName: string | null;
  @ApiProperty({ type: String, nullable: true }) linkedTranId: string | null;
  @ApiProperty() mchName: string;
  @ApiProperty({ type: String, nullable: true }) tsi: string | null;
  @ApiProperty() acqTid: string;
  @ApiProperty({ type: String, nullable: true }) rrn: string | null;
  @ApiProperty() tc: string;
  @ApiProperty({ enum: GATEWAY_TRAN_STATUSES }) tranStatus: string;
  @ApiProperty({ enum: GATEWAY_TRAN_TYPES }) tranType: string;
  @ApiProperty() atc: string;
  @ApiProperty() tvr: string;
  @ApiProperty() trace: string;
  @ApiProperty() acqMid: string;
  @ApiProperty({ example: '411111******1111' }) accountMasked: string;
  @ApiProperty({ description: 'the device that took it' }) sdkId: string;
  @ApiProperty({ example: 'VISA' }) paymentMethod: string;
  @ApiProperty({ example: 'ISO8583' }) hostMessageFormat: string;
  @ApiProperty() aid: string;
  @ApiProperty({ example: 'NFC' }) entryMode: string;
  @ApiProperty({ description: '0 INIT … 7 REVERSED (spec 2)' }) state: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: '0 WAIT_FOR_SETTLE, 1 SETTLED, 2 SETTLE_FAILED; null when the transaction ended in no batch (declined, reversed, an authorisation closed uncaptured): it is never settled',
  })
  settleState: number | null;
  @ApiProperty({ example: '2026-01-31T08:15:00Z' }) createdAt: string;
  @ApiProperty({ type: String, example: '2026-01-31T08:15:02Z', nullable: true }) updatedAt: string | null;
}

/** The host connector's reversal of an action's host request, as the gateway shows it on the action. */
export class LegacyActionReversalDto implements GatewayReversalV1 {
  @ApiProperty({ enum: HOST_REVERSAL_STATES, description: GATEWAY_REVERSAL_DOCS.state }) state: HostReversalState;
  @ApiProperty({ example: 2, description: GATEWAY_REVERSAL_DOCS.attempts }) attempts: number;
  @ApiProperty({ type: String, nullable: true, example: '12', description: GATEWAY_REVERSAL_DOCS.lastResponseCode }) lastResponseCode: string | null;
  @ApiProperty({ enum: HOST_REVERSAL_EFFECTS, required: false, description: GATEWAY_REVERSAL_DOCS.effect }) effect?: HostReversalEffect;
  @ApiProperty({ required: false, maxLength: 200, description: GATEWAY_REVERSAL_DOCS.operatorNote }) operatorNote?: string;
  @ApiProperty({ required: false, maxLength: 256, description: GATEWAY_REVERSAL_DOCS.notRecorded }) notRecorded?: string;
}

export class LegacyOrderActionDto {
  @ApiProperty() tranId: string;
  @ApiProperty({ enum: GATEWAY_ACTION_TYPES }) actionType: string;
  @ApiProperty({ example: 'HostSuccess' }) reason: string;
  @ApiProperty({ example: 12.5 }) amount: number;
  @ApiProperty() trace: string;
  @ApiProperty({ enum: GATEWAY_ACTION_STATUSES }) actionStatus: string;
  @ApiProperty({ type: String, nullable: true }) hostRespCode: string | null;
  @ApiProperty({ example: 'act_0123456789abcdefghijkl' }) actionId: string;
  @ApiProperty({
    type: LegacyActionReversalDto,
    nullable: true,
    description:
      "the reversal of this action's host request (not answered in time, an approval that could not be taken, a late approval), as the gateway last reported it; null when none",
  })
  reversal: LegacyActionReversalDto | null;
}

/** An order with its actions (spec 2 detail). */
export class LegacyOrderDetailDto extends LegacyOrderDto {
  @ApiProperty({ type: String, nullable: true }) callbackUrl: string | null;
  @ApiProperty({ type: [LegacyOrderActionDto] }) actions: LegacyOrderActionDto[];
}

export function toLegacyOrder(order: Order): LegacyOrderDto {
  const amount = (minor: string): LegacyAmountDto => ({ currency: order.currency, value: minorToAmount(minor, order.currency) });
  return {
    tranId: order.tranId,
    amount: amount(order.amountMinor),
    approvedAmount: order.approvedMinor === null ? null : amount(order.approvedMinor),
    capturedAmount: amount(order.capturedMinor),
    refundedAmount: amount(order.refundedMinor),
    approvalCode: order.approvalCode,
    batchNo: order.batchNo,
    cvmPerformed: order.cvmPerformed,
    appName: order.appName,
    linkedTranId: order.linkedTranId,
    mchName: order.merchantName,
    tsi: order.tsi,
    acqTid: order.primaryTid,
    rrn: order.rrn,
    tc: order.tc,
    tranStatus: order.tranStatus,
    tranType: order.tranType,
    atc: order.atc,
    tvr: order.tvr,
    trace: order.trace,
    acqMid: order.primaryMid,
    accountMasked: order.accountMasked,
    sdkId: order.sdkId,
    paymentMethod: order.paymentMethod,
    hostMessageFormat: order.hostMessageFormat,
    aid: order.aid,
    entryMode: order.entryMode,
    state: order.state,
    settleState: order.settleState,
    createdAt: formatUtc(order.createdAt),
    updatedAt: formatUtc(order.updatedAt),
  };
}

function toLegacyAction(action: OrderAction): LegacyOrderActionDto {
  return {
    tranId: action.tranId,
    actionType: action.actionType,
    reason: action.reason,
    amount: minorToAmount(action.amountMinor, action.currency),
    trace: action.trace,
    actionStatus: action.actionStatus,
    hostRespCode: action.hostRespCode,
    actionId: action.actionId,
    reversal: action.reversal,
  };
}

export function toLegacyOrderDetail(order: OrderWithActions): LegacyOrderDetailDto {
  return { ...toLegacyOrder(order), callbackUrl: order.callbackUrl, actions: order.actions.map(toLegacyAction) };
}
