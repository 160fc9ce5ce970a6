import { canonicalJson, Clock, DomainError } from '@app/common';
import { describeTakenTerminal, GatewayAcceptanceV1, GatewayProfileOutcomeV1, GatewayProfileUpsertV1, outcomeReason, ProfileOutcomeKey } from '@app/contracts';
import { Inbox } from '@app/messaging/consumer';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newAcceptanceId } from '../shared/ids';
import { AcceptanceRepository, NewAcceptance, SyncedAcceptanceFields } from '../profile/persistence/acceptance.repository';
import { ProfileEntity } from '../profile/persistence/profile.entity';
import { NewProfile, ProfileDevice, ProfileFields, ProfileRepository, ProfileVersionRow, SyncedAcceptance } from '../profile/persistence/profile.repository';
import { TerminalClaim, TerminalIdentityRepository } from '../profile/persistence/terminal-identity.repository';
import { ProfileOutcomeRepository } from './persistence/profile-outcome.repository';

/** What became of one upsert message. */
export type UpsertOutcome = 'applied' | 'stale' | 'duplicate';

/** One upsert of a batch and the message that carried it. */
export interface ReceivedUpsert {
  upsert: GatewayProfileUpsertV1;
  receipt: UpsertReceipt;
}

/**
 * A batch that the set-based path does not take (a profile of another group, a concurrent
 * creation): the caller applies its upserts one by one, which decides each on its own.
 */
export class BatchNotApplicable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'BatchNotApplicable';
  }
}

/** The acceptance changes of a batch, gathered before they are written in one statement each. */
interface AcceptanceWrites {
  inserts: Array<NewAcceptance & SyncedAcceptanceFields>;
  updates: Map<string, SyncedAcceptanceFields & { id: string }>;
  bindings: Map<string, string[]>;
}

/** Which message carried the upsert: the inbox key. */
export interface UpsertReceipt {
  consumer: string;
  messageId: string;
  subject: string;
}

/**
 * An upserted acceptance's fields. The host address is the contract's `hostUrl`; an older
 * producer carried it as `extraParams.connUrl`, which is read from an upsert (merchant-management
 * speaks here, never the API) and kept out of the stored extraParams.
 */
function acceptanceFields(acceptance: GatewayAcceptanceV1): SyncedAcceptanceFields {
  const { connUrl, ...extraParams } = acceptance.extraParams;
  const legacyUrl = typeof connUrl === 'string' && connUrl !== '' && connUrl.length <= 512 ? connUrl : null;
  return {
    acptName: acceptance.acptName,
    hostMessageFormat: acceptance.hostMessageFormat,
    supportedPayments: [...acceptance.supportedPayments],
    primaryMid: acceptance.primaryMid,
    primaryTid: acceptance.primaryTid,
    extraParams: acceptance.hostUrl === undefined ? extraParams : acceptance.extraParams,
    hostUrl: acceptance.hostUrl === undefined ? legacyUrl : acceptance.hostUrl,
    acquirerRef: acceptance.acquirerRef ?? null,
  };
}

/** Retired when merchant-management says DISABLED; keeping its terminals when the device may come back (idled, logged out). */
function lifecycleOf(upsert: GatewayProfileUpsertV1): Pick<ProfileDevice, 'retired' | 'keepsTerminals'> {
  const retired = upsert.entityStatus === 'DISABLED';
  return { retired, keepsTerminals: retired && upsert.keepsTerminals === true };
}

/**
 * The device the upsert is for (only its token may take payments through the profile), its
 * lifecycle (retired when merchant-management says DISABLED) and its current activation (whose
 * token alone pays); an upsert without either keeps what the profile had.
 */
function deviceOf(upsert: GatewayProfileUpsertV1): ProfileDevice {
  return {
    deviceId: upsert.deviceId,
    merchantId: upsert.merchantId,
    ...(upsert.entityStatus ? lifecycleOf(upsert) : {}),
    ...(upsert.activeSdkId ? { activeSdkId: upsert.activeSdkId } : {}),
  };
}

function differs(stored: SyncedAcceptance, fields: SyncedAcceptanceFields): boolean {
  return (
    stored.acptName !== fields.acptName ||
    stored.acquirerRef !== fields.acquirerRef ||
    stored.hostUrl !== fields.hostUrl ||
    stored.hostMessageFormat !== fields.hostMessageFormat ||
    stored.primaryMid !== fields.primaryMid ||
    stored.primaryTid !== fields.primaryTid ||
    canonicalJson(stored.supportedPayments) !== canonicalJson(fields.supportedPayments) ||
    canonicalJson(stored.extraParams) !== canonicalJson(fields.extraParams)
  );
}

/**
 * Applies merchant-management's profile upserts (docs/architecture.md, flows 2 and 3)
 * idempotently: the message id is recorded in the inbox in the same transaction as the change,
 * and a version not above the stored one changes nothing, so redelivered, duplicated and
 * out-of-order messages are harmless.
 */
@Injectable()
export class ProfileSyncService {
  private readonly logger = new Logger('ProfileSync');

  constructor(
    private readonly profiles: ProfileRepository,
    private readonly acceptances: AcceptanceRepository,
    private readonly inbox: Inbox,
    private readonly outcomes: ProfileOutcomeRepository,
    private readonly clock: Clock,
    private readonly terminals: TerminalIdentityRepository,
  ) {}

  /**
   * Creates or replaces the profile and binds exactly the listed acceptances; an applied upsert
   * queues its APPLIED outcome in the same transaction. Throws a DomainError (never retried) when
   * the profile belongs to another group.
   */
  apply(upsert: GatewayProfileUpsertV1, receipt: UpsertReceipt): Promise<UpsertOutcome> {
    return this.profiles.transaction(async (manager) => {
      const outcome = await this.applyIn(manager, upsert, receipt);
      if (outcome === 'applied') await this.outcomes.enqueue(manager, [this.outcomeOf(upsert, 'APPLIED', null)]);
      return outcome;
    });
  }

  /**
   * Tells merchant-management that the upsert named by `key` will never be applied (it breaks the
   * contract, names another group's profile, or failed every delivery): a REJECTED outcome with
   * `reason`, in a transaction of its own.
   */
  reject(key: ProfileOutcomeKey, reason: string): Promise<void> {
    return this.outcomes.enqueueAlone(this.outcomeOf(key, 'REJECTED', outcomeReason(reason)));
  }

  private outcomeOf(key: ProfileOutcomeKey, outcome: GatewayProfileOutcomeV1['outcome'], reason: string | null): GatewayProfileOutcomeV1 {
    return {
      profileId: key.profileId,
      version: key.version,
      groupId: key.groupId,
      ...(key.deviceId === undefined ? {} : { deviceId: key.deviceId }),
      outcome,
      reason,
      decidedAt: this.clock.now().toISOString(),
    };
  }

  private async applyIn(manager: EntityManager, upsert: GatewayProfileUpsertV1, receipt: UpsertReceipt): Promise<UpsertOutcome> {
    if (!(await this.inbox.record(manager, receipt))) return 'duplicate';
    const current = await this.profiles.lockById(manager, upsert.profileId);
    if (current) return this.replace(manager, upsert, current);
    const created = await this.profiles.insertIfAbsent(manager, {
      id: upsert.profileId,
      groupId: upsert.groupId,
      version: upsert.version,
      ...(await this.profileFields(manager, upsert)),
      ...deviceOf(upsert),
    });
    if (created) {
      await this.bindAcceptances(manager, upsert, []);
      await this.claimTerminals(manager, [upsert.profileId], []);
      return 'applied';
    }
    // Another upsert of this new profile committed first: replace what it stored.
    const winner = await this.profiles.lockById(manager, upsert.profileId);
    if (!winner) throw new Error(`profile ${upsert.profileId} was neither inserted nor found`);
    return this.replace(manager, upsert, winner);
  }

  private async replace(manager: EntityManager, upsert: GatewayProfileUpsertV1, current: ProfileEntity): Promise<UpsertOutcome> {
    if (current.groupId !== upsert.groupId) {
      // The refusal reaches the upsert's PBO (its REJECTED outcome): the holder's group stays in this log only.
      this.logger.warn(`upsert of profile ${upsert.profileId} for group ${upsert.groupId} refused: group ${current.groupId} holds it`);
      throw DomainError.ownerInvalid(`profile ${upsert.profileId} belongs to another group`);
    }
    if (current.version >= upsert.version) return 'stale';
    const before = await this.terminals.identitiesOf(manager, { profileIds: [upsert.profileId] }, false);
    await this.profiles.update(manager, upsert.profileId, { ...(await this.profileFields(manager, upsert)), ...deviceOf(upsert), version: upsert.version });
    await this.bindAcceptances(manager, upsert, await this.profiles.boundAcceptances(upsert.profileId, manager));
    await this.claimTerminals(manager, [upsert.profileId], before);
    return 'applied';
  }

  /**
   * Claims the terminal identities the profiles now bind while live and releases those of
   * `before` nobody of their PBO binds any more (docs/decisions.md, "One owner per terminal
   * identity"); a terminal of another PBO refuses the upsert (409, never retried: REJECTED).
   */
  private async claimTerminals(manager: EntityManager, profileIds: string[], before: TerminalClaim[]): Promise<void> {
    const refused = await this.terminals.reconcile(manager, before, await this.terminals.identitiesOf(manager, { profileIds }, true));
    if (refused.length > 0) throw DomainError.conflict(describeTakenTerminal(refused[0]));
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
      timeZone: upsert.timeZone ?? null,
    };
  }

  /**
   * Binds exactly the upsert's acceptances, in order. Upserts carry no acceptance ids: a listed
   * acceptance reuses the bound one of the same acptName (so its id, which transactions name,
   * survives re-pushes) and is updated when it changed; the others are created. Bound
   * acceptances not listed are unbound; their rows stay.
   */
  private async bindAcceptances(manager: EntityManager, upsert: GatewayProfileUpsertV1, bound: SyncedAcceptance[]): Promise<void> {
    const writes: AcceptanceWrites = { inserts: [], updates: new Map(), bindings: new Map() };
    planAcceptances(upsert, bound, writes);
    await this.writeAcceptances(manager, writes);
  }

  private async writeAcceptances(manager: EntityManager, writes: AcceptanceWrites): Promise<void> {
    await this.acceptances.updateMany(manager, [...writes.updates.values()]);
    await this.acceptances.insertMany(manager, writes.inserts);
    await this.profiles.replaceBindingsMany(manager, writes.bindings);
  }

  /**
   * Applies many upserts in one transaction with a fixed number of statements (inbox, lock,
   * insert, update, read acceptances, write acceptances, bindings), whatever their number: the
   * same rules as {@link apply}, set-based. Within the batch the highest version of a profile
   * wins and the others are stale. Throws {@link BatchNotApplicable} (nothing written) when an
   * upsert needs a decision of its own: a profile of another group, or one created concurrently.
   * Upserts with a providerReference take the per-upsert lookup inside the same transaction.
   */
  applyBatch(items: ReceivedUpsert[]): Promise<UpsertOutcome[]> {
    return this.profiles.transaction(async (manager) => {
      const outcomes: UpsertOutcome[] = items.map(() => 'duplicate');
      const fresh = await this.inbox.recordMany(
        manager,
        items.map((item) => item.receipt),
      );
      // The newest fresh upsert of each profile; older ones in the batch are stale.
      const newest = new Map<string, number>();
      // The newest fresh upsert of each profile that carries a lifecycle: a newer one without (an older producer) keeps it.
      const lifecycle = new Map<string, GatewayProfileUpsertV1>();
      // Likewise the newest that names the current activation.
      const activation = new Map<string, GatewayProfileUpsertV1>();
      const freshCount = new Map<string, number>();
      items.forEach((item, index) => {
        // A message id is fresh once: a copy of it later in the same batch is a duplicate.
        if (!fresh.delete(item.receipt.messageId)) return;
        outcomes[index] = 'stale';
        freshCount.set(item.upsert.profileId, (freshCount.get(item.upsert.profileId) ?? 0) + 1);
        const withLifecycle = lifecycle.get(item.upsert.profileId);
        if (item.upsert.entityStatus && (!withLifecycle || withLifecycle.version < item.upsert.version)) lifecycle.set(item.upsert.profileId, item.upsert);
        const withActivation = activation.get(item.upsert.profileId);
        if (item.upsert.activeSdkId && (!withActivation || withActivation.version < item.upsert.version)) activation.set(item.upsert.profileId, item.upsert);
        const seen = newest.get(item.upsert.profileId);
        if (seen === undefined || items[seen].upsert.version < item.upsert.version) newest.set(item.upsert.profileId, index);
      });
      if (newest.size === 0) return outcomes;
      const locked = new Map((await this.profiles.lockManyById(manager, [...newest.keys()])).map((row) => [row.id, row]));
      const creates: Array<NewProfile & { updated: boolean }> = [];
      const replaces: ProfileVersionRow[] = [];
      for (const [profileId, index] of newest) {
        const { upsert } = items[index];
        const current = locked.get(profileId);
        if (current && current.groupId !== upsert.groupId) throw new BatchNotApplicable(`profile ${profileId} belongs to another group`);
        if (current && current.version >= upsert.version) continue;
        const carrier = lifecycle.get(profileId);
        const retired = carrier && carrier.version > (current?.version ?? 0) ? lifecycleOf(carrier) : {};
        const activated = activation.get(profileId);
        const activeSdkId = activated && activated.version > (current?.version ?? 0) ? { activeSdkId: activated.activeSdkId } : {};
        const row = { id: profileId, version: upsert.version, ...(await this.profileFields(manager, upsert)), ...deviceOf(upsert), ...retired, ...activeSdkId };
        if (current) replaces.push(row);
        else creates.push({ ...row, groupId: upsert.groupId, updated: (freshCount.get(profileId) ?? 0) > 1 });
        outcomes[index] = 'applied';
      }
      const created = await this.profiles.insertManyIfAbsent(manager, creates);
      if (created.size !== creates.length) throw new BatchNotApplicable('a profile of the batch was created concurrently');
      const before = await this.terminals.identitiesOf(manager, { profileIds: replaces.map((row) => row.id) }, false);
      await this.profiles.updateMany(manager, replaces);
      const bound = await this.profiles.boundAcceptancesOf(
        manager,
        replaces.map((row) => row.id),
      );
      const writes: AcceptanceWrites = { inserts: [], updates: new Map(), bindings: new Map() };
      for (const row of [...creates, ...replaces]) planAcceptances(items[newest.get(row.id) as number].upsert, bound.get(row.id) ?? [], writes);
      await this.writeAcceptances(manager, writes);
      const after = await this.terminals.identitiesOf(manager, { profileIds: [...creates, ...replaces].map((row) => row.id) }, true);
      // A terminal of another PBO is a refusal of that upsert alone: the one-by-one path decides it.
      if ((await this.terminals.reconcile(manager, before, after)).length > 0) throw new BatchNotApplicable('a terminal identity of the batch is another PBO\'s');
      await this.outcomes.enqueue(
        manager,
        items.filter((_item, index) => outcomes[index] === 'applied').map((item) => this.outcomeOf(item.upsert, 'APPLIED', null)),
      );
      return outcomes;
    });
  }
}

/** Adds one upsert's acceptance inserts, updates and bindings to `writes` (see {@link ProfileSyncService.bindAcceptances}). */
function planAcceptances(upsert: GatewayProfileUpsertV1, bound: SyncedAcceptance[], writes: AcceptanceWrites): void {
  const unmatched = [...bound];
  const ids: string[] = [];
  for (const acceptance of upsert.acceptances) {
    const pushed = acceptanceFields(acceptance);
    // The same acquirer profile (a renamed one keeps its acceptance's id: review r14p), else the same name, unless both name
    // acquirers and they differ (an acquirer deleted and another created with its name is another acquirer).
    const byRef = pushed.acquirerRef === null ? -1 : unmatched.findIndex((candidate) => candidate.acquirerRef === pushed.acquirerRef);
    const index =
      byRef >= 0
        ? byRef
        : unmatched.findIndex(
            (candidate) => candidate.acptName === acceptance.acptName && (candidate.acquirerRef === null || pushed.acquirerRef === null || candidate.acquirerRef === pushed.acquirerRef),
          );
    if (index >= 0) {
      const [match] = unmatched.splice(index, 1);
      // An older producer names no acquirer: the acceptance keeps the one it had.
      const fields = { ...pushed, acquirerRef: pushed.acquirerRef ?? match.acquirerRef };
      // An acceptance shared by two profiles of the batch takes the later upsert's fields, as one-by-one would.
      if (differs(match, fields) || writes.updates.has(match.id)) writes.updates.set(match.id, { id: match.id, ...fields });
      ids.push(match.id);
    } else {
      const id = newAcceptanceId();
      writes.inserts.push({ id, groupId: upsert.groupId, ...pushed, tags: null });
      ids.push(id);
    }
  }
  writes.bindings.set(upsert.profileId, ids);
}
