import { formatGatewayTimestamp } from '../shared/timestamps';
import { acceptanceSelection } from './acceptance-selection';
import { AcceptanceDto, ProfileDto, ProfileWithAcptDto } from './dto/profile.dto';
import { AcceptanceEntity } from './persistence/acceptance.entity';
import { effectiveStatus, ProfileEntity } from './persistence/profile.entity';

export function toAcceptanceDto(acceptance: AcceptanceEntity): AcceptanceDto {
  return {
    acptId: acceptance.id,
    acptName: acceptance.acptName,
    hostMessageFormat: acceptance.hostMessageFormat,
    supportedPayments: acceptance.supportedPayments,
    primaryMid: acceptance.primaryMid,
    primaryTid: acceptance.primaryTid,
    extraParams: acceptance.extraParams,
    entityStatus: acceptance.entityStatus,
    tags: acceptance.tags,
    createdAt: formatGatewayTimestamp(acceptance.createdAt),
    updatedAt: formatGatewayTimestamp(acceptance.updatedAt),
  };
}

/** Profile as the list and PATCH status show it (no acceptances). */
export function toProfileDto(profile: ProfileEntity): ProfileDto {
  return {
    profileId: profile.id,
    profileName: profile.profileName,
    providerReference: profile.providerReference,
    merchantName: profile.merchantName,
    merchantAddr: profile.merchantAddr,
    mcc: profile.mcc,
    countryCode: profile.countryCode,
    currency: profile.currency,
    timeZone: profile.timeZone,
    entityStatus: effectiveStatus(profile),
    createdAt: formatGatewayTimestamp(profile.createdAt),
    updatedAt: formatGatewayTimestamp(profile.updatedAt),
  };
}

/** ProfileWithAcpt: the profile, its bound acceptances in routing order and the routing itself. */
export function toProfileWithAcptDto(profile: ProfileEntity, acceptances: AcceptanceEntity[]): ProfileWithAcptDto {
  return { ...toProfileDto(profile), acceptances: acceptances.map(toAcceptanceDto), acptSelection: acceptanceSelection(acceptances) };
}
