import { formatTimestamp, maskedSecret } from '@app/common';
import { CreatedCodeDto, DeviceDto, ProfileSyncDto } from './dto/device.dto';
import { Device, ProfileSync, profileSyncOf } from './device';

/** What the device service answers about a device: the stored device, its merchant's mchId and its code in clear. */
export interface DeviceView {
  device: Device;
  mchId: string;
  activationCode: string;
}

/** What creating an activation code answers: the stored device's uuid, the code in clear, the profile pushed (null when no acquirer matched). */
export interface CreatedCodeView {
  uuid: string;
  activationCode: string;
  profileId: string | null;
}

/** The id a device is known by until it is activated: `CD-` + its activation code. */
export function codeIdOf(activationCode: string): string {
  return `CD-${activationCode}`;
}

/** The device fields both writes take; an optional field null is as if left out on a create and clears it on an update. */
interface DeviceFieldsCommand {
  deviceAlias?: string | null;
  deviceName?: string | null;
  deviceType?: string | null;
  /** null (or omitted on a create) sets STANDARD. */
  operatingMode?: string | null;
  /** Comma-separated payment method codes; null (or omitted on a create) means every bound method. */
  methodList?: string | null;
  /** Admin password in clear; stored hashed. */
  deviceAdmin?: string | null;
}

/** A new activation code as both APIs write it (maps already decoded). */
export interface CreateDeviceCommand extends DeviceFieldsCommand {
  mchId: string;
  /** `{acquirers: {<profileId>: {<field>: <value>}}}`. */
  extParams?: Record<string, unknown> | null;
  /** EMV terminal parameters (string values). */
  emvParams?: Record<string, unknown> | null;
}

/** A device change: omitted fields stay, null clears. */
export interface UpdateDeviceCommand extends DeviceFieldsCommand {
  /**
   * `{acquirers: …}`, as an object or as the JSON text v1 sends: the text is decoded where the
   * other fields are checked, after the device was found, so the refusals keep their order.
   */
  extParams?: Record<string, unknown> | string | null;
  /** EMV terminal parameters, as an object or JSON text (as extParams). */
  emvParams?: Record<string, unknown> | string | null;
}

/** Payment method code → the MID and TID of the acceptance that carries it (the methodList both APIs show). */
export function methodMidTids(device: Pick<Device, 'acceptances'>): Record<string, { mid: string | null; tid: string | null }> {
  const methods: Record<string, { mid: string | null; tid: string | null }> = {};
  for (const acceptance of device.acceptances) {
    for (const method of acceptance.paymentMethodCodes) methods[method] = { mid: acceptance.primaryMid, tid: acceptance.primaryTid };
  }
  return methods;
}

/** The fields both APIs show alike, first: the device id (`CD-` + code until activated), its owners, type and state. */
export function deviceIdentity({ device, mchId, activationCode }: DeviceView) {
  return {
    deviceId: device.deviceId ?? codeIdOf(activationCode),
    uuid: device.uuid,
    mchId,
    groupId: device.groupId,
    deviceType: device.deviceType,
    deviceStatus: device.deviceStatus,
    deviceUpdate: device.deviceUpdate,
  };
}

/** The v1 shape of a device (maps as JSON strings: docs/decisions.md, "v1 device maps"). */
export function toDeviceDto(view: DeviceView): DeviceDto {
  const { device, activationCode } = view;
  const dto: DeviceDto = {
    ...deviceIdentity(view),
    deviceAlias: device.deviceAlias,
    deviceName: device.deviceName,
    deviceAdmin: maskedSecret(device.deviceAdminHash),
    appVersion: device.appVersion,
    deviceToken: JSON.stringify({ activationCode }),
    methodList: JSON.stringify(methodMidTids(device)),
    profileId: device.profileId,
    profileSync: toProfileSyncDto(profileSyncOf(device)),
    emvParams: device.emvParams ? JSON.stringify(device.emvParams) : null,
    extParams: device.extParams ? JSON.stringify(device.extParams) : null,
    operatingMode: device.operatingMode,
    activesAt: formatTimestamp(device.activesAt),
    expiresAt: formatTimestamp(device.expiresAt),
    createdAt: formatTimestamp(device.createdAt),
    updatedAt: formatTimestamp(device.updatedAt),
  };
  if (device.deviceId !== null) dto.isDevice = true;
  return dto;
}

/** The v1 shape of a device's profile sync state. */
export function toProfileSyncDto(sync: ProfileSync | null): ProfileSyncDto | null {
  return sync && { state: sync.state, version: sync.version, reason: sync.reason, decidedAt: formatTimestamp(sync.decidedAt) };
}

/** The v1 answer to creating an activation code. */
export function toCreatedCodeDto({ activationCode, profileId }: CreatedCodeView): CreatedCodeDto {
  return { id: codeIdOf(activationCode), activationCode, profileId };
}
