import { formatTimestamp } from '@app/common';
import { AcquirerProfileRecord } from './persistence/acquirer-profile.repository';

/**
 * The fields both APIs show of an acquirer profile, in their order, with its three maps in the
 * form the caller gives (v1 writes them as JSON strings, the legacy API as objects).
 */
export function acquirerProfileFields<C, M, E>({ profile }: AcquirerProfileRecord, maps: { connExtraParams: C; methodList: M; emvList: E }) {
  return {
    profileId: profile.id,
    groupId: profile.groupId,
    profileName: profile.profileName,
    asDefault: profile.asDefault,
    asSettleBlock: profile.asSettleBlock,
    currency: profile.currency,
    acqType: profile.acqType,
    connUrl: profile.connUrl,
    notifyUrl: profile.notifyUrl,
    connExtraParams: maps.connExtraParams,
    connMessageFormat: profile.connMessageFormat,
    enablerMsgFormat: profile.enablerMsgFormat,
    enablerParams: profile.enablerParams,
    connTimeout: profile.connTimeout,
    connRequestTimeout: profile.connRequestTimeout,
    methodList: maps.methodList,
    emvList: maps.emvList,
    createdBy: profile.createdBy,
    createdAt: formatTimestamp(profile.createdAt),
    updatedAt: formatTimestamp(profile.updatedAt),
  };
}
