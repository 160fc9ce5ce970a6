import {
  GATEWAY_REVERSAL_DOCS,
  GATEWAY_ACTION_STATUSES,
  GATEWAY_ACTION_TYPES,
  GATEWAY_SETTLE_STATES,
  GATEWAY_TRAN_STATUSES,
  GATEWAY_TRAN_TYPES,
  GatewayActionV1,
  GatewayReversalV1,
  HOST_REVERSAL_EFFECTS,
  HOST_REVERSAL_STATES,
  HostReversalEffect,
  HostReversalState,
  GatewayTransactionV1,
} from '@app/contracts';
import type { GatewayActionStatus, GatewayActionType, GatewaySettleState, GatewayTranStatus, GatewayTranType } from '@app/contracts';
import { ApiProperty } from '@nestjs/swagger';
import { CVM_PERFORMED } from '../card/cvm';

export class TransactionAmountDto {
  @ApiProperty({ example: '12.50', description: "decimal, in the currency's exponent" }) value: string;
  @ApiProperty({ example: 'MYR' }) currency: string;
}

export class HostReferenceDto {
  @ApiProperty({ example: '0200' }) mti: string;
  @ApiProperty({ example: '000123' }) stan: string;
  @ApiProperty({ example: '0131081530', description: 'MMDDhhmmss (UTC)' }) transmittedAt: string;
}

/** Spec 3 Action, with the host's references. */
export class ActionReversalDto implements GatewayReversalV1 {
  @ApiProperty({ enum: HOST_REVERSAL_STATES, description: GATEWAY_REVERSAL_DOCS.state }) state: HostReversalState;
  @ApiProperty({ example: 2, description: GATEWAY_REVERSAL_DOCS.attempts }) attempts: number;
  @ApiProperty({ type: String, nullable: true, example: '12', description: GATEWAY_REVERSAL_DOCS.lastResponseCode }) lastResponseCode: string | null;
  @ApiProperty({ enum: HOST_REVERSAL_EFFECTS, required: false, description: GATEWAY_REVERSAL_DOCS.effect }) effect?: HostReversalEffect;
  @ApiProperty({ required: false, maxLength: 200, description: GATEWAY_REVERSAL_DOCS.operatorNote }) operatorNote?: string;
  @ApiProperty({ required: false, maxLength: 256, description: GATEWAY_REVERSAL_DOCS.notRecorded }) notRecorded?: string;
}

export class TransactionActionDto implements GatewayActionV1 {
  @ApiProperty({ example: 'act_3hV0cQ9mX2rT8wK1yB6nZg' }) actionId: string;
  @ApiProperty({ example: 'tran_Xq3vJ0a9T1mB7cR2sD5eWg' }) tranId: string;
  @ApiProperty({ enum: GATEWAY_ACTION_TYPES }) actionType: GatewayActionType;
  @ApiProperty({ enum: GATEWAY_ACTION_STATUSES }) actionStatus: GatewayActionStatus;
  @ApiProperty({ example: '000123', description: 'the STAN the host saw; empty when nothing reached a host' }) trace: string;
  @ApiProperty({
    example: 'req_6Qe2mG1cR7yT0pV9sB4nJw',
    description: 'the service request that made the action (its x-service-request-id; a new req_ id for one asked over NATS); actions stored before this rule show their actionId',
  })
  requestId: string;
  @ApiProperty({ type: TransactionAmountDto }) amount: TransactionAmountDto;
  @ApiProperty({
    example: 'HostSuccess',
    description:
      'HostSuccess, HostDeclined, HostTimeout (not answered in time: reversed), HostOutcomeUnknown (answered with a status its format says leaves the outcome unknown, e.g. POMELO ERROR: reversed; hostRespMessage quotes it), HostApprovalReversed (approved for an amount that cannot be taken: 0, more than asked, another currency or none named; reversed), HostUnavailable, HostRejected, HostConnectorUnavailable (nothing was sent), Pending',
  })
  reason: string;
  @ApiProperty({ type: String, nullable: true, example: '00' }) hostRespCode: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Approved' }) hostRespMessage: string | null;
  @ApiProperty({ type: String, nullable: true, example: '503108123456' }) rrn: string | null;
  @ApiProperty({ type: String, nullable: true, example: '123456' }) approvalCode: string | null;
  @ApiProperty({ type: HostReferenceDto, nullable: true, description: 'what the host connector sent; null when nothing was' })
  hostReference: HostReferenceDto | null;
  @ApiProperty({ type: String, nullable: true }) posReference: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) extraData: Record<string, unknown> | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '000001',
    description: "the terminal's batch the action booked money in (a sale's approval, a capture, a refund: the batch open when the host approved it); null for what books nothing (a pre-authorisation, a void, a failure)",
  })
  batchNo: string | null;
  @ApiProperty({
    type: ActionReversalDto,
    nullable: true,
    description:
      "the host connector's reversal of this action's host request (not answered in time, an approval it could not take, a late approval): PENDING while the host has not acknowledged it (the acquirer may still hold the money; it is repeated until acknowledged), ACKNOWLEDGED once it has; null when none",
  })
  reversal: ActionReversalDto | null;
  @ApiProperty({ example: '2025-01-31T08:15:30.123000+00:00' }) createdAt: string;
  @ApiProperty({ type: String, nullable: true }) updatedAt: string | null;
}

/** Spec 3 Transaction, with the sums the money rules keep, its settlement state and the card's issuer response. */
export class TransactionDto implements GatewayTransactionV1 {
  @ApiProperty({ example: 'tran_Xq3vJ0a9T1mB7cR2sD5eWg' }) tranId: string;
  @ApiProperty({ enum: GATEWAY_TRAN_TYPES }) tranType: GatewayTranType;
  @ApiProperty({ enum: GATEWAY_TRAN_STATUSES, description: 'PENDING while the outcome is not known yet (never shown as DECLINED)' })
  tranStatus: GatewayTranStatus;
  @ApiProperty({ type: TransactionAmountDto, description: 'what was asked' }) amount: TransactionAmountDto;
  @ApiProperty({ type: TransactionAmountDto, nullable: true, description: 'what the host approved (less after a partial approval); null unless approved' })
  approvedAmount: TransactionAmountDto | null;
  @ApiProperty({ example: '12.50', description: 'of a SALE the approved amount, of an AUTH the sum of its captures' }) capturedAmount: string;
  @ApiProperty({ example: '0.00' }) refundedAmount: string;
  @ApiProperty({ example: 'VISA' }) paymentMethod: string;
  @ApiProperty({ example: 'NFC' }) entryMode: string;
  @ApiProperty({ example: '476173******0119' }) accountMasked: string;
  @ApiProperty({ example: '476173' }) accountBin: string;
  @ApiProperty({ example: '0119' }) accountLast4: string;
  @ApiProperty({ type: String, nullable: true, example: '458', description: 'ISO 3166 numeric (tag 5F28)' }) issCountryCode: string | null;
  @ApiProperty({ enum: CVM_PERFORMED, description: 'from tag 9F34 (and 9F6C)' }) cvmPerformed: string;
  @ApiProperty({ type: String, nullable: true }) cvmSignatureUrl: string | null;
  @ApiProperty({ example: 'A0000000031010' }) aid: string;
  @ApiProperty({ type: String, nullable: true, example: 'VISA CREDIT' }) appName: string | null;
  @ApiProperty({ example: '8A1F2B3C4D5E6F70', description: 'application cryptogram (9F26)' }) tc: string;
  @ApiProperty({ example: '0000008000', description: '95' }) tvr: string;
  @ApiProperty({ type: String, nullable: true, example: 'E800', description: '9B' }) tsi: string | null;
  @ApiProperty({ example: '0001', description: '9F36' }) atc: string;
  @ApiProperty({ example: 'prof_Xq3vJ0a9T1mB7cR2sD5eWg' }) profileId: string;
  @ApiProperty({ example: 'acpt_3hV0cQ9mX2rT8wK1yB6nZg' }) acceptanceId: string;
  @ApiProperty({ type: String, nullable: true, example: 'Maybank VISA/MC', description: "the acceptance's name (the acquirer profile's) when the transaction was taken" })
  acceptanceName: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Asia/Kuala_Lumpur',
    description: "the profile's IANA time zone when the transaction was taken (the merchant's local time); null when it had none (UTC)",
  })
  timeZone: string | null;
  @ApiProperty({ example: '6f1c2a9e-0000-4000-8000-000000000001', description: 'the device that took it' }) sdkId: string;
  @ApiProperty({ type: String, nullable: true }) posReference: string | null;
  @ApiProperty({ example: '000123', description: 'STAN of the host answer; empty while none' }) trace: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true }) callbackUrl: string | null;
  @ApiProperty() merchantName: string;
  @ApiProperty({ type: String, nullable: true }) merchantAddr: string | null;
  @ApiProperty({ type: String, nullable: true }) mcc: string | null;
  @ApiProperty() primaryMid: string;
  @ApiProperty() primaryTid: string;
  @ApiProperty({ type: String, nullable: true }) subMid: string | null;
  @ApiProperty({ type: String, nullable: true }) subTid: string | null;
  @ApiProperty({ example: 'ISO8583' }) hostMessageFormat: string;
  @ApiProperty({ type: String, nullable: true }) providerReference: string | null;
  @ApiProperty({ type: String, nullable: true }) linkedTranId: string | null;
  @ApiProperty({ type: String, nullable: true }) preferredAcceptanceTag: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) extraData: Record<string, unknown> | null;
  @ApiProperty({ type: String, nullable: true }) transStatusInfo: string | null;
  @ApiProperty({ type: String, nullable: true }) rrn: string | null;
  @ApiProperty({ type: String, nullable: true }) approvalCode: string | null;
  @ApiProperty({ type: String, nullable: true, example: '000001', description: "the terminal's batch of an approval; null otherwise" }) batchNo: string | null;
  @ApiProperty({ enum: GATEWAY_SETTLE_STATES, description: 'OPEN until its batch settles (also for transactions in no batch)' })
  settleState: GatewaySettleState;
  @ApiProperty({ type: String, nullable: true, description: "field 55 of the host's answer (hex TLV) for the SDK to give the card" }) iccResponse:
    string | null;
  @ApiProperty({ type: [TransactionActionDto] }) actions: TransactionActionDto[];
  @ApiProperty({ example: '2025-01-31T08:15:30.123000+00:00' }) createdAt: string;
  @ApiProperty({ type: String, nullable: true }) updatedAt: string | null;
}
