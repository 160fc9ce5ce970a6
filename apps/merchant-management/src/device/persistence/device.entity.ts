import { GatewayProfileOutcome } from '@app/contracts';
import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { AcceptanceSnapshot } from '../../activation-profile/acceptance';
import { MerchantEntity } from '../../merchant/persistence/merchant.entity';
import { Timestamped } from '../../shared/timestamps';
import { Device } from '../device';

/**
 * An activation code and, once a phone used it, the device. The code is kept sealed (encrypted
 * with a key outside the database) and found by a keyed digest, so a database reader can
 * neither read nor guess it.
 */
@Entity({ name: 'device' })
@Unique('uq_device_code_lookup', ['codeLookup'])
@Unique('uq_device_device_id', ['deviceId'])
@Index('ix_device_merchant_created', ['merchantUuid', 'createdAt'])
@Index('ix_device_group', ['groupId'])
@Index('ix_device_profile', ['profileId'])
@Check('ck_device_status', 'device_status BETWEEN 0 AND 4')
export class DeviceEntity extends Timestamped implements Device {
  @PrimaryColumn({ type: 'uuid' })
  uuid: string;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  /** RESTRICT: a merchant with live codes or devices cannot be deleted. */
  @Column({ type: 'uuid' })
  merchantUuid: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'merchant_uuid', foreignKeyConstraintName: 'fk_device_merchant' })
  merchant?: MerchantEntity;

  /** HMAC of the 12-digit code (lookup and uniqueness). */
  @Column({ type: 'varchar', length: 64 })
  codeLookup: string;

  /** The code, AES-GCM sealed (shown to the PBO, e-mailed). */
  @Column({ type: 'varchar', length: 256 })
  codeSealed: string;

  /** Assigned at the first activation (the SDK id); null while the code is pending. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  deviceId: string | null;

  @Column({ type: 'smallint', default: 0 })
  deviceStatus: number;

  @Column({ type: 'smallint', default: 0 })
  deviceUpdate: number;

  @Column({ type: 'varchar', length: 32, nullable: true })
  deviceType: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  deviceAlias: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  deviceName: string | null;

  /** scrypt hash of the device admin password; shown as `******`. */
  @Column({ type: 'varchar', length: 256, nullable: true })
  deviceAdminHash: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  appVersion: string | null;

  /** Payment method codes the device accepts; null means every bound method. */
  @Column({ type: 'jsonb', nullable: true })
  methodList: string[] | null;

  @Column({ type: 'jsonb', nullable: true })
  emvParams: Record<string, string> | null;

  /** `{acquirers: {<acquirerProfileId>: {<field>: <value>}}}`. */
  @Column({ type: 'jsonb', nullable: true })
  extParams: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 16, default: 'STANDARD' })
  operatingMode: string;

  /** Gateway profile id (`prof_…`); null while no acquirer matches the device. */
  @Column({ type: 'varchar', length: 80, nullable: true })
  profileId: string | null;

  /** Version of the last activation profile pushed; grows with every push. */
  @Column({ type: 'integer', default: 0 })
  profileVersion: number;

  /** The acceptances last pushed to the gateway. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  acceptances: AcceptanceSnapshot[];

  /** The version the gateway's last outcome is about (0: none yet); below profileVersion, the latest push awaits its outcome. */
  @Column({ type: 'integer', default: 0 })
  profileSyncVersion: number;

  /** The gateway's last outcome (APPLIED or REJECTED); null while none arrived. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  profileSyncOutcome: GatewayProfileOutcome | null;

  /** Why the gateway refused the profile; null unless REJECTED. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  profileSyncReason: string | null;

  /** When the gateway decided its last outcome. */
  @Column({ type: 'timestamptz', nullable: true })
  profileSyncedAt: Date | null;

  /** Its gateway profile was pushed before activeSdkId existed: re-pushed once at start, then cleared (migration 1764100000000). */
  @Column({ type: 'boolean', default: false })
  activeSdkBackfill?: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  activesAt: Date | null;

  /** A pending code cannot be used after this instant. */
  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  /** What the phone said about itself at activation. */
  @Column({ type: 'jsonb', nullable: true })
  deviceInfo: Record<string, unknown> | null;
}
