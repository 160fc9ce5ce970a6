import { oneOfCheck } from '@app/database';
import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** How a working key arrived: sign-on (0800/001) or key exchange (0800/101). */
export type WorkingKeySource = 'SIGNON' | 'KEY_EXCHANGE';

/**
 * The current working key of one terminal of one PBO on one host, sealed with the platform's
 * FieldCipher. Per PBO: another PBO signing on with the same MID/TID to the same host gets a row
 * of its own and never replaces this one.
 */
@Entity({ name: 'working_key' })
@Check('ck_working_key_source', oneOfCheck('source', ['SIGNON', 'KEY_EXCHANGE']))
@Index('ix_working_key_exchange_due', ['nextExchangeAt'], { where: 'next_exchange_at IS NOT NULL' })
export class WorkingKeyEntity {
  /** The PBO (groupId of the requests); '' for keys stored before keys were kept per PBO and for callers that name none. */
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_working_key' })
  groupId: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_working_key' })
  format: string;

  @PrimaryColumn({ type: 'varchar', length: 300, primaryKeyConstraintName: 'pk_working_key' })
  endpoint: string;

  @PrimaryColumn({ type: 'varchar', length: 8, primaryKeyConstraintName: 'pk_working_key' })
  tid: string;

  /**
   * FieldCipher.seal of the clear key in hex; never the clear key. Null while the terminal has
   * none: it signed on without the key its format needs and the key exchange after failed (the
   * exchange is then due again at `nextExchangeAt`).
   */
  @Column({ type: 'text', nullable: true })
  sealedKey: string | null;

  /** 6 hex digits; null with `sealedKey`. */
  @Column({ type: 'varchar', length: 6, nullable: true })
  keyCheckValue: string | null;

  @Column({ type: 'varchar', length: 16 })
  source: WorkingKeySource;

  @Column({ type: 'timestamptz', precision: 3 })
  receivedAt: Date;

  /** The address the key came from (the acceptance's connUrl or the format's default): key exchanges go there. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  hostUrl: string | null;

  /** Card acceptor id and acceptance the terminal signed on with, sent again on key exchange. */
  @Column({ type: 'varchar', length: 15, nullable: true })
  mid: string | null;

  @Column({ type: 'varchar', length: 70, nullable: true })
  acptId: string | null;

  /** Acquiring institution id (field 32) the terminal signed on with, if any: key exchange sends it too. */
  @Column({ type: 'varchar', length: 11, nullable: true })
  acquirerId: string | null;

  /**
   * When the next key exchange (0800/101) is due; null when none is scheduled (the MOCK host, or
   * HOST_KEY_EXCHANGE_INTERVAL_MS=0). A replica that takes a due key moves this forward by the
   * retry delay first, so a failed exchange is tried again and no two replicas send the same one.
   */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  nextExchangeAt: Date | null;
}
