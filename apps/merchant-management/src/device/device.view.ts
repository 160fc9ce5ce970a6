import { formatTimestamp, maskedSecret } from '@app/common';
import { DeviceDto } from './dto/device.dto';
import { DeviceEntity } from './persistence/device.entity';

/** What the device service answers about a device: the stored device, its merchant's mchId and its code in clear. */
export interface DeviceView {
  device: DeviceEntity;
  mchId: string;
  activationCode: string;
}

/** Payment method code → the MID and TID of the acceptance that carries it (the methodList both APIs show). */
export function methodMidTids(device: Pick<DeviceEntity, 'acceptances'>): Record<string, { mid: string | null; tid: string | null }> {
  const methods: Record<string, { mid: string | null; tid: string | null }> = {};
  for (const acceptance of device.acceptances) {
    for (const method of acceptance.paymentMethodCodes) methods[method] = { mid: acceptance.primaryMid, tid: acceptance.primaryTid };
  }
  return methods;
}

/** The fields both APIs show alike, first: the device id (`CD-` + code until activated), its owners, type and state. */
export function deviceIdentity({ device, mchId, activationCode }: DeviceView) {
  return {
    deviceId: device.deviceId ?? `CD-${activationCode}`,
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
