import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayNotEmpty, ArrayUnique, IsArray, IsBoolean, IsIn, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength, Min, ValidateNested } from 'class-validator';
import { HOST_URL_PATTERN } from './host-address';
import { HOST_MESSAGE_FORMATS } from './host-formats';
import { PAYMENT_METHODS, PaymentMethodName } from './payment-methods';
import { IsIanaTimeZone, IsIsoCountry, IsIsoCurrency, NullableButPresent } from './validation';

/**
 * Longest texts a profile upsert carries, by field: one source for this contract and for the
 * producer's own edge checks (merchant-management refuses at its API what the gateway would
 * dead-letter).
 */
export const GATEWAY_PROFILE_LIMITS = {
  profileName: 128,
  merchantName: 128,
  merchantAddr: 512,
  providerReference: 128,
  acptName: 128,
  primaryMid: 32,
  primaryTid: 32,
  groupId: 64,
  merchantId: 32,
  deviceId: 64,
} as const;

/** A gateway profile id as merchant-management assigns it (`prof_…`). */
export const GATEWAY_PROFILE_ID_PATTERN = /^prof_[A-Za-z0-9_-]{1,64}$/;

/** Payment method names as the gateway speaks them (`VISA`, `MASTERCARD`, …). */
export const GATEWAY_PAYMENT_NAMES: readonly PaymentMethodName[] = Object.values(PAYMENT_METHODS);

/** A device's lifecycle as its gateway profile carries it ({@link GatewayProfileUpsertV1.entityStatus}). */
export const GATEWAY_LIFECYCLE_STATUSES = ['ACTIVE', 'DISABLED'] as const;
export type GatewayLifecycleStatus = (typeof GATEWAY_LIFECYCLE_STATUSES)[number];

/** One acceptance of a gateway profile: which host format, which payment methods, which MID/TID. */
export class GatewayAcceptanceV1 {
  @ApiProperty({ example: 'Maybank VISA/MC' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.acptName)
  acptName: string;

  /** The host format the acceptance speaks (`MOCK`, `ISO8583`, `MPGS_AP`, …): one of {@link HOST_MESSAGE_FORMATS}. */
  @ApiProperty({ enum: HOST_MESSAGE_FORMATS, example: 'ISO8583' })
  @IsIn(HOST_MESSAGE_FORMATS, { message: `$property must be one of the host message formats ${HOST_MESSAGE_FORMATS.join(', ')}` })
  hostMessageFormat: string;

  @ApiProperty({ enum: GATEWAY_PAYMENT_NAMES, isArray: true, example: ['VISA', 'MASTERCARD'] })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(GATEWAY_PAYMENT_NAMES, { each: true })
  supportedPayments: PaymentMethodName[];

  /** Null when neither the device, the payment config nor the PBO gives a MID. */
  @ApiProperty({ type: String, nullable: true, example: '000001234567890' })
  @NullableButPresent()
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.primaryMid)
  primaryMid: string | null;

  /** Null when the device's extParams carry no acqTid. */
  @ApiProperty({ type: String, nullable: true, example: '12345678' })
  @NullableButPresent()
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.primaryTid)
  primaryTid: string | null;

  /**
   * The acquirer host's address, from the acquirer profile in merchant-management (its `connUrl`):
   * `tcp://host:port` or `http(s)://…` (the scheme in any case, {@link HOST_URL_PATTERN}: the
   * pattern the host request's `connUrl` has, so what applies here reaches the host); null: the host connector's default for the
   * format. The only address the gateway ever sends a host request to: `extraParams` (which the
   * gateway API also writes) is never one. Optional so that upserts of an older producer, which
   * carried it as `extraParams.connUrl`, still apply.
   */
  @ApiProperty({ required: false, type: String, nullable: true, example: 'tcp://acquirer.example:5000' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  @Matches(HOST_URL_PATTERN, { message: '$property must be a tcp:// or http(s):// URL' })
  hostUrl?: string | null;

  /** Free-form acceptance parameters (`subMchDba`, …); `{}` when none. */
  @ApiProperty({ type: 'object', additionalProperties: true, example: { subMchDba: 'Kopi Corner' } })
  @IsObject()
  extraParams: Record<string, unknown>;

  /**
   * The acquirer profile the acceptance comes from (merchant-management's id of it), the same
   * whatever its name or address: the gateway tells the same acquirer by it, to keep an
   * acceptance's id across a rename and to send an earlier sale's follow-ups and settle where that
   * acquirer is now (docs/decisions.md, "Review r14n"). Optional: an older producer sends none.
   */
  @ApiProperty({ required: false, type: String, example: '42' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  acquirerRef?: string;
}

/**
 * Payload of {@link GATEWAY_PROFILE_UPSERT_V1}: merchant-management's full picture of one device's
 * gateway profile. The gateway creates or replaces the profile and binds exactly these
 * acceptances (an empty list unbinds all). `version` grows with every push of a profile, so a
 * consumer drops a message whose version is not above the one it stored: redelivered and
 * out-of-order messages are then harmless.
 */
export class GatewayProfileUpsertV1 {
  /** Assigned by merchant-management (`prof_…`); the gateway uses it as the profile id. */
  @ApiProperty({ example: 'prof_01J9ZK3W6Q8X' })
  @IsString()
  @Matches(GATEWAY_PROFILE_ID_PATTERN, { message: '$property must look like prof_<id>' })
  profileId: string;

  @ApiProperty({ minimum: 1, example: 3 })
  @IsInt()
  @Min(1)
  version: number;

  @ApiProperty({ example: 'Kopi Corner / SN-001' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.profileName)
  profileName: string;

  @ApiProperty({ type: String, nullable: true, example: 'ext-merchant-42' })
  @NullableButPresent()
  @IsString()
  @MaxLength(GATEWAY_PROFILE_LIMITS.providerReference)
  providerReference: string | null;

  @ApiProperty({ example: 'Kopi Corner Sdn Bhd' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.merchantName)
  merchantName: string;

  @ApiProperty({ type: String, nullable: true, example: '1 Jalan Ampang, Kuala Lumpur' })
  @NullableButPresent()
  @IsString()
  @MaxLength(GATEWAY_PROFILE_LIMITS.merchantAddr)
  merchantAddr: string | null;

  /** ISO 18245 merchant category code. */
  @ApiProperty({ type: String, nullable: true, example: '5814' })
  @NullableButPresent()
  @Matches(/^\d{4}$/, { message: '$property must be a 4-digit merchant category code' })
  mcc: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'MY' })
  @NullableButPresent()
  @IsIsoCountry()
  countryCode: string | null;

  @ApiProperty({ example: 'MYR' })
  @IsIsoCurrency()
  currency: string;

  /**
   * The merchant's IANA time zone: the local date and time (ISO 8583 fields 12 and 13) a host is
   * sent. Optional so that upserts of an older producer still apply (the gateway then stores none).
   */
  @ApiProperty({ required: false, example: 'Asia/Kuala_Lumpur' })
  @IsOptional()
  @IsString()
  @IsIanaTimeZone()
  timeZone?: string;

  /**
   * The device's lifecycle as the gateway enforces it: DISABLED once its activation code is
   * deleted or the device is logged out, decommissioned or idled (its token must not pay any
   * more); ACTIVE while it is pending or active. A lifecycle DISABLED is kept apart from a PBO's
   * own DISABLED (PUT profile status), so neither undoes the other. Optional so that upserts of an
   * older producer still apply (the gateway then keeps what it had).
   */
  @ApiProperty({ required: false, enum: GATEWAY_LIFECYCLE_STATUSES, example: 'ACTIVE' })
  @IsOptional()
  @IsIn(GATEWAY_LIFECYCLE_STATUSES)
  entityStatus?: GatewayLifecycleStatus;

  /**
   * With `entityStatus` DISABLED: the device may come back (idled or logged out, not decommissioned
   * nor its code deleted), so its terminals (MID/TID at a host) stay its PBO's while it is away, as
   * merchant-management counts them (review r14h). Absent or false: a retired profile releases them.
   */
  @ApiProperty({ required: false, example: false })
  @IsOptional()
  @IsBoolean()
  keepsTerminals?: boolean;

  /**
   * The device id (`SDK…`) of the device's current activation: the subject of the only device
   * token that may pay through the profile. Every activation gives the device a new id, so a token
   * of an earlier activation (the old phone's, once the code was idled and activated again) names
   * another and is refused. Absent while the device was never activated, and from an older
   * producer (the gateway then keeps what it had).
   */
  @ApiProperty({ required: false, example: 'SDK3F2A9C01D4E5B6A7C8D9' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.deviceId)
  activeSdkId?: string;

  @ApiProperty({ type: [GatewayAcceptanceV1] })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => GatewayAcceptanceV1)
  acceptances: GatewayAcceptanceV1[];

  /** The PBO that owns the device (tenancy travels with the message). */
  @ApiProperty({ example: 'grp_demo' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.groupId)
  groupId: string;

  @ApiProperty({ example: 'M000000001' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.merchantId)
  merchantId: string;

  @ApiProperty({ example: 'SN-001' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.deviceId)
  deviceId: string;
}
