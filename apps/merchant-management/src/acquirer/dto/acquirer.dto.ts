import { IsJsonObjectString, IsOptionalNonNull, PageQueryDto } from '@app/common';
import { ACQUIRER_MESSAGE_FORMATS, GATEWAY_PROFILE_LIMITS, HOST_MESSAGE_FORMATS, IsIsoCurrency } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ENABLER_PARAMS_PATTERN } from '../../shared/enabler-params';
import { acquirerProfileFields } from '../acquirer-profile.view';
import { AcquirerProfileRecord } from '../persistence/acquirer-profile.repository';

/** Fields shared by create and update (v1). */
class AcquirerFieldsDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'tcp://acquirer.example:5000',
    description:
      'address of the acquirer host in its format: tcp://host:port (no path) for the ISO 8583 formats, http(s)://host[:port][/base] for the JSON formats; no credentials. Checked with the host connector\'s own parser against the format the profile is spoken in (enablerMsgFormat, else the PBO\'s gateway format for SVC_ENABLER, else connMessageFormat); MOCK takes either form',
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  connUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'callback URL for asynchronous notifications from the acquirer' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  @Matches(/^https?:\/\/\S+$/i, { message: '$property must be an http:// or https:// URL' })
  notifyUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'JSON-encoded object of extra connection parameters; acqInstId (1 to 11 digits: the acquiring institution id, field 32) and subMchDba (a sub-merchant named in field 43) reach the host for every device without its own' })
  @IsOptional()
  @IsJsonObjectString()
  @MaxLength(4096)
  connExtraParams?: string | null;

  @ApiPropertyOptional({ type: String, enum: HOST_MESSAGE_FORMATS, nullable: true, description: 'overrides the PBO-level gateway message format' })
  @IsOptional()
  @IsIn(HOST_MESSAGE_FORMATS)
  enablerMsgFormat?: string | null;

  @ApiPropertyOptional({
    type: String,
    example: 'acqMid,acqTid',
    description:
      "comma- or semicolon-separated device fields expected under extParams.acquirers.{profileId}; blank (or null) falls back to the PBO's group-level list and is shown as null",
  })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  @Matches(ENABLER_PARAMS_PATTERN, { message: '$property must be field names separated by commas or semicolons' })
  enablerParams?: string | null;

  @ApiPropertyOptional({ default: false })
  @IsOptionalNonNull()
  @IsBoolean()
  asDefault?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptionalNonNull()
  @IsBoolean()
  asSettleBlock?: boolean;
}

/** `POST /api/openapi/v1/acquirer`. */
export class AcquirerCreateDto extends AcquirerFieldsDto {
  @ApiProperty({ maxLength: GATEWAY_PROFILE_LIMITS.acptName, description: 'unique within the PBO; the acceptance name of the gateway profiles' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.acptName)
  profileName: string;

  @ApiProperty({ example: 'MYR', description: 'settlement currency; immutable' })
  @IsIsoCurrency()
  currency: string;

  @ApiPropertyOptional({ enum: ['card', 'qr'], nullable: true, default: 'card', description: 'immutable; qr needs the PBO\'s QR support' })
  @IsOptional()
  @IsIn(['card', 'qr'])
  acqType?: 'card' | 'qr' | null;

  @ApiProperty({ enum: ACQUIRER_MESSAGE_FORMATS })
  @IsIn(ACQUIRER_MESSAGE_FORMATS)
  connMessageFormat: string;

  @ApiProperty({ example: '{"01":[],"02":[]}', description: 'JSON-encoded map: payment method code to allowed transaction types (reserved, may be empty)' })
  @IsString()
  @MaxLength(4096)
  methodList: string;

  @ApiPropertyOptional({ example: '{"01":[1],"02":[2]}', description: 'JSON-encoded map: payment method code to EMV config ids; required for card profiles' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(4096)
  emvList?: string;
}

/** `PUT /api/openapi/v1/acquirer/{profileId}`: only included fields change. */
export class AcquirerUpdateDto extends AcquirerFieldsDto {
  @ApiPropertyOptional({ maxLength: GATEWAY_PROFILE_LIMITS.acptName })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.acptName)
  profileName?: string;

  @ApiPropertyOptional({ description: 'immutable: accepted only when equal to the current value' })
  @IsOptionalNonNull()
  @IsString()
  currency?: string;

  @ApiPropertyOptional({ description: 'immutable: accepted only when equal to the current value' })
  @IsOptionalNonNull()
  @IsString()
  acqType?: string;

  @ApiPropertyOptional({ enum: ACQUIRER_MESSAGE_FORMATS })
  @IsOptionalNonNull()
  @IsIn(ACQUIRER_MESSAGE_FORMATS)
  connMessageFormat?: string;

  @ApiPropertyOptional({ description: 'JSON-encoded map: payment method code to allowed transaction types' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(4096)
  methodList?: string;

  @ApiPropertyOptional({ description: 'JSON-encoded map: payment method code to EMV config ids' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(4096)
  emvList?: string;
}

export class AcquirerListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'partial match' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  profileName?: string;
}

export class AcquirerProfileDto {
  @ApiProperty() profileId: number;
  @ApiProperty() groupId: string;
  @ApiProperty() profileName: string;
  @ApiProperty() asDefault: boolean;
  @ApiProperty() asSettleBlock: boolean;
  @ApiProperty() currency: string;
  @ApiProperty({ enum: ['card', 'qr'] }) acqType: string;
  @ApiProperty({ type: String, nullable: true }) connUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) notifyUrl: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'JSON-encoded object' }) connExtraParams: string | null;
  @ApiProperty() connMessageFormat: string;
  @ApiProperty({ type: String, nullable: true }) enablerMsgFormat: string | null;
  @ApiProperty({ type: String, nullable: true }) enablerParams: string | null;
  @ApiProperty({ type: Number, nullable: true }) connTimeout: number | null;
  @ApiProperty({ type: Number, nullable: true }) connRequestTimeout: number | null;
  @ApiProperty({ description: 'JSON-encoded map: payment method code to allowed transaction types' }) methodList: string;
  @ApiProperty({ description: 'JSON-encoded map: payment method code to EMV config ids' }) emvList: string;
  @ApiProperty({ type: String, nullable: true }) createdBy: string | null;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}

/** The v1 shape of an acquirer profile (maps JSON-encoded). */
export function toAcquirerProfileDto(record: AcquirerProfileRecord): AcquirerProfileDto {
  const { profile, emvList } = record;
  return acquirerProfileFields(record, {
    connExtraParams: profile.connExtraParams ? JSON.stringify(profile.connExtraParams) : null,
    methodList: JSON.stringify(profile.methodList),
    emvList: JSON.stringify(emvList),
  });
}
