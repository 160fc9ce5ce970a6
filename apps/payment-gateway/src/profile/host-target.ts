import {
  carriesHostText,
  HOST_ACQUIRER_ID_PATTERN,
  HOST_MESSAGE_FORMATS,
  HOST_MID_PATTERN,
  HOST_MID_RULE,
  HOST_TID_PATTERN,
  HOST_TID_RULE,
  HostMerchantV1,
  HostMessageFormat,
  HostTargetV1,
  timeZoneOfCountry,
} from '@app/contracts';
import type { BoundAcceptance } from './persistence/profile.repository';
import type { ProfileEntity } from './persistence/profile.entity';

/**
 * What the host connector needs of an acceptance (format, address, MID, TID, acquirer id, and the
 * PBO it is for), or why it cannot be asked: the sentence ends with `purpose` ("sign on", "take payments").
 */
export function hostTargetOf(acceptance: BoundAcceptance, groupId: string, purpose: string): HostTargetV1 | string {
  if (!(HOST_MESSAGE_FORMATS as readonly string[]).includes(acceptance.hostMessageFormat))
    return `host format ${acceptance.hostMessageFormat} has no host connector`;
  if (!acceptance.primaryMid || !HOST_MID_PATTERN.test(acceptance.primaryMid)) return `primaryMid ${HOST_MID_RULE} to ${purpose}`;
  if (!acceptance.primaryTid || !HOST_TID_PATTERN.test(acceptance.primaryTid)) return `primaryTid ${HOST_TID_RULE} to ${purpose}`;
  // Field 32: the acquiring institution id, when the acceptance names one.
  const acquirerId = acceptance.extraParams?.acqInstId;
  if (acquirerId !== undefined && (typeof acquirerId !== 'string' || !HOST_ACQUIRER_ID_PATTERN.test(acquirerId)))
    return `extraParams.acqInstId must be 1 to 11 digits to ${purpose}`;
  return {
    hostMessageFormat: acceptance.hostMessageFormat as HostMessageFormat,
    // Only the address merchant-management pushed from the acquirer profile; extraParams are never one.
    connUrl: acceptance.hostUrl ?? null,
    acptId: acceptance.id,
    mid: acceptance.primaryMid,
    tid: acceptance.primaryTid,
    ...(acquirerId === undefined ? {} : { acquirerId }),
    // The connector keeps keys, sessions and allow-list entries per PBO.
    groupId,
  };
}

/** The city of a merchant address written `street, …, city`: its last comma-separated part; null when there is none. */
export function cityOf(merchantAddr: string | null): string | null {
  const city = merchantAddr?.split(',').pop()?.trim() ?? '';
  // A city that would reach field 43 blank (another script, symbols only) is left out, as none is.
  return city === '' || city.length > 64 || !carriesHostText(city) ? null : city;
}

/**
 * The zone a host is sent the merchant's local time in: the profile's. A profile stored without
 * one (created before the gateway API required it, or upserted by a producer that sends none)
 * falls back to its country's zone (`timeZoneOfCountry`), else UTC; `fallback` then says so, for
 * the caller to log.
 */
export function merchantTimeZoneOf(profile: Pick<ProfileEntity, 'timeZone' | 'countryCode'>, year: number): { zone: string; fallback: string | null } {
  if (profile.timeZone !== null) return { zone: profile.timeZone, fallback: null };
  const country = timeZoneOfCountry(profile.countryCode, year);
  if (country !== undefined) return { zone: country, fallback: `no timeZone: hosts are sent the local time of ${country}, the zone of countryCode ${profile.countryCode}` };
  const why = profile.countryCode === null ? 'no countryCode' : `countryCode ${profile.countryCode} has zones of different offsets`;
  return { zone: 'UTC', fallback: `no timeZone and ${why}: hosts are sent UTC` };
}

/**
 * The card acceptor as a host sees it (docs/decisions.md, "Merchant data and local time on the
 * wire"): the merchant's time zone ({@link merchantTimeZoneOf}), the profile's name, city, country
 * and MCC, and the acceptance's `extraParams.subMchDba` as the sub-merchant of a payment facilitator.
 */
export function hostMerchantOf(
  profile: Pick<ProfileEntity, 'merchantName' | 'merchantAddr' | 'countryCode' | 'mcc'>,
  acceptance: BoundAcceptance,
  timeZone: string,
): HostMerchantV1 {
  const subMerchant = acceptance.extraParams?.subMchDba;
  return {
    timeZone,
    name: profile.merchantName,
    city: cityOf(profile.merchantAddr),
    country: profile.countryCode,
    mcc: profile.mcc,
    // One stored before the rule (ACCEPTANCE_PARAM_RULES.subMchDba) that would reach the host blank is left out.
    ...(typeof subMerchant === 'string' && carriesHostText(subMerchant) && subMerchant.length <= 128 ? { subMerchantName: subMerchant } : {}),
  };
}

/**
 * The merchant a follow-up or a settle sends (docs/decisions.md, "Follow-ups and settles in the
 * merchant's zone as it is now"): the one its sale was sent with, in the time zone the profile has
 * now, so fields 12/13 are today's local time of a merchant that moved; the zone stored with the
 * sale only when the profile has none (or is gone).
 */
export function merchantNowOf(kept: HostMerchantV1, profile: Pick<ProfileEntity, 'timeZone'> | null): HostMerchantV1 {
  const zone = profile?.timeZone ?? null;
  return zone === null || zone === kept.timeZone ? kept : { ...kept, timeZone: zone };
}
