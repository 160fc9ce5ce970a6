import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** The last STAN given out for one terminal on one host: a row per (format, host endpoint, TID). */
@Entity({ name: 'stan_counter' })
@Check('ck_stan_counter_range', 'last_stan BETWEEN 1 AND 999999')
export class StanCounterEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'pk_stan_counter' })
  format: string;

  /** `host:port` of the host (`mock` for MOCK). */
  @PrimaryColumn({ type: 'varchar', length: 300, primaryKeyConstraintName: 'pk_stan_counter' })
  endpoint: string;

  @PrimaryColumn({ type: 'varchar', length: 8, primaryKeyConstraintName: 'pk_stan_counter' })
  tid: string;

  @Column({ type: 'integer' })
  lastStan: number;

  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' })
  updatedAt: Date;
}
