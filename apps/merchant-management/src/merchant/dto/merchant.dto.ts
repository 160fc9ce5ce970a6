import { formatTimestamp, IsPlainObject, maskedSecret, PageQueryDto } from '@app/common';
import { CarriesHostText, GATEWAY_PROFILE_LIMITS, HOST_TEXT_RULE, IsIanaTimeZone, IsIsoCountry, IsIsoCurrency } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { MerchantView } from '../merchant.view';

/** URL, data URI or bare base64 of a jpg/jpeg/png image. */
// Schemes (and the MIME type) in any case: RFC 3986 §3.1, RFC 2045.
const RECEIPT_LOGO = /^(https?:\/\/\S+|data:image\/(png|jpe?g);base64,[A-Za-z0-9+/]+=*|[A-Za-z0-9+/]+=*)$/i;
const MAX_LOGO_LENGTH = 700_000;

/**
 * Merchant write fields (create and full-replace update). Every optional field may be null, which
 * clears it as leaving it out does (docs/decisions.md, "Null in a write body").
 */
export class MerchantWriteDto {
  /** The gateway profiles' merchantName: the upsert contract's limit; field 43 carries it as printable ASCII. */
  @ApiProperty({ maxLength: GATEWAY_PROFILE_LIMITS.merchantName, description: `the name hosts get in field 43; ${HOST_TEXT_RULE}` })
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.merchantName)
  @CarriesHostText()
  mchName: string;

  @ApiProperty({ example: 'MYR', description: 'default settlement currency, ISO 4217' })
  @IsIsoCurrency()
  currency: string;

  @ApiProperty({ maxLength: 128 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  contactName: string;

  @ApiProperty({ maxLength: 254 })
  @IsString()
  @IsEmail({}, { message: '$property must be an e-mail address' })
  @MaxLength(254)
  contactEmail: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '5812', description: 'ISO 18245 merchant category code, 4 digits' })
  @IsOptional()
  @Matches(/^\d{4}$/, { message: '$property must be 4 digits (ISO 18245)' })
  mcc?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  region?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Asia/Kuala_Lumpur', description: "IANA time zone; defaults to the PBO's" })
  @IsOptional()
  @IsIanaTimeZone()
  timeZone?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'MY', description: 'ISO 3166-1 alpha-2' })
  @IsOptional()
  @IsIsoCountry()
  country?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 32, description: 'transaction type restriction' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  transType?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 32 })
  @IsOptional()
  @Matches(/^\+?[0-9 ()-]{3,32}$/, { message: '$property must be a phone number (digits, spaces, dashes, parentheses, optional leading +)' })
  contactPhone?: string | null;

  /** The gateway profiles' merchantAddr: the upsert contract's limit. */
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: GATEWAY_PROFILE_LIMITS.merchantAddr })
  @IsOptional()
  @IsString()
  @MaxLength(GATEWAY_PROFILE_LIMITS.merchantAddr)
  contactAddress?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'logo URL, or base64 of a jpg/jpeg/png image' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_LOGO_LENGTH)
  @Matches(RECEIPT_LOGO, { message: '$property must be an http(s) URL or base64 of a jpg/jpeg/png image' })
  receiptLogo?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1024 })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  receiptInfo?: string | null;

  @ApiPropertyOptional({ nullable: true, enum: [0, 1], default: 1, description: '1 active (can process payments), 0 inactive' })
  @IsOptional()
  @IsIn([0, 1], { message: '$property must be 1 (active) or 0 (inactive)' })
  state?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 128, description: "caller's own unique reference for the merchant" })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  providerReference?: string | null;

  @ApiPropertyOptional({ type: String, description: 'operator passcode; stored hashed, shown as ******; omitted on PUT keeps it, null clears it', nullable: true })
  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsString()
  @MinLength(4)
  @MaxLength(64)
  passcode?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '1.5', description: 'merchant discount rate override, percent' })
  @IsOptional()
  @Matches(/^\d{1,2}(\.\d{1,4})?$/, { message: '$property must be a percentage such as 1.5' })
  mdr?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 32 })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  merchantType?: string | null;

  @ApiPropertyOptional({ nullable: true, type: 'object', additionalProperties: true, description: 'free-form metadata, stored as given' })
  @IsOptional()
  @IsPlainObject()
  additionalData?: Record<string, unknown> | null;
}

export class MerchantListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'exact' })
  @IsOptional()
  @IsUUID('all', { message: '$property must be a UUID' })
  uuid?: string;

  @ApiPropertyOptional({ description: 'exact' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  mchId?: string;

  @ApiPropertyOptional({ description: 'partial match' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  mchName?: string;

  @ApiPropertyOptional({ description: 'activation code issued to the merchant (12 digits or CD- id)' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  activationCode?: string;
}

export class AcquirerSummaryDto {
  @ApiProperty() profileId: number;
  @ApiProperty() profileName: string;
  @ApiProperty() currency: string;
  @ApiProperty() acqType: string;
  @ApiProperty({ description: 'JSON-encoded map of the bound methods to allowed transaction types' }) methodList: string;
  @ApiProperty({ description: 'JSON-encoded map of the bound methods to EMV config ids' }) emvList: string;
}

export class MerchantDto {
  @ApiProperty() uuid: string;
  @ApiProperty() mchId: string;
  @ApiProperty({ description: 'same value as mchId' }) id: string;
  @ApiProperty() groupId: string;
  @ApiProperty() mchName: string;
  @ApiProperty({ type: String, nullable: true }) mcc: string | null;
  @ApiProperty({ type: String, nullable: true }) region: string | null;
  @ApiProperty() timeZone: string;
  @ApiProperty({ type: String, nullable: true }) country: string | null;
  @ApiProperty() contactName: string;
  @ApiProperty({ type: String, nullable: true }) contactPhone: string | null;
  @ApiProperty() contactEmail: string;
  @ApiProperty({ type: String, nullable: true }) contactAddress: string | null;
  @ApiProperty() state: number;
  @ApiProperty() currency: string;
  @ApiProperty({ type: [String], description: 'bound payment method codes' }) supportedPayments: string[];
  @ApiProperty() hasKioskTerminal: boolean;
  @ApiProperty({ type: [AcquirerSummaryDto] }) acquirers: AcquirerSummaryDto[];
  @ApiProperty({ type: String, nullable: true }) providerReference: string | null;
  @ApiProperty({ type: String, nullable: true }) transType: string | null;
  @ApiProperty({ type: String, nullable: true }) receiptLogo: string | null;
  @ApiProperty({ type: String, nullable: true }) receiptInfo: string | null;
  @ApiProperty({ type: String, nullable: true, description: '****** when set' }) passcode: string | null;
  @ApiProperty({ type: String, nullable: true }) mdr: string | null;
  @ApiProperty({ type: String, nullable: true }) merchantType: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) additionalData: Record<string, unknown> | null;
  @ApiProperty({ type: String, nullable: true }) createdBy: string | null;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}

/** The v1 merchant response: stored fields plus the read-only payment summary (maps JSON-encoded). */
export function toMerchantDto({ merchant, bindings, hasKioskTerminal }: MerchantView): MerchantDto {
  const supported: string[] = [];
  for (const binding of bindings)
    for (const method of binding.methods) if (!supported.includes(method.paymentMethodCode)) supported.push(method.paymentMethodCode);
  return {
    uuid: merchant.uuid,
    mchId: merchant.mchId,
    id: merchant.mchId,
    groupId: merchant.groupId,
    mchName: merchant.mchName,
    mcc: merchant.mcc,
    region: merchant.region,
    timeZone: merchant.timeZone,
    country: merchant.country,
    contactName: merchant.contactName,
    contactPhone: merchant.contactPhone,
    contactEmail: merchant.contactEmail,
    contactAddress: merchant.contactAddress,
    state: merchant.state,
    currency: merchant.currency,
    supportedPayments: supported,
    hasKioskTerminal,
    acquirers: bindings.map((binding) => ({
      profileId: binding.acquirerProfileId,
      profileName: binding.profileName,
      currency: binding.currency,
      acqType: binding.acqType,
      methodList: JSON.stringify(Object.fromEntries(binding.methods.map((m) => [m.paymentMethodCode, m.allows]))),
      emvList: JSON.stringify(Object.fromEntries(binding.methods.map((m) => [m.paymentMethodCode, m.emvs.map((e) => e.emvId)]))),
    })),
    providerReference: merchant.providerReference,
    transType: merchant.transType,
    receiptLogo: merchant.receiptLogo,
    receiptInfo: merchant.receiptInfo,
    passcode: maskedSecret(merchant.passcodeHash),
    mdr: merchant.mdr,
    merchantType: merchant.merchantType,
    additionalData: merchant.additionalData,
    createdBy: merchant.createdBy,
    createdAt: formatTimestamp(merchant.createdAt),
    updatedAt: formatTimestamp(merchant.updatedAt),
  };
}
