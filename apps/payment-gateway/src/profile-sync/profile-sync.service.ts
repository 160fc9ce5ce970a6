import { canonicalJson, DomainError } from '@app/common';
import { GatewayAcceptanceV1, GatewayProfileUpsertV1 } from '@app/contracts';
import { Inbox } from '@app/messaging/consumer';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newAcceptanceId } from '../shared/ids';
import { AcceptanceEntity } from '../profile/persistence/acceptance.entity';
import { AcceptanceFields, AcceptanceRepository } from '../profile/persistence/acceptance.repository';
import { ProfileEntity } from '../profile/persistence/profile.entity';
import { ProfileFields, ProfileRepository } from '../profile/persistence/profile.repository';

/** What became of one upsert message. */
export type UpsertOutcome = 'applied' | 'stale' | 'duplicate';

/** Which message carried the upsert: the inbox key. */
export interface UpsertReceipt {
  consumer: string;
  messageId: string;
  subject: string;
}

function acceptanceFields(acceptance: GatewayAcceptanceV1): AcceptanceFields {
  return {
    acptName: acceptance.acptName,
    hostMessageFormat: acceptance.hostMessageFormat,
    supportedPayments: [...acceptance.supportedPayments],
    primaryMid: acceptance.primaryMid,
    primaryTid: acceptance.primaryTid,
    extraParams: acceptance.extraParams,
  };
}

function differs(stored: AcceptanceEntity, fields: AcceptanceFields): boolean {
  return (
    stored.acptName !== fields.acptName ||
    stored.hostMessageFormat !== fields.hostMessageFormat ||
    stored.primaryMid !== fields.primaryMid ||
    stored.primaryTid !== fields.primaryTid ||
    canonicalJson(stored.supportedPayments) !== canonicalJson(fields.supportedPayments) ||
    canonicalJson(stored.extraParams) !== canonicalJson(fields.extraParams)
  );
}

/**
 * Applies merchant-management's profile upserts (flows 2 and 3) idempotently: the message id is
 * recorded in the inbox in the same transaction as the change, and a version not above the
 * stored one changes nothing, so redelivered, duplicated and out-of-order messages are harmless.
 */
@Injectable()
export class ProfileSyncService {
  private readonly logger = new Logger('ProfileSync');

  constructor(
    private readonly profiles: ProfileRepository,
    private readonly acceptances: AcceptanceRepository,
    private readonly inbox: Inbox,
  ) {}

  /**
   * Creates or replaces the profile and binds exactly the listed acceptances. Throws a
   * DomainError (never retried) when the profile belongs to another group.
   */
  apply(upsert: GatewayProfileUpsertV1, receipt: UpsertReceipt): Promise<UpsertOutcome> {
    return this.profiles.transaction(async (manager) => {
      if (!(await this.inbox.record(manager, receipt))) return 'duplicate';
      const current = await this.profiles.lockById(manager, upsert.profileId);
      if (current) return this.replace(manager, upsert, current);
      const created = await this.profiles.insertIfAbsent(manager, {
        id: upsert.profileId,
        groupId: upsert.groupId,
        version: upsert.version,
        ...(await this.profileFields(manager, upsert)),
      });
      if (created) {
        await this.bindAcceptances(manager, upsert, []);
        return 'applied';
      }
      // Another upsert of this new profile committed first: replace what it stored.
      const winner = await this.profiles.lockById(manager, upsert.profileId);
      if (!winner) throw new Error(`profile ${upsert.profileId} was neither inserted nor found`);
      return this.replace(manager, upsert, winner);
    });
  }

  private async replace(manager: EntityManager, upsert: GatewayProfileUpsertV1, current: ProfileEntity): Promise<UpsertOutcome> {
    if (current.groupId !== upsert.groupId) {
      throw DomainError.ownerInvalid(`profile ${upsert.profileId} belongs to group ${current.groupId}, not ${upsert.groupId}`);
    }
    if (current.version >= upsert.version) return 'stale';
    await this.profiles.update(manager, upsert.profileId, { ...(await this.profileFields(manager, upsert)), version: upsert.version });
    await this.bindAcceptances(manager, upsert, await this.profiles.boundAcceptances(upsert.profileId, manager));
    return 'applied';
  }

  /**
   * The profile's merchant data. providerReference is unique per group, and merchant-management
   * sends its merchant's reference for every device: when another profile of the group holds
   * it, this profile is stored without one rather than refused (the device must still pay).
   */
  private async profileFields(manager: EntityManager, upsert: GatewayProfileUpsertV1): Promise<ProfileFields> {
    let providerReference = upsert.providerReference;
    if (providerReference !== null) {
      const holder = await this.profiles.providerReferenceHolder(manager, upsert.groupId, providerReference, upsert.profileId);
      if (holder) {
        this.logger.warn(`profile ${upsert.profileId} stored without providerReference ${providerReference}: profile ${holder} of group ${upsert.groupId} holds it`);
        providerReference = null;
      }
    }
    return {
      profileName: upsert.profileName,
      providerReference,
      merchantName: upsert.merchantName,
      merchantAddr: upsert.merchantAddr,
      mcc: upsert.mcc,
      countryCode: upsert.countryCode,
      currency: upsert.currency,
    };
  }

  /**
   * Binds exactly the upsert's acceptances, in order. Upserts carry no acceptance ids: a listed
   * acceptance reuses the bound one of the same acptName (so its id, which transactions name,
   * survives re-pushes) and is updated when it changed; the others are created. Bound
   * acceptances not listed are unbound; their rows stay.
   */
  private async bindAcceptances(manager: EntityManager, upsert: GatewayProfileUpsertV1, bound: AcceptanceEntity[]): Promise<void> {
    const unmatched = [...bound];
    const ids: string[] = [];
    for (const acceptance of upsert.acceptances) {
      const fields = acceptanceFields(acceptance);
      const index = unmatched.findIndex((candidate) => candidate.acptName === acceptance.acptName);
      if (index >= 0) {
        const [match] = unmatched.splice(index, 1);
        if (differs(match, fields)) await this.acceptances.update(manager, match.id, fields);
        ids.push(match.id);
      } else {
        const id = newAcceptanceId();
        await this.acceptances.insert(manager, { id, groupId: upsert.groupId, ...fields, tags: null });
        ids.push(id);
      }
    }
    await this.profiles.replaceBindings(manager, upsert.profileId, ids);
  }
}
