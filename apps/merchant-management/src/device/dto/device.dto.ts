import { IsPlainObject, PageQueryDto } from '@app/common';
import { GATEWAY_PROFILE_LIMITS } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { OPERATING_MODES } from '../../shared/device-status';
import { PROFILE_SYNC_STATES, ProfileSyncState } from '../device';
import { EMV_PARAM_FORMATS } from '../device-input';

const nullable = () => ValidateIf((_object, value) => value !== null);
/** A name the device is known by: at least one character that is not white space (a blank one names nothing; review r14g). */
export const notBlank = () => Matches(/\S/, { message: '$property must not be blank' });

/** deviceAlias / deviceName name the device's gateway profile (profileName): not empty, and the upsert contract's limit. */
const PROFILE_NAME = GATEWAY_PROFILE_LIMITS.profileName;

/** `POST /api/openapi/v1/device`: generate an activation code. An optional field sent as null is as if left out. */
export class DeviceCreateDto {
  @ApiProperty({ description: 'merchant the device belongs to' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  mchId: string;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: PROFILE_NAME, pattern: '\\S' }) @IsOptional() @IsString() @IsNotEmpty() @notBlank() @MaxLength(PROFILE_NAME) deviceAlias?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: PROFILE_NAME, pattern: '\\S' }) @IsOptional() @IsString() @IsNotEmpty() @notBlank() @MaxLength(PROFILE_NAME) deviceName?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'COTS', maxLength: 32 }) @IsOptional() @IsString() @MaxLength(32) deviceType?: string | null;

  @ApiPropertyOptional({ enum: OPERATING_MODES, nullable: true, default: 'STANDARD' })
  @IsOptional()
  @IsIn(OPERATING_MODES)
  operatingMode?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '01,02', description: 'comma-separated payment method codes; all bound methods when omitted or null' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  methodList?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'admin password of the device; stored hashed, shown as ******' })
  @IsOptional()
  @IsString()
  @MinLength(4)
  @MaxLength(64)
  deviceAdmin?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description:
      '{acquirers: {<profileId>: {<field>: <value>}}, allAcquirers: {<field>: <value>}}: acquirers keyed by profiles bound to the merchant; allAcquirers holds fields for every acquirer bound now or later, and wins over the per-acquirer ones. acqMid/acqTid are the MID/TID (fields 42/41); acqInstId (1 to 11 digits, field 32) and subMchDba (the sub-merchant named in field 43) reach the host over the acquirer profile\'s connExtraParams',
    example: { acquirers: { '1': { acqMid: '000000000000001', acqTid: '00000001' } } },
  })
  @IsOptional()
  @IsPlainObject()
  extParams?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: 'object', nullable: true, additionalProperties: { type: 'string' }, description: `amexFloorLimit, terminalCountryCode, txnCurrencyCode, terminalType, terminalCapability, emvFlags (strings), ${EMV_PARAM_FORMATS}` })
  @IsOptional()
  @IsPlainObject()
  emvParams?: Record<string, unknown> | null;
}

/** `PUT /api/openapi/v1/device/{deviceId}`: omitted fields stay, null clears. */
export class DeviceUpdateDto {
  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: PROFILE_NAME, pattern: '\\S' }) @IsOptional() @IsString() @IsNotEmpty() @notBlank() @MaxLength(PROFILE_NAME) deviceAlias?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: PROFILE_NAME, pattern: '\\S' }) @IsOptional() @IsString() @IsNotEmpty() @notBlank() @MaxLength(PROFILE_NAME) deviceName?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @IsOptional() @nullable() @IsString() @MaxLength(32) deviceType?: string | null;
  @ApiPropertyOptional({ enum: OPERATING_MODES, nullable: true, description: 'null sets STANDARD' }) @IsOptional() @nullable() @IsIn(OPERATING_MODES) operatingMode?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'comma-separated codes; null means every bound method' }) @IsOptional() @nullable() @IsString() @MaxLength(64) methodList?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @IsOptional() @nullable() @IsString() @MinLength(4) @MaxLength(64) deviceAdmin?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'JSON-encoded {acquirers: {<profileId>: {<field>: <value>}}, allAcquirers: {<field>: <value>}} (as on create)' }) @IsOptional() @nullable() @IsString() @MaxLength(8192) extParams?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: `JSON-encoded EMV terminal parameters (string values), ${EMV_PARAM_FORMATS}` }) @IsOptional() @nullable() @IsString() @MaxLength(4096) emvParams?: string | null;
}

export class DeviceListQueryDto extends PageQueryDto {
  @ApiProperty({ description: 'merchant id (required)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  mchId: string;

  @ApiPropertyOptional({ description: 'exact device id, CD- code id or bare code' }) @IsOptional() @IsString() @MaxLength(32) deviceId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(32) deviceType?: string;
}

export class DeviceDeleteQueryDto {
  @ApiPropertyOptional({ enum: ['2', '3'], description: '2 logs an activated device out, 3 decommissions it' })
  @IsOptional()
  @IsIn(['2', '3'], { message: '$property must be 2 (log out) or 3 (decommission)' })
  deviceStatus?: string;
}

export class DeviceCodeEmailDto {
  @ApiProperty({ description: 'activation code id (CD-…) or device id' }) @IsString() @IsNotEmpty() @MaxLength(32) deviceId: string;
  @ApiProperty() @IsEmail({}, { message: '$property must be an e-mail address' }) @MaxLength(254) email: string;
}

export class CreatedCodeDto {
  @ApiProperty({ example: 'CD-123456789012' }) id: string;
  @ApiProperty({ example: '123456789012' }) activationCode: string;
  @ApiProperty({ type: String, nullable: true, example: 'prof_3kT9…' }) profileId: string | null;
}

/** Where the device's gateway profile stands (docs/decisions.md, "Profile sync state"). */
export class ProfileSyncDto {
  @ApiProperty({ enum: PROFILE_SYNC_STATES, description: 'PENDING: the latest push awaits the gateway; APPLIED: the gateway stored it; REJECTED: the gateway refused it (see reason); replay it once the cause is fixed' })
  state: ProfileSyncState;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'the version of the latest push, which the state is about' })
  version: number;

  @ApiProperty({ type: String, nullable: true, description: "the gateway's reason; null unless REJECTED" })
  reason: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'when the gateway decided (as the other timestamps, UTC); null while PENDING' })
  decidedAt: string | null;
}

export class DeviceDto {
  @ApiProperty({ description: 'device id once activated, else the CD- code id' }) deviceId: string;
  @ApiProperty() uuid: string;
  @ApiProperty() mchId: string;
  @ApiProperty() groupId: string;
  @ApiProperty({ type: String, nullable: true }) deviceType: string | null;
  @ApiProperty() deviceStatus: number;
  @ApiProperty() deviceUpdate: number;
  @ApiProperty({ type: String, nullable: true }) deviceAlias: string | null;
  @ApiProperty({ type: String, nullable: true }) deviceName: string | null;
  @ApiProperty({ type: String, nullable: true, description: '****** when set' }) deviceAdmin: string | null;
  @ApiProperty({ type: String, nullable: true }) appVersion: string | null;
  @ApiProperty({ description: 'JSON-encoded {"activationCode": "…"}' }) deviceToken: string;
  @ApiProperty({ description: 'JSON-encoded map: payment method code to {mid, tid} of the acceptance that carries it' }) methodList: string;
  @ApiProperty({ type: String, nullable: true }) profileId: string | null;
  @ApiProperty({ type: ProfileSyncDto, nullable: true, description: 'v1 only: where the gateway profile stands; null when the device has no profile (no acquirer matched)' })
  profileSync: ProfileSyncDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'JSON-encoded' }) emvParams: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'JSON-encoded' }) extParams: string | null;
  @ApiProperty() operatingMode: string;
  @ApiProperty({ type: String, nullable: true }) activesAt: string | null;
  @ApiProperty() expiresAt: string;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
  @ApiPropertyOptional({ description: 'present (true) only once the code was activated' }) isDevice?: true;
}

export class DeviceEmvDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) emvParams: Record<string, string>;
  @ApiProperty({
    type: 'array',
    items: { type: 'object', required: ['aid', 'paymentMethod'], properties: { aid: { type: 'string' }, paymentMethod: { type: 'string' } } },
  })
  emvAID: { aid: string; paymentMethod: string }[];
}
