import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** How a working key arrived: sign-on (0800/001) or key exchange (0800/101). */
export type WorkingKeySource = 'SIGNON' | 'KEY_EXCHANGE';

/** The current working key of one terminal on one host, sealed with the platform's FieldCipher. */
@Entity({ name: 'working_key' })
@Check('ck_working_key_source', "source IN ('SIGNON', 'KEY_EXCHANGE')")
export class WorkingKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_working_key' })
  format: string;

  @PrimaryColumn({ type: 'varchar', length: 300, primaryKeyConstraintName: 'pk_working_key' })
  endpoint: string;

  @PrimaryColumn({ type: 'varchar', length: 8, primaryKeyConstraintName: 'pk_working_key' })
  tid: string;

  /** FieldCipher.seal of the clear key in hex; never the clear key. */
  @Column({ type: 'text' })
  sealedKey: string;

  /** 6 hex digits. */
  @Column({ type: 'varchar', length: 6 })
  keyCheckValue: string;

  @Column({ type: 'varchar', length: 16 })
  source: WorkingKeySource;

  @Column({ type: 'timestamptz', precision: 3 })
  receivedAt: Date;
}
