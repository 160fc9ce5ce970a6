import { DomainError } from '@app/common';
import { ContractViolationError, HostNetworkRequestV1, HostResultV1 } from '@app/contracts';
import { HostClient, RequestReplyError } from '@app/messaging';
import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostTargetOf } from '../profile/host-target';
import { BoundAcceptance, ProfileRepository } from '../profile/persistence/profile.repository';
import { PROFILE_ID_PATTERN } from '../shared/ids';
import { requireOwned } from '../shared/ownership';
import { AcceptanceSignOnDto, ProfileSignOnDto, SignOnResultReason } from './profile-sign-on.dto';
import { callerHostMessage } from '../shared/host-reply';

/** How long the host connector may wait for a host; the request itself waits a little longer. */
export const SIGN_ON_HOST_TIMEOUT_MS = 10_000;
const REQUEST_MARGIN_MS = 2_000;

const REASON_OF_RESULT: Record<HostResultV1, SignOnResultReason> = {
  APPROVED: 'HostSuccess',
  DECLINED: 'HostDeclined',
  REVERSED: 'HostTimeout',
  HOST_UNAVAILABLE: 'HostUnavailable',
  REJECTED: 'InvalidAcceptance',
};

/**
 * `POST /profiles/{profileId}/signOn` (spec rule 3): every bound acceptance signs on to its host
 * through the host connector (`host.signon.v1`), all at once; each answers for itself, so one
 * host that is down does not hide the others' results.
 */
@Injectable()
export class SignOnService {
  private readonly logger = new Logger('SignOn');

  constructor(
    private readonly profiles: ProfileRepository,
    private readonly host: HostClient,
  ) {}

  async signOn(groupId: string, profileId: string): Promise<ProfileSignOnDto> {
    if (!PROFILE_ID_PATTERN.test(profileId)) throw DomainError.notFound(`profile ${profileId} does not exist`);
    const profile = requireOwned(await this.profiles.findById(profileId), groupId, `profile ${profileId}`);
    // Its terminals were released (review r14j): signing on would claim at the connector a terminal another PBO may hold now.
    if (profile.retired && !profile.keepsTerminals)
      throw DomainError.validation(`profile ${profileId} is DISABLED: its device was retired and its terminals released; nothing was sent`);
    const acceptances = await this.profiles.boundAcceptances(profile.id);
    return {
      profileId: profile.id,
      profileName: profile.profileName,
      acptSignOns: await Promise.all(acceptances.map((acceptance) => this.signOnAcceptance(acceptance, profile.groupId))),
    };
  }

  private async signOnAcceptance(acceptance: BoundAcceptance, groupId: string): Promise<AcceptanceSignOnDto> {
    const base = {
      acptId: acceptance.id,
      acptName: acceptance.acptName,
      hostMessageFormat: acceptance.hostMessageFormat,
      supportedPayment: acceptance.supportedPayments,
    };
    const target = hostTargetOf(acceptance, groupId, 'sign on');
    if (typeof target === 'string') return { ...base, resultReason: 'InvalidAcceptance', hostRespCode: '', hostRespMessage: target };
    const request: HostNetworkRequestV1 = { requestId: `son_${randomUUID()}`, target, timeoutMs: SIGN_ON_HOST_TIMEOUT_MS };
    try {
      const reply = await this.host.signOn(request, { timeoutMs: SIGN_ON_HOST_TIMEOUT_MS + REQUEST_MARGIN_MS });
      return { ...base, resultReason: REASON_OF_RESULT[reply.result], hostRespCode: reply.hostRespCode ?? '', hostRespMessage: callerHostMessage(reply) };
    } catch (error) {
      if (error instanceof ContractViolationError) {
        // What answered is not a working host connector: the caller sees what a connector failure looks like.
        this.logger.warn(`sign-on of ${acceptance.id} (${request.requestId}) got a reply that breaks the contract: ${error.reason}`);
        return { ...base, resultReason: 'HostConnectorUnavailable', hostRespCode: '', hostRespMessage: 'the host connector gave an unreadable reply' };
      }
      const code = error instanceof RequestReplyError ? error.code : 'ERROR';
      this.logger.warn(`sign-on of ${acceptance.id} (${request.requestId}) got no reply: ${code} ${error instanceof Error ? error.message : String(error)}`);
      const message = code === 'TIMEOUT' ? 'the host connector did not answer in time' : 'the host connector is not reachable';
      return { ...base, resultReason: code === 'TIMEOUT' ? 'HostTimeout' : 'HostConnectorUnavailable', hostRespCode: '', hostRespMessage: message };
    }
  }
}
