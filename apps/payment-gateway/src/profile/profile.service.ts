import { DomainError } from '@app/common';
import { describeTakenTerminal, sendsLocalTime } from '@app/contracts';
import { isUniqueViolation } from '@app/database';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newAcceptanceId, newProfileId, PROFILE_ID_PATTERN } from '../shared/ids';
import { requireOwned } from '../shared/ownership';
import {
  AcceptanceRequestDto,
  DEFAULT_PROFILE_PAGE_SIZE,
  ProfileDto,
  ProfileListQueryDto,
  ProfilePageDto,
  ProfileRequestDto,
  ProfileWithAcptDto,
} from './dto/profile.dto';
import { AcceptanceFields, AcceptanceRepository } from './persistence/acceptance.repository';
import { EntityStatus } from './persistence/entity-status';
import { PROFILE_PROVIDER_REFERENCE_INDEX, ProfileEntity } from './persistence/profile.entity';
import { ProfileFields, ProfileRepository } from './persistence/profile.repository';
import { TerminalClaim, TerminalIdentityRepository } from './persistence/terminal-identity.repository';
import { decodeProfileCursor, encodeProfileCursor } from './profile-cursor';
import { toProfileDto, toProfileWithAcptDto } from './profile.mapping';

function profileFields(request: ProfileRequestDto): ProfileFields {
  return {
    profileName: request.profileName,
    providerReference: request.providerReference ?? null,
    merchantName: request.merchantName,
    merchantAddr: request.merchantAddr ?? null,
    mcc: request.mcc ?? null,
    countryCode: request.countryCode ?? null,
    currency: request.currency,
    timeZone: request.timeZone ?? null,
  };
}

function acceptanceFields(request: AcceptanceRequestDto): AcceptanceFields {
  return {
    acptName: request.acptName,
    hostMessageFormat: request.hostMessageFormat,
    supportedPayments: [...request.supportedPayments],
    primaryMid: request.primaryMid ?? null,
    primaryTid: request.primaryTid ?? null,
    extraParams: request.extraParams ?? {},
    tags: request.tags ?? null,
  };
}

/** The acceptance ids a request names (known or not). */
function requestedIds(request: ProfileRequestDto): string[] {
  return request.acceptances.map((acceptance) => acceptance.acptId).filter((id): id is string => id !== undefined);
}

/** An acceptance may be listed once per request. */
function requireDistinctAcceptanceIds(acceptances: AcceptanceRequestDto[]): void {
  const firstIndex = new Map<string, number>();
  acceptances.forEach((acceptance, index) => {
    if (!acceptance.acptId) return;
    const first = firstIndex.get(acceptance.acptId);
    if (first !== undefined) throw DomainError.validation(`acceptances[${index}].acptId repeats acceptances[${first}].acptId`);
    firstIndex.set(acceptance.acptId, index);
  });
}

/**
 * A profile whose acceptances send hosts the merchant's local date and time needs the merchant's
 * time zone: without it hosts would be sent UTC's clock (docs/decisions.md, "A profile's time zone").
 */
function requireTimeZoneForLocalTime(request: ProfileRequestDto): void {
  if (request.timeZone != null) return;
  const index = request.acceptances.findIndex((acceptance) => sendsLocalTime(acceptance.hostMessageFormat));
  if (index < 0) return;
  throw DomainError.validation(
    `timeZone is required: acceptances[${index}] is ${request.acceptances[index].hostMessageFormat}, which sends hosts the merchant's local date and time (an IANA time zone such as Asia/Kuala_Lumpur)`,
  );
}

/** The profile API (spec sections 2 to 4): reads, create, replace, status. */
@Injectable()
export class ProfileService {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly acceptances: AcceptanceRepository,
    private readonly terminals: TerminalIdentityRepository,
  ) {}

  /** A cursor page of the PBO's profiles, oldest first (without acceptances). */
  async list(groupId: string, query: ProfileListQueryDto): Promise<ProfilePageDto> {
    const pageSize = query.pageSize ?? DEFAULT_PROFILE_PAGE_SIZE;
    const forward = query.isForward ?? true;
    const from = query.cursor === undefined ? undefined : decodeProfileCursor(query.cursor);
    // One row more than the page tells whether there is a next one.
    const [rows, totalSize] = await Promise.all([this.profiles.page(groupId, from, forward, pageSize + 1), this.profiles.count(groupId)]);
    const hasNext = rows.length > pageSize;
    const page = rows.slice(0, pageSize);
    if (!forward) page.reverse();
    const first = page[0];
    const last = page[page.length - 1];
    return {
      hasNext,
      pageSize,
      totalSize,
      currentCursor: first ? encodeProfileCursor(first) : (query.cursor ?? ''),
      nextCursor: hasNext ? encodeProfileCursor(forward ? last : first) : null,
      data: page.map(toProfileDto),
    };
  }

  async get(groupId: string, profileId: string): Promise<ProfileWithAcptDto> {
    const profile = await this.requireProfile(groupId, profileId);
    return toProfileWithAcptDto(profile, await this.profiles.boundAcceptances(profile.id));
  }

  /** Looks among the PBO's own profiles only: another PBO's reference is simply not found. */
  async getByProviderReference(groupId: string, providerReference: string): Promise<ProfileWithAcptDto> {
    const profile = await this.profiles.findByProviderReference(groupId, providerReference);
    if (!profile) throw DomainError.notFound(`no profile has providerReference ${providerReference}`);
    return toProfileWithAcptDto(profile, await this.profiles.boundAcceptances(profile.id));
  }

  /** Creates an ACTIVE profile and upserts and binds its acceptances (spec rule 1). */
  async create(groupId: string, request: ProfileRequestDto): Promise<ProfileWithAcptDto> {
    requireDistinctAcceptanceIds(request.acceptances);
    requireTimeZoneForLocalTime(request);
    const id = newProfileId();
    try {
      return await this.profiles.transaction(async (manager) => {
        await this.profiles.insert(manager, { id, groupId, version: 0, ...profileFields(request) });
        const before = await this.terminals.identitiesOf(manager, { acceptanceIds: requestedIds(request) }, false);
        await this.bindAcceptances(manager, groupId, id, request.acceptances);
        await this.claimTerminals(manager, id, request, before);
        return this.view(manager, id);
      });
    } catch (error) {
      throw this.explain(error, request);
    }
  }

  /** Replaces every field and binds exactly the listed acceptances, upserted (spec rule 2). */
  async replace(groupId: string, profileId: string, request: ProfileRequestDto): Promise<ProfileWithAcptDto> {
    requireDistinctAcceptanceIds(request.acceptances);
    requireTimeZoneForLocalTime(request);
    this.requireProfileId(profileId);
    try {
      return await this.profiles.transaction(async (manager) => {
        requireLive(requireOwned(await this.profiles.lockById(manager, profileId), groupId, `profile ${profileId}`));
        const before = await this.terminals.identitiesOf(manager, { profileIds: [profileId], acceptanceIds: requestedIds(request) }, false);
        await this.profiles.update(manager, profileId, profileFields(request));
        await this.bindAcceptances(manager, groupId, profileId, request.acceptances);
        await this.claimTerminals(manager, profileId, request, before);
        return this.view(manager, profileId);
      });
    } catch (error) {
      throw this.explain(error, request);
    }
  }

  async setStatus(groupId: string, profileId: string, status: EntityStatus): Promise<ProfileDto> {
    this.requireProfileId(profileId);
    return this.profiles.transaction(async (manager) => {
      const profile = requireOwned(await this.profiles.lockById(manager, profileId), groupId, `profile ${profileId}`);
      // The PBO's own DISABLED is kept for when the device is back in use; ACTIVE would change nothing it shows.
      if (status === 'ACTIVE') requireLive(profile);
      await this.profiles.update(manager, profileId, { entityStatus: status });
      return toProfileDto((await this.profiles.findById(profileId, manager))!);
    });
  }

  private requireProfileId(profileId: string): void {
    // An id that cannot be a profile id names no profile: 404, not 400.
    if (!PROFILE_ID_PATTERN.test(profileId)) throw DomainError.notFound(`profile ${profileId} does not exist`);
  }

  private async requireProfile(groupId: string, profileId: string): Promise<ProfileEntity> {
    this.requireProfileId(profileId);
    return requireOwned(await this.profiles.findById(profileId), groupId, `profile ${profileId}`);
  }

  private async view(manager: EntityManager, profileId: string): Promise<ProfileWithAcptDto> {
    const profile = await this.profiles.findById(profileId, manager);
    return toProfileWithAcptDto(profile!, await this.profiles.boundAcceptances(profileId, manager));
  }

  /**
   * Upserts the requested acceptances and binds exactly them, in order: an acptId of the PBO's
   * is updated, another PBO's is 403, an unknown one (or none) creates a new acceptance.
   */
  private async bindAcceptances(manager: EntityManager, groupId: string, profileId: string, requested: AcceptanceRequestDto[]): Promise<void> {
    const ids = requested.map((acceptance) => acceptance.acptId).filter((id): id is string => id !== undefined);
    const existing = new Map((await this.acceptances.lockByIds(manager, ids)).map((acceptance) => [acceptance.id, acceptance]));
    for (const acceptance of existing.values()) requireOwned(acceptance, groupId, `acceptance ${acceptance.id}`);
    const bound: string[] = [];
    for (const acceptance of requested) {
      const fields = acceptanceFields(acceptance);
      const found = acceptance.acptId === undefined ? undefined : existing.get(acceptance.acptId);
      if (found) {
        await this.acceptances.update(manager, found.id, fields);
        bound.push(found.id);
      } else {
        const id = newAcceptanceId();
        await this.acceptances.insert(manager, { id, groupId, ...fields });
        bound.push(id);
      }
    }
    await this.profiles.replaceBindings(manager, profileId, bound);
  }

  /**
   * After the acceptances are written: claims the terminal identities that the profile and the
   * updated acceptances (wherever bound) now carry, releases those they no longer do
   * (docs/decisions.md, "One owner per terminal identity"); another PBO's terminal is 409.
   */
  private async claimTerminals(manager: EntityManager, profileId: string, request: ProfileRequestDto, before: TerminalClaim[]): Promise<void> {
    const after = await this.terminals.identitiesOf(manager, { profileIds: [profileId], acceptanceIds: requestedIds(request) }, true);
    const refused = await this.terminals.reconcile(manager, before, after);
    if (refused.length > 0) throw DomainError.conflict(describeTakenTerminal(refused[0]));
  }

  private explain(error: unknown, request: ProfileRequestDto): unknown {
    if (isUniqueViolation(error, PROFILE_PROVIDER_REFERENCE_INDEX)) {
      return DomainError.conflict(`providerReference ${request.providerReference} is already used by another profile of this PBO`);
    }
    return error;
  }
}

/**
 * 409 for a change a retired profile cannot take (docs/decisions.md, "A retired profile refuses
 * changes"): its device's code was deleted, or it was logged out, decommissioned or idled in
 * merchant-management, which alone brings it back (by activating the device again).
 */
function requireLive(profile: ProfileEntity): ProfileEntity {
  if (profile.retired) {
    throw DomainError.conflict(
      `profile ${profile.id} is retired: its device is no longer in use in merchant-management (code deleted, logged out, decommissioned or idled); it shows DISABLED until the device is activated again, and cannot be activated or replaced before`,
    );
  }
  return profile;
}
