import { oneOfCheck } from '@app/database';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { ENTITY_STATUSES, EntityStatus } from './entity-status';

export const PROFILE_PROVIDER_REFERENCE_INDEX = 'uq_profile_provider_reference';

/**
 * A gateway profile: what the gateway needs to build a payment message for one terminal
 * (merchant data), owned by one PBO group. Created through the API or by an upsert from
 * merchant-management (docs/architecture.md, flow 2), which then owns `version`.
 */
@Entity({ name: 'profile' })
@Index(PROFILE_PROVIDER_REFERENCE_INDEX, ['groupId', 'providerReference'], { unique: true, where: 'provider_reference IS NOT NULL' })
// The cursor-paged list: one group's profiles in (created_at, id) order.
@Index('ix_profile_group_created', ['groupId', 'createdAt', 'id'])
@Check('ck_profile_entity_status', oneOfCheck('entity_status', ENTITY_STATUSES))
export class ProfileEntity {
  /** `prof_…`: made by the gateway (API) or by merchant-management (upsert). */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_profile' })
  id: string;

  /** The owning PBO: from the bearer token (API) or the upsert's groupId; never changes. */
  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  @Column({ type: 'varchar', length: 128 })
  profileName: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  providerReference: string | null;

  @Column({ type: 'varchar', length: 128 })
  merchantName: string;

  @Column({ type: 'varchar', length: 512, nullable: true })
  merchantAddr: string | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  mcc: string | null;

  @Column({ type: 'varchar', length: 2, nullable: true })
  countryCode: string | null;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** IANA time zone of the merchant (the local date and time a host is sent); null when never given. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  timeZone: string | null;

  @Column({ type: 'varchar', length: 16, default: 'ACTIVE' })
  entityStatus: EntityStatus;

  /**
   * The device the profile was pushed for was retired (its code deleted, or logged out,
   * decommissioned or idled in merchant-management): set by upserts only, apart from the PBO's own
   * `entityStatus`, so that neither undoes the other. A retired profile shows and acts DISABLED.
   */
  @Column({ type: 'boolean', default: false })
  retired: boolean;

  /**
   * Retired, but its device may come back (idled or logged out in merchant-management: upsert
   * `keepsTerminals`): its terminal claims stay, as merchant-management counts them (review r14h).
   */
  @Column({ name: 'keeps_terminals', type: 'boolean', default: false })
  keepsTerminals: boolean;

  /**
   * The merchant-management device the profile was pushed for (upserts only): only that device's
   * token may take payments through it. Null for profiles made through the API.
   */
  @Column({ type: 'varchar', length: 64, nullable: true })
  deviceId: string | null;

  /**
   * The device id (`SDK…`) of that device's current activation (upserts only): a device token
   * whose subject is another id (an earlier activation's, the old phone's) may not pay through the
   * profile. Null until an upsert names one (never activated, profiles made through the API, or
   * pushed by an older producer): then the token's profileId alone decides, as before.
   */
  @Column({ type: 'varchar', length: 64, nullable: true })
  activeSdkId: string | null;

  /** merchant-management's merchant of that device (upserts only); carried by the gateway's transaction events. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  merchantId: string | null;

  /** Version of the last upsert applied (0: never upserted); older or equal upserts are ignored. */
  @Column({ type: 'int', default: 0 })
  version: number;

  // Millisecond precision: the instant a cursor carries is then exactly the stored one.
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  /** Null until the first update. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  updatedAt: Date | null;
}

/** What the API shows and a sale obeys: DISABLED when the PBO disabled the profile or its device was retired. */
export function effectiveStatus(profile: Pick<ProfileEntity, 'entityStatus' | 'retired'>): EntityStatus {
  return profile.retired ? 'DISABLED' : profile.entityStatus;
}
