import { GatewayProfileUpsertV1 } from '@app/contracts';
import { AcceptanceSnapshot, ProfiledDevice, ProfileMerchant } from './acceptance';

/** The gateway profile payload of a device (docs/architecture.md, flow 2): the contract mapping, in one place. */
export function toGatewayProfileUpsert(
  device: Pick<ProfiledDevice, 'uuid' | 'groupId' | 'deviceAlias' | 'deviceName'> & { profileId: string },
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
    acceptances: acceptances.map((a) => ({
      acptName: a.acptName,
      hostMessageFormat: a.hostMessageFormat,
      supportedPayments: a.supportedPayments as GatewayProfileUpsertV1['acceptances'][number]['supportedPayments'],
      primaryMid: a.primaryMid,
      primaryTid: a.primaryTid,
      extraParams: a.extraParams,
    })),
    groupId: device.groupId,
    merchantId: merchant.mchId,
    deviceId: device.uuid,
  };
}
