import { GatewayLifecycleStatus, GatewayProfileUpsertV1 } from '@app/contracts';
import { DeviceStatus } from '../shared/device-status';
import { AcceptanceSnapshot, ProfiledDevice, ProfileMerchant } from './acceptance';

/**
 * What the gateway enforces of a device's lifecycle (docs/decisions.md, "Device lifecycle reaches
 * the gateway"): a pending or active device's profile takes payments; once the code is deleted or
 * the device is logged out, decommissioned or idled, its token must not.
 */
export function gatewayStatusOf(status: DeviceStatus | number | 'deleted'): GatewayLifecycleStatus {
  return status === DeviceStatus.Pending || status === DeviceStatus.Active ? 'ACTIVE' : 'DISABLED';
}

/**
 * Whether a device of this status holds its terminals though the gateway refuses its payments: an
 * idled or logged-out device may come back, and merchant-management still counts it (review r14h).
 */
export function keepsTerminals(status: DeviceStatus | number | 'deleted'): boolean {
  return status === DeviceStatus.Idle || status === DeviceStatus.LoggedOut;
}

/** The gateway profile payload of a device (docs/architecture.md, flow 2): the contract mapping, in one place. */
export function toGatewayProfileUpsert(
  device: Pick<ProfiledDevice, 'uuid' | 'groupId' | 'deviceAlias' | 'deviceName' | 'deviceId'> & { profileId: string; deviceStatus: number | 'deleted' },
  merchant: ProfileMerchant,
  acceptances: AcceptanceSnapshot[],
  version: number,
): GatewayProfileUpsertV1 {
  return {
    profileId: device.profileId,
    version,
    profileName: device.deviceAlias ?? device.deviceName ?? merchant.mchName,
    // A merchant's reference would name every device's profile; the gateway keeps references unique.
    providerReference: null,
    merchantName: merchant.mchName,
    merchantAddr: merchant.contactAddress,
    mcc: merchant.mcc,
    countryCode: merchant.country,
    currency: merchant.currency,
    timeZone: merchant.timeZone,
    entityStatus: gatewayStatusOf(device.deviceStatus),
    // An idled or logged-out device still holds its terminals here (only decommissioning or deleting its code frees them): so at the gateway.
    ...(keepsTerminals(device.deviceStatus) ? { keepsTerminals: true } : {}),
    // Only the token of the current activation pays: each activation gives the device a new id.
    ...(device.deviceId ? { activeSdkId: device.deviceId } : {}),
    acceptances: acceptances.map((a) => ({
      acptName: a.acptName,
      hostMessageFormat: a.hostMessageFormat,
      supportedPayments: a.supportedPayments as GatewayProfileUpsertV1['acceptances'][number]['supportedPayments'],
      primaryMid: a.primaryMid,
      primaryTid: a.primaryTid,
      // The acquirer's address travels in its own field, never in extraParams (the gateway API writes those too).
      ...hostUrlAndParams(a.extraParams),
      // Which acquirer profile, whatever its name and address (a snapshot stored before it carried one has none).
      ...(typeof a.acquirerProfileId === 'number' ? { acquirerRef: String(a.acquirerProfileId) } : {}),
    })),
    groupId: device.groupId,
    merchantId: merchant.mchId,
    deviceId: device.uuid,
  };
}

/** The terminal an acceptance names, as text: format, the acquirer's address as written (null: the connector's default), MID and TID. */
export function namedTerminalOf(a: { hostMessageFormat: string; hostUrl?: string | null; primaryMid: string | null; primaryTid: string | null }): string {
  return JSON.stringify([a.hostMessageFormat, a.hostUrl ?? null, a.primaryMid, a.primaryTid]);
}

/** {@link namedTerminalOf} of an acceptance snapshot (its connUrl kept among its extraParams). */
export function namedTerminalOfSnapshot(a: AcceptanceSnapshot): string {
  return namedTerminalOf({ ...a, hostUrl: hostUrlAndParams(a.extraParams).hostUrl });
}

/** An acceptance snapshot keeps the acquirer's connUrl among its extraParams; the contract carries it as `hostUrl`. */
function hostUrlAndParams(extraParams: Record<string, unknown>): { hostUrl: string | null; extraParams: Record<string, unknown> } {
  const { connUrl, ...rest } = extraParams;
  return { hostUrl: typeof connUrl === 'string' && connUrl !== '' ? connUrl : null, extraParams: rest };
}
