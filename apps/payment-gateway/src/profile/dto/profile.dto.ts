import { IsOptionalNonNull, IsPlainObject } from '@app/common';
import {
  ACCEPTANCE_PARAM_RULES,
  CarriesHostText,
  HOST_TEXT_RULE,
  GATEWAY_PAYMENT_NAMES,
  HasValidAcceptanceParams,
  HOST_MESSAGE_FORMATS,
  HOST_MID_PATTERN,
  HOST_MID_RULE,
  HOST_TID_PATTERN,
  HOST_TID_RULE,
  IsIanaTimeZone,
  IsIsoCountry,
  IsIsoCurrency,
  PaymentMethodName,
} from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ENTITY_STATUSES, EntityStatus } from '../persistence/entity-status';

/** Largest page of the profile list. */
export const MAX_PROFILE_PAGE_SIZE = 100;
export const DEFAULT_PROFILE_PAGE_SIZE = 20;
/** Acceptances one profile may list. */
export const MAX_ACCEPTANCES = 20;

// ---- requests ---------------------------------------------------------------------------------

/** One acceptance of a ProfileRequest: updated and bound when `acptId` names one of the PBO's, else created. */
export class AcceptanceRequestDto {
  @ApiPropertyOptional({ example: 'acpt_3hV0cQ9mX2rT8wK1yB6nZg', description: 'an existing acceptance of the PBO to update and bind; unknown ids create a new acceptance' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(80)
  acptId?: string;

  @ApiProperty({ example: 'Maybank VISA/MC', maxLength: 128 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  acptName: string;

  @ApiProperty({ enum: HOST_MESSAGE_FORMATS, example: 'ISO8583' })
  @IsIn(HOST_MESSAGE_FORMATS)
  hostMessageFormat: string;

  @ApiProperty({ enum: GATEWAY_PAYMENT_NAMES, isArray: true, example: ['VISA', 'MASTERCARD'] })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(GATEWAY_PAYMENT_NAMES, { each: true, message: `$property must hold payment method names: ${GATEWAY_PAYMENT_NAMES.join(', ')}` })
  supportedPayments: PaymentMethodName[];

  @ApiPropertyOptional({ type: String, nullable: true, example: '000001234567890', pattern: HOST_MID_PATTERN.source, description: 'card acceptor id (field 42): 1 to 15 letters, digits or spaces, not spaces only' })
  @IsOptional()
  @IsString()
  @Matches(HOST_MID_PATTERN, { message: `$property ${HOST_MID_RULE}` })
  primaryMid?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '12345678', pattern: HOST_TID_PATTERN.source, description: 'terminal id (field 41): 1 to 8 letters or digits' })
  @IsOptional()
  @IsString()
  @Matches(HOST_TID_PATTERN, { message: `$property ${HOST_TID_RULE}` })
  primaryTid?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    properties: {
      acqInstId: { type: 'string', pattern: ACCEPTANCE_PARAM_RULES.acqInstId[0].source, description: `acquiring institution id (field 32): ${ACCEPTANCE_PARAM_RULES.acqInstId[1]}` },
      subMchDba: { type: 'string', pattern: ACCEPTANCE_PARAM_RULES.subMchDba[0].source, description: `sub-merchant name (field 43): ${ACCEPTANCE_PARAM_RULES.subMchDba[1]}` },
    },
    example: { subMchDba: 'Kopi Corner' },
    description: 'free-form, but acqInstId and subMchDba, which reach the host, must meet their rules (400 naming the key otherwise); {} when omitted',
  })
  @IsOptionalNonNull()
  @IsPlainObject()
  @HasValidAcceptanceParams()
  extraParams?: Record<string, unknown>;

  @ApiPropertyOptional({ type: [String], nullable: true, example: ['counter-1'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  tags?: string[] | null;
}

/** Body of POST and PUT profile. PUT replaces every field: an omitted optional field is cleared. */
export class ProfileRequestDto {
  @ApiProperty({ example: 'Kopi Corner / counter 1', maxLength: 128 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  profileName: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'ext-merchant-42', description: "the caller's reference, unique among the PBO's profiles" })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  providerReference?: string | null;

  @ApiProperty({ example: 'Kopi Corner Sdn Bhd', maxLength: 128, description: `the name hosts get in field 43; ${HOST_TEXT_RULE}` })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  @CarriesHostText()
  merchantName: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '1 Jalan Ampang, Kuala Lumpur', maxLength: 512 })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  merchantAddr?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '5814', description: 'ISO 18245 merchant category code, 4 digits' })
  @IsOptional()
  @Matches(/^\d{4}$/, { message: '$property must be 4 digits (ISO 18245)' })
  mcc?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'MY', description: 'ISO 3166-1 alpha-2' })
  @IsOptional()
  @IsIsoCountry()
  countryCode?: string | null;

  @ApiProperty({ example: 'MYR', description: 'ISO 4217' })
  @IsIsoCurrency()
  currency: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Asia/Kuala_Lumpur',
    description:
      "IANA time zone of the merchant: the local date and time hosts are sent. Required when an acceptance's hostMessageFormat sends local time (the ISO 8583 formats, POMELO_JSON, EZ_AIO, EZ_WALLET): 400 naming timeZone otherwise",
  })
  @IsOptional()
  @IsString()
  @IsIanaTimeZone()
  timeZone?: string | null;

  @ApiProperty({ type: [AcceptanceRequestDto], description: 'the acceptances to bind, in routing order; [] unbinds all' })
  @IsArray()
  @ArrayMaxSize(MAX_ACCEPTANCES)
  @ValidateNested({ each: true })
  @Type(() => AcceptanceRequestDto)
  acceptances: AcceptanceRequestDto[];
}

export class ProfileStatusRequestDto {
  @ApiProperty({ enum: ENTITY_STATUSES })
  @IsIn(ENTITY_STATUSES)
  status: EntityStatus;
}

/** Query booleans are the words `true` and `false` only. */
function strictBoolean({ value }: { value: unknown }): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

export class ProfileListQueryDto {
  @ApiPropertyOptional({ description: 'a currentCursor or nextCursor from an earlier page; omitted: from the start (or the end, going backward)' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;

  @ApiPropertyOptional({ default: DEFAULT_PROFILE_PAGE_SIZE, minimum: 1, maximum: MAX_PROFILE_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PROFILE_PAGE_SIZE)
  pageSize?: number;

  @ApiPropertyOptional({ default: true, description: 'true: the profiles after the cursor; false: the profiles before it' })
  @IsOptional()
  @Transform(strictBoolean)
  @IsBoolean()
  isForward?: boolean;
}

// ---- responses --------------------------------------------------------------------------------

export class AcceptanceDto {
  @ApiProperty({ example: 'acpt_3hV0cQ9mX2rT8wK1yB6nZg' }) acptId: string;
  @ApiProperty() acptName: string;
  @ApiProperty({ example: 'ISO8583' }) hostMessageFormat: string;
  @ApiProperty({ type: [String], example: ['VISA', 'MASTERCARD'] }) supportedPayments: string[];
  @ApiProperty({ type: String, nullable: true }) primaryMid: string | null;
  @ApiProperty({ type: String, nullable: true }) primaryTid: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) extraParams: Record<string, unknown>;
  @ApiProperty({ enum: ENTITY_STATUSES }) entityStatus: EntityStatus;
  @ApiProperty({ type: [String], nullable: true }) tags: string[] | null;
  @ApiProperty({ example: '2025-01-31T08:15:30.123000+00:00' }) createdAt: string;
  @ApiProperty({ type: String, nullable: true, description: 'null until the first update' }) updatedAt: string | null;
}

export class ProfileDto {
  @ApiProperty({ example: 'prof_Xq3vJ0a9T1mB7cR2sD5eWg' }) profileId: string;
  @ApiProperty() profileName: string;
  @ApiProperty({ type: String, nullable: true }) providerReference: string | null;
  @ApiProperty() merchantName: string;
  @ApiProperty({ type: String, nullable: true }) merchantAddr: string | null;
  @ApiProperty({ type: String, nullable: true }) mcc: string | null;
  @ApiProperty({ type: String, nullable: true }) countryCode: string | null;
  @ApiProperty() currency: string;
  @ApiProperty({ type: String, nullable: true, example: 'Asia/Kuala_Lumpur' }) timeZone: string | null;
  @ApiProperty({ enum: ENTITY_STATUSES }) entityStatus: EntityStatus;
  @ApiProperty({ example: '2025-01-31T08:15:30.123000+00:00' }) createdAt: string;
  @ApiProperty({ type: String, nullable: true, description: 'null until the first update' }) updatedAt: string | null;
}

export class ProfileWithAcptDto extends ProfileDto {
  @ApiProperty({ type: [AcceptanceDto], description: 'bound acceptances, in routing order' }) acceptances: AcceptanceDto[];

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { acpt_3hV0cQ9mX2rT8wK1yB6nZg: ['VISA', 'MASTERCARD'] },
    description: 'per bound acceptance, the payment methods routed to it (each method goes to the first acceptance that supports it)',
  })
  acptSelection: Record<string, string[]>;
}

export class ProfilePageDto {
  @ApiProperty() hasNext: boolean;
  @ApiProperty() pageSize: number;
  @ApiProperty({ description: "the PBO's profiles in all" }) totalSize: number;
  @ApiProperty({ description: "the cursor of this page's first profile (isForward=false from it gives the page before)" }) currentCursor: string;
  @ApiProperty({ type: String, nullable: true, description: 'the cursor to go on in the same direction; null at the end' }) nextCursor: string | null;
  @ApiProperty({ type: [ProfileDto] }) data: ProfileDto[];
}
