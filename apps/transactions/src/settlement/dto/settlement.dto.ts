import { PageDto } from '@app/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { plainToInstance, Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsEmail, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { formatUtc, minorToAmount } from '../../shared/legacy';
import { LegacyListQueryDto } from '../../shared/legacy-list-query';
import { BatchDetail } from '../settlement.service';
import { BATCH_ID_PATTERN, BatchFilter, BatchTotals, BatchView } from '../settlement';

const BATCH_ID_MESSAGE = '$property must be a batch id (B and 15 digits)';
const BATCH_ID_EXAMPLE = 'B482913305718264';

/** `GET /api/v2/settlement` (spec 2): every filter optional; pageSize defaults to 10, -1 returns every batch. */
export class SettlementListQueryDto extends LegacyListQueryDto {
  @ApiPropertyOptional({ example: BATCH_ID_EXAMPLE })
  @IsOptional()
  @IsString()
  @Matches(BATCH_ID_PATTERN, { message: BATCH_ID_MESSAGE })
  batchId?: string;

  toFilter(): BatchFilter {
    return {
      ...this.createdRange(),
      batchId: this.batchId,
    };
  }
}

/** `POST /api/v2/settlement/settle`. */
export class SettleDto {
  @ApiProperty({ example: BATCH_ID_EXAMPLE })
  @IsString()
  @Matches(BATCH_ID_PATTERN, { message: BATCH_ID_MESSAGE })
  batchId: string;
}

/** One entry of the e-mail's `batchIds`. */
export class BatchRefDto {
  @ApiProperty({ example: BATCH_ID_EXAMPLE })
  @IsString()
  @Matches(BATCH_ID_PATTERN, { message: BATCH_ID_MESSAGE })
  batchId: string;
}

/** `batchIds` as spec 2 sends it (a JSON-encoded array of `{batchId}`), or that array itself. */
function batchRefs({ obj }: { obj: Record<string, unknown> }): unknown {
  let value = obj.batchIds;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return obj.batchIds;
    }
  }
  if (!Array.isArray(value)) return value;
  return value.map((item: unknown) => (typeof item === 'object' && item !== null && !Array.isArray(item) ? plainToInstance(BatchRefDto, item) : item));
}

/** `POST /api/v2/settlement/email`. */
@ApiExtraModels(BatchRefDto)
export class SettlementEmailDto {
  @ApiProperty({
    description: 'JSON-encoded array of {batchId} (1 to 100; the array itself is accepted too)',
    oneOf: [
      { type: 'string', description: 'the JSON-encoded array', example: `[{"batchId":"${BATCH_ID_EXAMPLE}"}]` },
      { type: 'array', items: { $ref: getSchemaPath(BatchRefDto) }, minItems: 1, maxItems: 100 },
    ],
  })
  @Transform(batchRefs)
  @IsArray({ message: '$property must be a JSON-encoded array of {batchId}' })
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsObject({ each: true, message: '$property must be a JSON-encoded array of {batchId}' })
  @ValidateNested({ each: true })
  batchIds: BatchRefDto[];

  @ApiProperty({ description: 'recipient of the report', maxLength: 254 })
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: '$property must be an e-mail address' })
  email: string;

  @ApiProperty({ description: 'the merchant (mchId) the batches are of' })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: '$property must be 1 to 64 letters, digits, _ or -' })
  mchId: string;
}

/** Counts and amounts of a batch by kind (amounts as numbers in the currency's exponent). */
export class LegacyTotalsDto {
  @ApiProperty() paymentCount: number;
  @ApiProperty() paymentAmt: number;
  @ApiProperty() refundCount: number;
  @ApiProperty() refundAmt: number;
  @ApiProperty() voidCount: number;
  @ApiProperty() voidAmt: number;
}

/** A settlement batch as spec 2 lists it, plus `mchId` and `batchNo`. */
export class LegacyBatchDto extends LegacyTotalsDto {
  @ApiProperty() uuid: string;
  @ApiProperty({ example: BATCH_ID_EXAMPLE }) batchId: string;
  @ApiProperty() mchName: string;
  @ApiProperty({ type: String, nullable: true, description: "the merchant's mchId; null for profiles made through the gateway API" }) mchId: string | null;
  @ApiProperty({ type: String, nullable: true, description: "the acquirer profile's name (the gateway acceptance's); null for batches from before it was carried" })
  profileName: string | null;
  @ApiProperty({ description: 'the host message format of the acceptance', example: 'ISO8583' }) profileMessage: string;
  @ApiProperty({ example: 'MYR' }) currency: string;
  @ApiProperty() acquirerMid: string;
  @ApiProperty() acquirerTid: string;
  @ApiProperty({
    description: "the terminal's batch number, as the acquirer knows the batch; `GET /api/v2/order?acquirerRefNo=` takes the same value (its orders' batchNo)",
    example: '000001',
  })
  acquirerRefNo: string;
  @ApiProperty({ type: String, nullable: true, description: "the host's response code to the settlement" }) acquirerCode: string | null;
  @ApiProperty({ description: '0 open, 1 settled, 2 settle failed, 3 settling' }) state: number;
  @ApiProperty({ example: '2026-01-31T08:15:00Z' }) createdAt: string;
  @ApiProperty({ example: '2026-01-31T23:00:00Z' }) updatedAt: string;
}

export class LegacyBatchLineDto {
  @ApiProperty({ example: 12.5 }) amount: number;
  @ApiProperty({ example: 'SALE', description: 'SALE, CAPTURE, REFUND or VOID' }) transType: string;
  @ApiProperty() count: number;
  @ApiProperty({ example: 'VISA' }) paymentMethod: string;
}

/** A batch with its summary per kind and payment method, and its reconciliation once settled. */
export class LegacyBatchDetailDto extends LegacyBatchDto {
  @ApiProperty({ type: String, nullable: true, description: 'when it settled' }) successTime: string | null;
  @ApiProperty({ type: [LegacyBatchLineDto] }) transactions: LegacyBatchLineDto[];
  @ApiProperty({ nullable: true, enum: ['BALANCED', 'BALANCED_AFTER_UPLOAD', 'OUT_OF_BALANCE'] }) reconciliation: string | null;
  @ApiProperty({ type: LegacyTotalsDto, nullable: true, description: "the host's totals, when it gave them" })
  hostTotals: LegacyTotalsDto | null;
  @ApiProperty({ type: LegacyTotalsDto, nullable: true, description: "ours less the host's, over what the host reports (payments and refunds; hosts count no voids, so the void fields are 0)" })
  difference: LegacyTotalsDto | null;
  @ApiProperty({ type: String, nullable: true }) hostRespMessage: string | null;
}

export class LegacyBatchPageDto extends PageDto {
  @ApiProperty({ type: [LegacyBatchDto] }) records: LegacyBatchDto[];
  @ApiProperty({ description: 'number of pages' }) pages: number;
  @ApiProperty({ description: 'records a page (with pageSize -1: all of them)' }) size: number;
}

export class SettleResultDto {
  @ApiProperty({ description: "the batch's number" }) id: number;
  @ApiProperty({ description: 'the state the settlement ended in: 1 settled, 2 settle failed' }) state: number;
}

function legacyTotals(totals: BatchTotals, currency: string): LegacyTotalsDto {
  return {
    paymentCount: totals.paymentCount,
    paymentAmt: minorToAmount(totals.paymentMinor, currency),
    refundCount: totals.refundCount,
    refundAmt: minorToAmount(totals.refundMinor, currency),
    voidCount: totals.voidCount,
    voidAmt: minorToAmount(totals.voidMinor, currency),
  };
}

export function toLegacyBatch(batch: BatchView): LegacyBatchDto {
  return {
    uuid: batch.uuid,
    batchId: batch.batchId,
    mchName: batch.merchantName,
    mchId: batch.merchantId,
    profileName: batch.profileName,
    profileMessage: batch.hostMessageFormat,
    currency: batch.currency,
    acquirerMid: batch.primaryMid,
    acquirerTid: batch.primaryTid,
    acquirerRefNo: batch.batchNo,
    acquirerCode: batch.hostRespCode,
    state: batch.state,
    ...legacyTotals(batch.shownTotals, batch.currency),
    createdAt: formatUtc(batch.createdAt),
    updatedAt: formatUtc(batch.updatedAt),
  };
}

export function toLegacyBatchDetail(batch: BatchDetail): LegacyBatchDetailDto {
  return {
    ...toLegacyBatch(batch),
    successTime: formatUtc(batch.settledAt),
    transactions: batch.summary.map((line) => ({
      amount: minorToAmount(line.amountMinor, batch.currency),
      transType: line.transType,
      count: line.count,
      paymentMethod: line.paymentMethod,
    })),
    reconciliation: batch.reconciliation,
    hostTotals: batch.hostTotals ? legacyTotals(batch.hostTotals, batch.currency) : null,
    difference: batch.difference ? legacyTotals(batch.difference, batch.currency) : null,
    hostRespMessage: batch.hostRespMessage,
  };
}

/** `pages` and `size` of the settlement list (spec 2): with pageSize -1, one page of every batch. */
export function pageShape(total: number, pageSize: number): { pages: number; size: number } {
  const size = pageSize === -1 ? total : pageSize;
  return { pages: size === 0 ? 0 : Math.ceil(total / size), size };
}
