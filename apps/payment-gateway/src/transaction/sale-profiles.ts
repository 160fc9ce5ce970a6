import { Inject, Injectable } from '@nestjs/common';
import type { ProfileEntity } from '../profile/persistence/profile.entity';
import { ProfileRepository, SaleAcceptance } from '../profile/persistence/profile.repository';
import { ReadThroughCache } from '../shared/read-through-cache';
import { TRANSACTION_SETTINGS, TransactionSettings } from './transaction-settings';

/** A profile as a sale reads it: its row and its bound acceptances (what routing reads of them), in binding order (read-only). */
export interface SaleProfile {
  readonly profile: Readonly<ProfileEntity>;
  readonly acceptances: readonly Readonly<SaleAcceptance>[];
}

/** Profiles kept at most: far above the terminals one replica serves in a TTL. */
const MAX_PROFILES = 10_000;

/**
 * The profile and acceptances every sale reads, kept `profileCacheTtlMs` per profile instead of
 * read from PostgreSQL for each sale. Every write of profiles, acceptances or bindings in this
 * process (the API, the upsert consumer: {@link ProfileRepository.transaction}) drops them all
 * when it ends, so a profile disabled or retired here refuses the next sale at once; a write
 * through another replica is seen after at most the TTL. An unknown profile is not kept.
 */
@Injectable()
export class SaleProfiles {
  private readonly cache: ReadThroughCache<SaleProfile | null>;

  constructor(
    private readonly profiles: ProfileRepository,
    @Inject(TRANSACTION_SETTINGS) settings: TransactionSettings,
  ) {
    this.cache = new ReadThroughCache({ ttlMs: settings.profileCacheTtlMs, maxEntries: MAX_PROFILES });
    profiles.onWrite(() => this.cache.invalidate());
  }

  /** By id, whatever the owner (the sale applies the tenancy rule); null when there is none. */
  get(profileId: string): Promise<SaleProfile | null> {
    return this.cache.get(profileId, () => this.load(profileId), (found) => found !== null);
  }

  /** The row and its acceptances (what routing reads of them), in one statement. */
  private load(profileId: string): Promise<SaleProfile | null> {
    return this.profiles.saleProfile(profileId);
  }
}
