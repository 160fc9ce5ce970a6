import { oneOfCheck } from '@app/database';
import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { ENTITY_STATUSES, EntityStatus } from './entity-status';

/**
 * How a profile reaches one host: message format, payment methods, MID/TID. Owned by a PBO
 * group; bound to profiles through {@link ProfileAcceptanceEntity}. Unbinding keeps the row, so
 * the transactions that name an acceptance keep pointing at it.
 */
@Entity({ name: 'acceptance' })
@Check('ck_acceptance_entity_status', oneOfCheck('entity_status', ENTITY_STATUSES))
export class AcceptanceEntity {
  /** `acpt_…`, made by the gateway. */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_acceptance' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  groupId: string;

  @Column({ type: 'varchar', length: 128 })
  acptName: string;

  @Column({ type: 'varchar', length: 32 })
  hostMessageFormat: string;

  /** Payment method names (`VISA`, …), in the order given. */
  @Column({ type: 'text', array: true })
  supportedPayments: string[];

  @Column({ type: 'varchar', length: 32, nullable: true })
  primaryMid: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  primaryTid: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  extraParams: Record<string, unknown>;

  /**
   * The acquirer host's address as merchant-management pushed it (the acquirer profile's
   * connUrl): set by upserts only, never by the API. Null: the host connector's default for the
   * format. The only address a host request names; `extraParams` never is one.
   */
  @Column({ type: 'varchar', length: 512, nullable: true })
  hostUrl: string | null;

  @Column({ type: 'varchar', length: 16, default: 'ACTIVE' })
  entityStatus: EntityStatus;

  /**
   * The acquirer profile in merchant-management the acceptance comes from (`acquirerRef` of
   * gateway.profile.upsert.v1): set by upserts only; null for one the API created, or pushed by an
   * older producer. The same acquirer whatever its name or address.
   */
  @Column({ type: 'varchar', length: 64, nullable: true })
  acquirerRef: string | null;

  @Column({ type: 'text', array: true, nullable: true })
  tags: string[] | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  /** Null until the first update. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  updatedAt: Date | null;
}
