import { DomainError, formatTimestamp, IsPlainObject, maskedSecret, parseJsonObject } from '@app/common';
import { GATEWAY_PROFILE_LIMITS } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength, MinLength, ValidateBy, ValidateIf } from 'class-validator';
import { LegacyGroupIdField, LegacyPageSize } from '../../../shared/legacy';
import { CreateDeviceCommand, deviceIdentity, DeviceView, methodMidTids, UpdateDeviceCommand } from '../../device.view';
import { checkAcquirerField, EMV_PARAM_FORMATS } from '../../device-input';
import { DeviceListQueryDto, notBlank } from '../../dto/device.dto';

const nullable = () => ValidateIf((_object, value) => value !== null);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON object, or a string holding one (legacy clients send both). Named as a type rule, so it is reported first. */
const IsObjectOrJsonObjectString = () =>
  ValidateBy({
    name: 'isPlainObject',
    validator: {
      validate: (value: unknown) => isObject(value) || parseJsonObject(value) !== undefined,
      defaultMessage: () => '$property must be a JSON object or a JSON-encoded object',
    },
  });

const METHOD_LIST_DESCRIPTION =
  'JSON-encoded map {"all": {"mid": "…", "tid": "…"}}: every bound method, with that MID/TID (acqMid/acqTid) for every acquirer bound now or later; or comma-separated payment method codes (01,02)';
const EXT_PARAMS_DESCRIPTION =
  'JSON object or JSON-encoded object: flat fields such as {"acqMid": "…", "acqTid": "…"} are kept for every acquirer the merchant is bound to, now or later (v1 extParams.allAcquirers); an "acquirers" key holds per-acquirer fields as in v1; acqInstId (1 to 11 digits, field 32) and subMchDba (the sub-merchant named in field 43) reach the host';

/** `POST /api/v2/device`: generate an activation code. An optional field sent as null is as if left out. */
export class LegacyDeviceCreateDto {
  @ApiProperty({ description: 'merchant the device belongs to' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  mchId: string;

  @ApiProperty({ minLength: 1, maxLength: GATEWAY_PROFILE_LIMITS.profileName, pattern: '\\S', description: 'friendly name (v1 deviceAlias)' })
  @IsString()
  @IsNotEmpty()
  @notBlank()
  @MaxLength(GATEWAY_PROFILE_LIMITS.profileName)
  activateCodeAlias: string;

  @ApiProperty({ example: 'COTS', maxLength: 32 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  deviceType: string;

  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    additionalProperties: { type: 'string' },
    description:
      `amexFloorLimit, terminalCountryCode, txnCurrencyCode, amexExReaderCapability, amexReaderCapability, terminalType, terminalCapability, emvFlags (strings), ${EMV_PARAM_FORMATS}`,
  })
  @IsOptional()
  @IsPlainObject()
  emvParams?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: METHOD_LIST_DESCRIPTION, example: '{"all":{"mid":"000000000000001","tid":"00000001"}}' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  methodList?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'object', additionalProperties: true }, { type: 'string', nullable: true }],
    description: `${EXT_PARAMS_DESCRIPTION}; null is the same as leaving it out`,
    example: { acqMid: '000000000000001', acqTid: '00000001' },
  })
  @IsOptional()
  @IsObjectOrJsonObjectString()
  extParams?: Record<string, unknown> | string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'admin password of the device; stored hashed, shown as ******' })
  @IsOptional()
  @IsString()
  @MinLength(4)
  @MaxLength(64)
  deviceAdmin?: string | null;

  @LegacyGroupIdField()
  groupId?: string;
}

/** `PUT /api/v2/device/{deviceId}`: omitted fields stay, null clears (as in v1). */
export class LegacyDeviceUpdateDto {
  @ApiPropertyOptional({ type: String, nullable: true }) @IsOptional() @nullable() @IsString() @MaxLength(32) deviceType?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @IsOptional() @nullable() @IsString() @MinLength(4) @MaxLength(64) deviceAdmin?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: GATEWAY_PROFILE_LIMITS.profileName, pattern: '\\S', description: 'friendly name (v1 deviceAlias)' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @notBlank()
  @MaxLength(GATEWAY_PROFILE_LIMITS.profileName)
  activateCodeAlias?: string | null;

  @ApiPropertyOptional({
    // null is the string branch's (OpenAPI 3.0 wants nullable beside a type; one branch, or oneOf would match twice)
    oneOf: [{ type: 'string', nullable: true }, { type: 'object', additionalProperties: { type: 'string' } }],
    description: `JSON-encoded EMV terminal parameters (string values), or the object, ${EMV_PARAM_FORMATS}`,
  })
  @IsOptional()
  @nullable()
  @IsObjectOrJsonObjectString()
  emvParams?: string | Record<string, unknown> | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: `${METHOD_LIST_DESCRIPTION}; null means every bound method` })
  @IsOptional()
  @nullable()
  @IsString()
  @MaxLength(1024)
  methodList?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string', nullable: true }, { type: 'object', additionalProperties: true }],
    description: `${EXT_PARAMS_DESCRIPTION}; replaces the stored extParams; null clears`,
  })
  @IsOptional()
  @nullable()
  @IsObjectOrJsonObjectString()
  extParams?: string | Record<string, unknown> | null;

  @LegacyGroupIdField()
  groupId?: string;
}

/** `GET /api/v2/device`: mchId required; pageSize defaults to 10. */
export class LegacyDeviceListQueryDto extends DeviceListQueryDto {
  @LegacyPageSize()
  override pageSize?: number = undefined;
}

export class LegacyCreatedCodeDto {
  @ApiProperty({ example: 'CD-123456789012' }) id: string;
  @ApiProperty({ example: '123456789012' }) activationCode: string;
}

export class LegacyDeviceExtParamsDto {
  @ApiProperty({ type: String, nullable: true, description: 'primary MID of the first acceptance of the activation profile; without one, the acqMid kept for every acquirer' }) acqMid: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'primary TID of the first acceptance of the activation profile; without one, the acqTid kept for every acquirer' }) acqTid: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'the per-acquirer fields as stored (v1 extParams.acquirers)' }) acquirers: Record<
    string,
    unknown
  >;
}

/** Device (legacy). */
export class LegacyDeviceDto {
  @ApiProperty({ description: 'device id once activated, else the CD- code id' }) deviceId: string;
  @ApiProperty() uuid: string;
  @ApiProperty() mchId: string;
  @ApiProperty() groupId: string;
  @ApiProperty({ type: String, nullable: true }) deviceType: string | null;
  @ApiProperty() deviceStatus: number;
  @ApiProperty() deviceUpdate: number;
  @ApiProperty({ type: String, nullable: true, description: 'friendly name (v1 deviceAlias)' }) activateCodeAlias: string | null;
  @ApiProperty({ type: String, nullable: true, description: '****** when set' }) deviceAdmin: string | null;
  @ApiProperty({ type: String, nullable: true }) appVersion: string | null;
  @ApiProperty({ description: 'JSON-encoded map: payment method code to {mid, tid} of the acceptance that carries it' }) methodList: string;
  @ApiProperty({ type: String, nullable: true, description: 'gateway profile id' }) profileId: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, nullable: true }) emvParams: Record<string, unknown> | null;
  @ApiProperty({ type: LegacyDeviceExtParamsDto }) extParams: LegacyDeviceExtParamsDto;
  @ApiProperty({ type: String, nullable: true, description: 'not known to this service: null' }) serverUrl: string | null;
  @ApiProperty({ description: 'the gateway namespace the device pays through' }) customerId: string;
  @ApiProperty({ type: String, nullable: true, description: 'not used by this service: null' }) licenseId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'not used by this service: null' }) signKeyId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'not used by this service: null' }) cardBdkId: string | null;
  @ApiProperty({ type: String, nullable: true }) activesAt: string | null;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
  @ApiProperty({ description: 'true once the code was activated' }) isDevice: boolean;
}

/** The legacy shape of a device, from the service's view (objects stay objects; only methodList is a JSON string in both APIs). */
export function toLegacyDevice(view: DeviceView, gatewayNamespace: string): LegacyDeviceDto {
  const { device } = view;
  const methodList = methodMidTids(device);
  const first = Object.values(methodList)[0];
  const acquirers = device.extParams?.acquirers;
  // Without an acceptance yet (no acquirer bound), the MID/TID kept for every acquirer are shown.
  const kept = isObject(device.extParams?.allAcquirers) ? device.extParams.allAcquirers : {};
  const keptText = (name: string) => (typeof kept[name] === 'string' ? (kept[name] as string) : null);
  return {
    ...deviceIdentity(view),
    activateCodeAlias: device.deviceAlias,
    deviceAdmin: maskedSecret(device.deviceAdminHash),
    appVersion: device.appVersion,
    methodList: JSON.stringify(methodList),
    profileId: device.profileId,
    emvParams: device.emvParams ?? null,
    extParams: { acqMid: first?.mid ?? keptText('acqMid'), acqTid: first?.tid ?? keptText('acqTid'), acquirers: isObject(acquirers) ? acquirers : {} },
    serverUrl: null,
    customerId: gatewayNamespace,
    licenseId: null,
    signKeyId: null,
    cardBdkId: null,
    activesAt: formatTimestamp(device.activesAt),
    createdAt: formatTimestamp(device.createdAt),
    updatedAt: formatTimestamp(device.updatedAt),
    isDevice: device.deviceId !== null,
  };
}

// ---- legacy input onto the v1 model ------------------------------------------------------------

/** Field names a device may carry for an acquirer (as enablerParams names them). */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** A legacy field for every bound acquirer: 1 to 64 characters, and a MID or TID a host takes when it is one. */
function fieldValue(name: string, value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) throw DomainError.validation(`${path} must be a string of 1 to 64 characters`);
  return checkAcquirerField(name, value, path);
}

/** What a legacy `methodList` means in the v1 model. */
interface LegacyMethodList {
  /** v1 comma-separated codes; undefined when the legacy map selects every bound method. */
  codes: string | undefined;
  /** acqMid/acqTid for every bound acquirer (from `all`). */
  everyAcquirer: Record<string, string>;
}

/** `{"all": {"mid", "tid"}}` → every bound method with acqMid/acqTid for every acquirer; any other text is the v1 code list. */
export function parseLegacyMethodList(value: string): LegacyMethodList {
  if (!value.trim().startsWith('{')) return { codes: value, everyAcquirer: {} };
  const map = parseJsonObject(value);
  if (!map)
    throw DomainError.validation('methodList must be a JSON-encoded object such as {"all": {"mid": "…", "tid": "…"}} or comma-separated payment method codes');
  const everyAcquirer: Record<string, string> = {};
  for (const [key, entry] of Object.entries(map)) {
    if (key !== 'all') throw DomainError.validation(`methodList.${key} is not an accepted key (expected all)`);
    if (!isObject(entry)) throw DomainError.validation('methodList.all must be an object {mid, tid}');
    for (const [name, id] of Object.entries(entry)) {
      if (name !== 'mid' && name !== 'tid') throw DomainError.validation(`methodList.all.${name} is not an accepted field (expected mid, tid)`);
      const field = name === 'mid' ? 'acqMid' : 'acqTid';
      everyAcquirer[field] = fieldValue(field, id, `methodList.all.${name}`);
    }
  }
  return { codes: undefined, everyAcquirer };
}

/** What a legacy `extParams` means in the v1 model. */
interface LegacyExtParams {
  /** `{acquirers: …}` when the legacy value carried per-acquirer fields, else undefined. */
  perAcquirer: Record<string, unknown> | undefined;
  /** Flat fields, for every bound acquirer. */
  everyAcquirer: Record<string, string>;
}

/** A JSON object or JSON-encoded object: `acquirers` as in v1, any other key a field for every bound acquirer. */
export function parseLegacyExtParams(value: string | Record<string, unknown>): LegacyExtParams {
  const object = typeof value === 'string' ? parseJsonObject(value) : value;
  if (!object) throw DomainError.validation('extParams must be a JSON object or a JSON-encoded object');
  const { acquirers, ...flat } = object;
  const everyAcquirer: Record<string, string> = {};
  for (const [name, field] of Object.entries(flat)) {
    if (!FIELD_NAME.test(name)) throw DomainError.validation(`extParams.${name} is not a field name`);
    everyAcquirer[name] = fieldValue(name, field, `extParams.${name}`);
  }
  return { perAcquirer: acquirers === undefined ? undefined : { acquirers }, everyAcquirer };
}

/** The v1 create body and the fields for every bound acquirer a legacy create body means. */
export function toDeviceCreate(body: LegacyDeviceCreateDto): { create: CreateDeviceCommand; everyAcquirer: Record<string, string> } {
  const methods = body.methodList == null ? undefined : parseLegacyMethodList(body.methodList);
  const ext = body.extParams == null ? undefined : parseLegacyExtParams(body.extParams);
  const create: CreateDeviceCommand = {
    mchId: body.mchId,
    deviceAlias: body.activateCodeAlias,
    deviceType: body.deviceType,
    methodList: methods?.codes,
    deviceAdmin: body.deviceAdmin,
    extParams: ext?.perAcquirer,
    emvParams: body.emvParams,
  };
  for (const key of Object.keys(create) as (keyof CreateDeviceCommand)[]) if (create[key] == null) delete create[key];
  // The explicit extParams fields win over the MID/TID of methodList.all.
  return { create, everyAcquirer: { ...methods?.everyAcquirer, ...ext?.everyAcquirer } };
}

/** The v1 update body and the fields for every bound acquirer a legacy update body means. */
export function toDeviceUpdate(body: LegacyDeviceUpdateDto): { update: UpdateDeviceCommand; everyAcquirer: Record<string, string> } {
  const update: UpdateDeviceCommand = {};
  let everyAcquirer: Record<string, string> = {};
  if (body.deviceType !== undefined) update.deviceType = body.deviceType;
  if (body.deviceAdmin !== undefined) update.deviceAdmin = body.deviceAdmin;
  if (body.activateCodeAlias !== undefined) update.deviceAlias = body.activateCodeAlias;
  if (body.emvParams !== undefined) update.emvParams = body.emvParams;
  if (body.methodList !== undefined) {
    const methods = body.methodList === null ? undefined : parseLegacyMethodList(body.methodList);
    // The legacy map selects every bound method: null in v1 terms.
    update.methodList = methods?.codes ?? null;
    everyAcquirer = { ...methods?.everyAcquirer };
  }
  if (body.extParams !== undefined) {
    const ext = body.extParams === null ? undefined : parseLegacyExtParams(body.extParams);
    update.extParams = ext?.perAcquirer ?? null;
    everyAcquirer = { ...everyAcquirer, ...ext?.everyAcquirer };
  }
  return { update, everyAcquirer };
}
