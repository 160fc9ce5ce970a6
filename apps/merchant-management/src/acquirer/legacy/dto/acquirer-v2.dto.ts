import { DomainError, IsOptionalNonNull, IsPlainObject } from '@app/common';
import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { LegacyGroupIdField, LegacyPageSize } from '../../../shared/legacy';
import { AcquirerCreateDto, AcquirerListQueryDto, AcquirerUpdateDto } from '../../dto/acquirer.dto';
import { AcquirerProfileRecord } from '../../persistence/acquirer-profile.repository';
import { acquirerProfileFields } from '../../acquirer-profile.view';

/** Host timeouts, milliseconds: at least 1 ms, at most 2 minutes (a card payment waits no longer). */
export const MAX_CONN_TIMEOUT_MS = 120_000;

const METHOD_LIST_EXAMPLE = { '01': [], '02': [] };
const EMV_LIST_EXAMPLE = { '01': [1], '02': [2] };

/** `POST /api/v2/acquirer`: the v1 fields, with the maps as JSON objects and the host timeouts. */
export class LegacyAcquirerCreateDto extends OmitType(AcquirerCreateDto, ['methodList', 'emvList', 'connExtraParams'] as const) {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: METHOD_LIST_EXAMPLE,
    description: 'payment method code (01..06) to allowed transaction types (reserved, may be empty)',
  })
  @IsPlainObject()
  methodList: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'integer' } },
    example: EMV_LIST_EXAMPLE,
    description: 'payment method code (01..06) to EMV config ids; required for card profiles',
  })
  @IsOptionalNonNull()
  @IsPlainObject()
  emvList?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'extra connection parameters; acqInstId (1 to 11 digits: the acquiring institution id, field 32) and subMchDba (a sub-merchant named in field 43) reach the host for every device without its own' })
  @IsOptional()
  @IsPlainObject()
  connExtraParams?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: MAX_CONN_TIMEOUT_MS, description: 'connect timeout towards the host, milliseconds' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CONN_TIMEOUT_MS)
  connTimeout?: number | null;

  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    maximum: MAX_CONN_TIMEOUT_MS,
    description: 'request (response wait) timeout towards the host, milliseconds',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CONN_TIMEOUT_MS)
  connRequestTimeout?: number | null;

  @LegacyGroupIdField()
  groupId?: string;
}

/** `PUT /api/v2/acquirer/{profileId}`: only included fields change (as in v1); null clears an optional one. */
export class LegacyAcquirerUpdateDto extends OmitType(AcquirerUpdateDto, ['methodList', 'emvList', 'connExtraParams'] as const) {
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, example: METHOD_LIST_EXAMPLE })
  @IsOptionalNonNull()
  @IsPlainObject()
  methodList?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'array', items: { type: 'integer' } }, example: EMV_LIST_EXAMPLE })
  @IsOptionalNonNull()
  @IsPlainObject()
  emvList?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  @IsOptional()
  @IsPlainObject()
  connExtraParams?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: MAX_CONN_TIMEOUT_MS, nullable: true, description: 'milliseconds; null clears' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CONN_TIMEOUT_MS)
  connTimeout?: number | null;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: MAX_CONN_TIMEOUT_MS, nullable: true, description: 'milliseconds; null clears' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CONN_TIMEOUT_MS)
  connRequestTimeout?: number | null;

  @LegacyGroupIdField()
  groupId?: string;
}

/** `GET /api/v2/acquirer`: profileName partial match; pageSize defaults to 10. */
export class LegacyAcquirerListQueryDto extends AcquirerListQueryDto {
  @LegacyPageSize()
  override pageSize?: number = undefined;
}

/** Acquirer profile (legacy): the v1 record with the maps as objects (as the legacy create takes them) and `id`. */
export class LegacyAcquirerProfileDto {
  @ApiProperty({ description: 'same value as profileId' }) id: number;
  @ApiProperty() profileId: number;
  @ApiProperty() groupId: string;
  @ApiProperty() profileName: string;
  @ApiProperty() asDefault: boolean;
  @ApiProperty() asSettleBlock: boolean;
  @ApiProperty() currency: string;
  @ApiProperty({ enum: ['card', 'qr'] }) acqType: string;
  @ApiProperty({ type: String, nullable: true }) connUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) notifyUrl: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) connExtraParams: Record<string, unknown> | null;
  @ApiProperty() connMessageFormat: string;
  @ApiProperty({ type: String, nullable: true }) enablerMsgFormat: string | null;
  @ApiProperty({ type: String, nullable: true }) enablerParams: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'milliseconds' }) connTimeout: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'milliseconds' }) connRequestTimeout: number | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }) methodList: Record<string, string[]>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'array', items: { type: 'integer' } } }) emvList: Record<string, number[]>;
  @ApiProperty({ type: String, nullable: true }) createdBy: string | null;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}

/** The legacy shape of a profile, from the service's record (maps stay objects; v1 writes them as strings). */
export function toLegacyAcquirerProfile(record: AcquirerProfileRecord): LegacyAcquirerProfileDto {
  const { profile, emvList } = record;
  return { id: profile.id, ...acquirerProfileFields(record, { connExtraParams: profile.connExtraParams ?? null, methodList: profile.methodList, emvList }) };
}

/** The v1 API bounds connExtraParams to 4096 characters of JSON; the object form keeps the bound. */
export function boundedConnExtraParams(value: Record<string, unknown> | null | undefined): Record<string, unknown> | null | undefined {
  if (value && JSON.stringify(value).length > 4096) throw DomainError.validation('connExtraParams must be at most 4096 characters of JSON');
  return value;
}
